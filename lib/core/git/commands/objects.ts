/** Objects: blobs and trees by name, their types, the empty tree. */
import type { GitCommand, GitInvocation, StreamCommand } from '../run.js';
import { chunks, stdinLines, succeeds, text } from './shape.js';
import { parseCatFileBatch, parseLsTree, type CatFileObject, type TreeEntry } from './parse.js';

/** Objects by name (an oid, `:path`, `tip:path`), from one `git cat-file --batch`; names must hold no newline. */
export function catFileBatch(names: readonly string[]): GitCommand<Map<string, CatFileObject | null>> {
  return {
    args: ['cat-file', '--batch'],
    input: `${names.join('\n')}\n`,
    parse: (a) => parseCatFileBatch(a.bytes, names),
  };
}

/** catFileBatch read as it arrives (lib/diff/blob-text.ts cuts each blob at its cap on arrival instead of holding it whole). */
export function catFileBatchStream(names: readonly string[]): StreamCommand<'chunks'> {
  return chunks(['cat-file', '--batch'], { input: stdinLines(names) });
}

/** catFileBatch whose names are given later (`ask`), once; `cancel` gives none (git reads nothing and exits). */
export interface CatFileBatchLater extends GitCommand<Map<string, CatFileObject | null>> {
  ask(names: readonly string[]): void;
  cancel(): void;
}

/**
 * catFileBatch, started when run and asked later: for a question whose names come when git
 * would otherwise only start (an editor's buffer review, docs/editor.md "Start-up"). git
 * resolves each name when it reads it, so the answer is of the repository as it is when asked.
 */
export function catFileBatchLater(): CatFileBatchLater {
  let asked: readonly string[] = [];
  let give: (input: string) => void = () => {};
  const input = new Promise<string>((resolve) => {
    give = resolve;
  });
  return {
    args: ['cat-file', '--batch'],
    input,
    parse: (a) => parseCatFileBatch(a.bytes, asked),
    ask(names) {
      asked = names;
      give(stdinLines(names));
    },
    cancel() {
      give('');
    },
  };
}

/**
 * One `git cat-file --batch` kept open, its questions written as they come (../cat-file-session.ts):
 * an input that never settles leaves stdin a pipe the runner does not close.
 */
export function catFileSession(): GitInvocation {
  return { args: ['cat-file', '--batch'], input: new Promise<string>(() => {}) };
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

/** A blob's content as text. */
export function blobText(blob: string): GitCommand<string> {
  return text(['cat-file', 'blob', blob]);
}

/** `rev:file`'s content as text, or null when git has none (no such file, no commit yet). */
export function fileAt(rev: string, file: string): GitCommand<string | null> {
  return {
    args: ['cat-file', 'blob', `${rev}:${file}`],
    okCodes: [128],
    parse: (a) => (a.status === 0 ? a.text : null),
  };
}

/** Whether git has the object `name` names (`cat-file -e`). */
export function objectExists(name: string): GitCommand<boolean> {
  return succeeds(['cat-file', '-e', name], { okCodes: [1, 128] });
}

/** The type of each object `names` names, one a line in their order (`<name> missing` for none). */
export function objectTypes(names: readonly string[]): GitCommand<string[]> {
  return {
    args: ['cat-file', '--batch-check=%(objecttype)'],
    input: stdinLines(names),
    parse: (a) => a.text.split('\n'),
  };
}

/** A catFileBatchLater being run (lib/lsp/reviews.ts starts one ahead of the next review): asked once, or cancelled. */
export interface CatFileAhead {
  /** Asks it for `names` (once): catFileBatch's answer, without the wait for git to start. */
  ask(names: readonly string[]): Promise<Map<string, CatFileObject | null>>;
  /** Ends it unasked (its stdin closes: git reads nothing and exits). */
  cancel(): void;
}
