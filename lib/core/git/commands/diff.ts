/**
 * Diffs: the review's unified diff (work tree, index, range, two files), commits' patches, the
 * files and lines commits change. Every patch-producing command pins the settings that would
 * change git's output format, whatever the user's config says (external diff tools, colour,
 * prefixes, textconv, relative paths), and takes the per-file cap (`bigFile`, bytes) it puts
 * before the command: git shows a file over it as binary instead of diffing it line by line
 * (diffing 300 MB takes git longer than any hook may), and the credential rules then read its
 * start as text (lib/diff/blob-text.ts, docs/review.md "Big files").
 */
import type { GitCommand, StreamCommand } from '../run.js';
import { chunks, batches, records, stdinLines, text } from './shape.js';
import { parseRawDiff, type ChangedBlob } from './parse.js';

/** `git diff` with the fixed options (lib/diff/source.ts reads it). */
export const DIFF_ARGS = [
  'diff',
  '--no-ext-diff',
  '--no-color',
  '--no-textconv',
  '--no-relative',
  '-M',
  '--src-prefix=a/',
  '--dst-prefix=b/',
] as const;

/** Put before the command: git's per-file threshold for treating a file as binary. */
const bigFileConfig = (bigFile: number) => ['-c', `core.bigFileThreshold=${bigFile}`] as const;

/** `git diff ARGS --` (`--cached`, a base, a range, two commits) with the fixed options, as it arrives. */
export function diffOf(args: readonly string[], bigFile: number): StreamCommand<'chunks'> {
  return chunks([...bigFileConfig(bigFile), ...DIFF_ARGS, ...args, '--']);
}

/** The diff of `from` and `to` restricted to `paths`, taken literally (a `*` in a name is that name). */
export function treeDiff(from: string, to: string, paths: readonly string[], bigFile: number): StreamCommand<'chunks'> {
  return chunks([...bigFileConfig(bigFile), ...DIFF_ARGS, from, to, '--', ...paths], {
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
}

/** Two files outside any repository (`--no-index`, no prefixes), as it arrives; exit 1 is "they differ". */
export function fileDiff(oldFile: string, newFile: string, bigFile: number): StreamCommand<'chunks'> {
  return chunks(
    [
      ...bigFileConfig(bigFile),
      'diff',
      '--no-index',
      '--no-prefix',
      '--no-ext-diff',
      '--no-color',
      '--no-textconv',
      '-M',
      '--',
      oldFile,
      newFile,
    ],
    { okCodes: [1] },
  );
}

/** fileDiff's text without rename detection or the cap (a draft's before and after); exit 1 is "they differ". */
export function filePatch(oldFile: string, newFile: string): GitCommand<string> {
  return text(['diff', '--no-index', '--no-prefix', '--no-color', '--no-ext-diff', '--no-textconv', oldFile, newFile], {
    okCodes: [1],
  });
}

/**
 * Each commit's message and patch, as it arrives (lib/flows/push-commits.ts): `commits` named
 * on stdin in their order, or (null) the commits of `walk` but merges; each message between a
 * `<marker> <commit>` line and a `<marker>.` line. A merge (`merges`) is its combined diff
 * without rename detection; other commits are diffed against their first parent.
 */
export function patchesOfCommits(
  marker: string,
  commits: readonly string[] | null,
  walk: readonly string[],
  merges: boolean,
  bigFile: number,
): StreamCommand<'chunks'> {
  const which = commits ? ['--no-walk=unsorted', '--stdin'] : ['--no-merges'];
  const options = DIFF_ARGS.slice(1);
  const shape = merges
    ? ['--cc', ...options.filter((a) => a !== '-M'), '--no-renames']
    : ['--diff-merges=first-parent', ...options];
  return chunks(
    [
      ...bigFileConfig(bigFile),
      'log',
      ...which,
      `--format=${marker} %H%n%B%n${marker}.`,
      '--encoding=UTF-8',
      '-p',
      '--root',
      '--no-show-signature',
      ...shape,
      ...(commits ? [] : [...walk, '--']),
    ],
    { input: commits ? stdinLines(commits) : undefined },
  );
}

/**
 * HEAD's history under `walk`, oldest first, each commit `<mark><commit>\0<parents>\0<author>\0`
 * and its patch against the first parent (full blob ids), in batches of records cut at `mark`.
 */
export function historyPatches(mark: string, walk: readonly string[], bigFile: number): StreamCommand<'batches'> {
  return batches(
    [
      ...bigFileConfig(bigFile),
      'log',
      ...DIFF_ARGS.slice(1),
      '--full-index',
      '--diff-merges=first-parent',
      '--reverse',
      `--format=tformat:${mark}%H%x00%P%x00%aN <%aE>%x00`,
      '-p',
      ...walk,
      'HEAD',
      '--',
    ],
    { separator: mark },
  );
}

/** The files a diff range (`A..B`, `A...B`) leaves in its new tree, with their blobs. */
export function changedBlobs(range: string): GitCommand<ChangedBlob[]> {
  return {
    args: ['diff', '--raw', '-z', '--no-renames', '--no-abbrev', '--no-ext-diff', '--end-of-options', range, '--'],
    parse: (a) => parseRawDiff(a.text),
  };
}

/**
 * The files each of `commits` changes against its first parent (the root commit: all its
 * files), as -z records: each commit's name (--always: every one, in input order), then its paths.
 */
export function namesByCommit(commits: readonly string[]): StreamCommand<'records'> {
  return records(
    [
      'diff-tree',
      '--stdin',
      '-r',
      '-z',
      '--always',
      '--name-only',
      '--no-renames',
      '--root',
      '--diff-merges=first-parent',
    ],
    { input: stdinLines(commits) },
  );
}

/**
 * Each of `commits`' zero-context patch against its first parent, line by line, restricted to
 * `paths` (taken literally) when given.
 */
export function linesByCommit(commits: readonly string[], paths: readonly string[] | null): StreamCommand<'records'> {
  return records(
    [
      '--literal-pathspecs',
      'diff-tree',
      '--stdin',
      '-r',
      '-U0',
      '--no-renames',
      '--root',
      '--diff-merges=first-parent',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      ...(paths ? ['--', ...paths] : []),
    ],
    { input: stdinLines(commits), separator: '\n' },
  );
}

/** The staged paths that differ from HEAD (no renames), NUL-terminated. */
export const stagedNames: GitCommand<string> = text([
  'diff',
  '--cached',
  '--name-only',
  '-z',
  '--no-renames',
  'HEAD',
  '--',
]);
