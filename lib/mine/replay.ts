/**
 * The cache's answer for a whole `mine` run, for a cached re-run started without the CLI
 * (lib/cli/mine-fast.ts): only the cache and git, none of the record code.
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
 * The cached run of `mine` started anywhere in the work tree, with git asked about the tips while
 * the repository (`repo`: its common dir) is still being found. A tip named relative to `cwd`
 * that reads otherwise from the top level is only a miss.
 */
export async function cachedRunBeside(
  cwd: string,
  repo: Promise<{ commonDir: string }>,
  options: { revs?: readonly string[]; all?: boolean },
): Promise<{ file: FileHandle; meta: CacheMeta } | null> {
  const args = mineArgs(options);
  const commonDir = repo.then((r) => r.commonDir);
  const [signature, meta] = await Promise.all([
    signatureOf(cwd, commonDir, args),
    commonDir.then((d) => new MineCache(cacheDir(d)).lookup(args)),
  ]);
  if (!meta || !sameSignature(meta, signature)) return null;
  const file = await new MineCache(cacheDir(await commonDir)).openFile(meta);
  return file ? { file, meta } : null;
}
