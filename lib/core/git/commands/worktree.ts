/** The work tree and the index: what is tracked, ignored, changed or untracked; the index written; attributes. */
import type { GitCommand } from '../run.js';
import { text } from './shape.js';
import { parseNulList, parseStatusPaths } from './parse.js';

/** Which of `files` the index tracks (none outside a repository). */
export function trackedFiles(files: readonly string[]): GitCommand<string[]> {
  return { args: ['ls-files', '-z', '--', ...files], okCodes: [128], parse: (a) => parseNulList(a.text) };
}

/** Which of `files` the ignore rules cover, tracked or not (`git add` skips such a new file with exit 0). */
export function ignoredFiles(files: readonly string[]): GitCommand<string[]> {
  return {
    // -z needs --stdin: the paths go in NUL-separated and come back so.
    args: ['check-ignore', '-z', '--stdin', '--no-index'],
    input: files.map((f) => `${f}\0`).join(''),
    okCodes: [1, 128],
    parse: (a) => parseNulList(a.text),
  };
}

/** Which of `files` differ from HEAD or are untracked (none outside a repository). */
export function changedFiles(files: readonly string[]): GitCommand<string[]> {
  return {
    args: ['status', '--porcelain', '-z', '--', ...files],
    okCodes: [128],
    parse: (a) => parseStatusPaths(a.text),
  };
}

/** Every path the index has or the ignore rules leave untracked, NUL-terminated (from the folder run in). */
export const indexedAndOthers: GitCommand<string> = text([
  'ls-files',
  '-z',
  '--cached',
  '--others',
  '--exclude-standard',
]);

/**
 * The untracked, not ignored entries of the whole work tree, quoted as `core.quotePath=true`
 * quotes them, one a line; `folders`: a wholly untracked folder as one `dir/` entry (no empty ones).
 */
export function untrackedEntries(folders: boolean): GitCommand<string> {
  return text([
    '-c',
    'core.quotePath=true',
    'ls-files',
    '--others',
    '--exclude-standard',
    ...(folders ? ['--directory', '--no-empty-directory'] : []),
    '--',
    ':/',
  ]);
}

/**
 * Marks the paths of `listing` (one a line, literal) intent-to-add in the index (`add -N`: no
 * blob is written). A split index would make git write a shared index file into the git dir: the
 * index is written whole instead.
 */
export function addIntentToAdd(listing: string): GitCommand<string> {
  return text(['-c', 'core.splitIndex=false', 'add', '--intent-to-add', '--pathspec-from-file=-'], {
    input: listing,
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
}

/** Writes `entries` (`<mode> <object>\t<path>\0` each) into the index. */
export function updateIndexInfo(entries: string): GitCommand<string> {
  return text(['update-index', '-z', '--index-info'], { input: entries });
}

/** `check-attr -z` of `attributes` for `paths` (literal), from the work tree or (`cached`) the index only. */
export function checkAttributes(
  paths: readonly string[],
  attributes: readonly string[],
  cached: boolean,
): GitCommand<string> {
  return text(['check-attr', '--stdin', '-z', ...(cached ? ['--cached'] : []), ...attributes], {
    input: paths.map((p) => `${p}\0`).join(''),
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
}

/**
 * The scratch worktree and bare remote `doctor --timing` times a commit and a push in
 * (lib/install/doctor-timing.ts): no checkout, so git runs no post-checkout hook for it.
 */
export function addScratchWorktree(path: string, commit: string): GitCommand<string> {
  return text(['worktree', 'add', '--detach', '--no-checkout', path, commit]);
}

/** A bare repository at `path`. */
export function initBare(path: string): GitCommand<string> {
  return text(['init', '-q', '--bare', path]);
}

/** The index and the files made `commit`'s (a scratch worktree's reset between timed runs). */
export function readTreeReset(commit: string): GitCommand<string> {
  return text(['read-tree', '--reset', '-u', commit]);
}
