/** Objects: blobs and trees by name, their types, the empty tree. */
import type { GitCommand, GitInvocation } from '../run.js';
import { text } from './shape.js';
import { parseLsTree, type TreeEntry } from './parse.js';

/**
 * One `git cat-file --batch-command` kept open, its questions written as they come (../versions.ts):
 * an input that never settles leaves stdin a pipe the runner does not close.
 */
export function catFileSession(): GitInvocation {
  return { args: ['cat-file', '--batch-command'], input: new Promise<string>(() => {}) };
}

/** What `rev` is once every tag is peeled (`rev^{}`): its object and type, or null when git has none. */
export function peeledObject(rev: string): GitCommand<{ oid: string; type: string } | null> {
  return {
    args: ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
    input: `${rev}^{}\n`,
    parse: (a) => {
      const m = /^([0-9a-f]+) (\w+)$/.exec(a.text.trim());
      return m ? { oid: m[1]!, type: m[2]! } : null;
    },
  };
}

/** The empty tree's object name in this repository's hash (a root commit's diff base). */
export const emptyTree: GitCommand<string> = {
  args: ['hash-object', '-t', 'tree', '--stdin'],
  parse: (a) => a.text.trim(),
};

/**
 * The entries of `paths` in a tree (`recursive`: every file under the folders; `sizes`: blob
 * sizes, `-l`). Paths are literal: a `*` in a file name is that name, not a glob.
 */
export function lsTree(
  treeish: string,
  paths: readonly string[],
  options: { recursive?: boolean; sizes?: boolean } = {},
): GitCommand<TreeEntry[]> {
  return {
    args: [
      'ls-tree',
      '-z',
      ...(options.sizes ? ['-l'] : []),
      '--full-tree',
      ...(options.recursive ? ['-r'] : []),
      treeish,
      '--',
      ...paths,
    ],
    env: { GIT_LITERAL_PATHSPECS: '1' },
    parse: (a) => parseLsTree(a.text),
  };
}

/** The `ls-tree -z --full-tree` records of `paths` at `commit` (`<mode> <type> <oid>\t<path>`), as git printed them. */
export function treeRecords(commit: string, paths: readonly string[]): GitCommand<string> {
  return text(['ls-tree', '-z', '--full-tree', commit, '--', ...paths]);
}

/** Every file path in `treeish`, NUL-terminated. */
export function treeNames(treeish: string): GitCommand<string> {
  return text(['ls-tree', '-r', '-z', '--name-only', treeish]);
}
