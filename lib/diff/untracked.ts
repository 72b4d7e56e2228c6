/**
 * Untracked files in the work-tree diff (docs/cli.md: "all uncommitted changes against HEAD").
 * `git diff HEAD` only sees paths the index knows, so new files are marked intent-to-add in a
 * throwaway copy of the index; the user's index is read once (copied) and never written.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addIntentToAdd, run, untrackedEntries } from '../core/git/commands.js';
import { unquotePath } from './quote.js';

/**
 * The untracked, not ignored files of the whole work tree (`:/`, even from a subfolder), as
 * pathspecs for `git add --pathspec-from-file`, one per line, relative to `cwd`; '' when there
 * are none. A folder holding nothing tracked is one pathspec (`new/`): git matches every
 * pathspec against every path, so ten thousand single files would cost seconds.
 * core.quotePath=true keeps the listing ASCII (odd bytes, newlines and quotes are C-quoted, a
 * quoting --pathspec-from-file reads), so names go back to git byte for byte, whatever their
 * encoding.
 */
export async function listUntracked(cwd: string): Promise<string> {
  const entries = await listOthers(cwd, true);
  const folders = entries.filter(isFolder);
  if (folders.length === 0) return lines(entries);
  // A nested repository (listed as `x/`) would be added as a gitlink: its outer folder is
  // given file by file instead, and the repository itself is left out (`git diff HEAD` would
  // show only its commit id).
  const files = await listOthers(cwd, false);
  const nested = files.filter(isFolder).map(unquotePath);
  if (nested.length === 0) return lines(entries);
  const pathspecs: string[] = [];
  for (const entry of entries) {
    if (!isFolder(entry)) {
      pathspecs.push(entry);
      continue;
    }
    const folder = unquotePath(entry);
    if (!nested.some((repo) => repo.startsWith(folder))) pathspecs.push(entry);
    else pathspecs.push(...files.filter((file) => !isFolder(file) && unquotePath(file).startsWith(folder)));
  }
  return lines(pathspecs);
}

async function listOthers(cwd: string, folders: boolean): Promise<string[]> {
  return (await run(untrackedEntries(folders), { cwd })).split('\n').filter((line) => line !== '');
}

const isFolder = (entry: string) => entry.endsWith('/') || entry.endsWith('/"');
const lines = (entries: readonly string[]) => entries.map((entry) => `${entry}\n`).join('');

/**
 * Runs `use` with an environment whose GIT_INDEX_FILE is a copy of `indexPath` in which the
 * `untracked` listing is marked intent-to-add (`git add -N`: no blob is written, and
 * `git diff HEAD` shows each as a new file with its full content). The copy is removed after.
 */
export async function withUntrackedIndex<T>(
  cwd: string,
  indexPath: string,
  untracked: string,
  use: (env: NodeJS.ProcessEnv) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'revtrail-index-'));
  try {
    const index = join(dir, 'index');
    try {
      await copyFile(indexPath, index);
    } catch (error) {
      // No index yet (nothing was ever added): git starts an empty one.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const env = { GIT_INDEX_FILE: index };
    // Literal pathspecs: a file named `*.js` or `:x` is that file; the copy is written whole
    // (no split index).
    await run(addIntentToAdd(untracked), { cwd, env });
    return await use(env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
