/**
 * The cache's answer for a whole `mine` run, for a cached re-run started without the CLI
 * (lib/start/mine.ts): only the cache and git, none of the record code.
 */
import type { FileHandle } from 'node:fs/promises';
import { MineCache, cacheDir, sameSignature, signatureOf, type CacheMeta } from './cache.js';

/** The `git log` revision arguments of a run: the revisions, `--all` first, HEAD when none. */
export function mineArgs(options: { revs?: readonly string[]; all?: boolean }): string[] {
  const revs = [...(options.revs ?? [])];
  if (options.all) return ['--all', ...revs];
  return revs.length ? revs : ['HEAD'];
}

/**
 * The cached run of `mine` in the repository whose common dir is `commonDir`, or null. `answer`:
 * the output lines of signatureQuestion(mineArgs(options)), asked of git by the caller together
 * with where the repository is (lib/start/mine.ts: one git process in all).
 */
export async function cachedRunAnswered(
  cwd: string,
  commonDir: string,
  options: { revs?: readonly string[]; all?: boolean },
  answer: readonly string[],
): Promise<{ file: FileHandle; meta: CacheMeta } | null> {
  const args = mineArgs(options);
  const cache = new MineCache(cacheDir(commonDir));
  const [signature, meta] = await Promise.all([signatureOf(cwd, commonDir, args, answer), cache.lookup(args)]);
  if (!meta || !sameSignature(meta, signature)) return null;
  const file = await cache.openFile(meta);
  return file ? { file, meta } : null;
}
