/**
 * Where a diff comes from: git (work tree, index, a range) or text the user gave (a file or
 * stdin). Options pin every setting that would change git's output format, whatever the
 * user's config says (external diff tools, colour, prefixes, textconv, relative paths).
 */
import { resolve } from 'node:path';
import type { DiffSource } from './types.js';
import { diffOf, emptyTree as emptyTreeCommand, indexAndHead, run, stream } from '../core/git/commands.js';
import { DEFAULT_CAPS, readCapped, type CappedDiff } from './cap.js';
import { GitError } from '../core/git/errors.js';
import { InputError, UsageError } from '../core/errors.js';
import { diffMessages as m } from '../messages/diff.js';

/** The unified diff text of `source` (readDiff without the names of the files cut). */
export async function readDiffText(cwd: string, source: DiffSource): Promise<string> {
  return (await readDiff(cwd, source)).text;
}

/**
 * The unified diff of `source`, run from any folder inside the work tree, with what one file
 * contributes capped (./cap.ts): `capped` names the files cut.
 */
export async function readDiff(cwd: string, source: DiffSource): Promise<CappedDiff> {
  switch (source.kind) {
    case 'text':
      return { text: source.text, capped: source.capped ?? [] };
    case 'worktree':
      return await worktreeDiff(cwd);
    case 'staged':
      // Without a commit, --cached compares with HEAD, or shows everything as new on an
      // unborn branch: one git process instead of two (the commit-msg hook runs this).
      return await (source.text ?? runDiff(cwd, ['--cached'], '--staged'));
    case 'range': {
      const range = source.range.trim();
      // A leading dash would be read as an option; a range needs at least one side.
      if (range === '' || range.startsWith('-') || /\s/.test(range)) {
        throw new UsageError(m.badRange(source.range), { remedy: m.badRangeRemedy });
      }
      return await (source.text ?? runDiff(cwd, [range], range));
    }
  }
}

/**
 * All uncommitted changes against HEAD: staged, unstaged and untracked (not ignored) files.
 * The untracked listing runs beside the HEAD lookup; only when it is not empty does the diff
 * go through a temporary index (./untracked.ts).
 */
async function worktreeDiff(cwd: string): Promise<CappedDiff> {
  // Loaded here: a hook's staged diff needs neither it nor fs/promises (docs/hooks.md, "Start-up").
  const { listUntracked, withUntrackedIndex } = await import('./untracked.js');
  const [head, untracked] = await Promise.all([
    // One process: where this work tree's index is (GIT_INDEX_FILE and linked worktrees
    // included, printed even when HEAD is unborn), and whether HEAD is a commit.
    run(indexAndHead, { cwd }),
    asInputError('HEAD', listUntracked(cwd)),
  ]);
  const base = head.status === 0 ? 'HEAD' : await emptyTree(cwd);
  if (untracked === '') return await runDiff(cwd, [base], 'HEAD');
  const indexPath = resolve(cwd, head.stdout.split('\n')[0]!);
  return await asInputError(
    'HEAD',
    withUntrackedIndex(cwd, indexPath, untracked, (env) => runDiff(cwd, [base], 'HEAD', env)),
  );
}

/** The empty tree, base of a repository without commits (everything is then new). */
function emptyTree(cwd: string): Promise<string> {
  // hash-object without -w names the empty tree in this repository's object format (sha1 or sha256).
  return run(emptyTreeCommand, { cwd });
}

async function runDiff(cwd: string, args: string[], what: string, env?: NodeJS.ProcessEnv): Promise<CappedDiff> {
  return await asInputError(what, gitDiff(cwd, args, env));
}

/**
 * `git diff ARGS --` with the fixed options, streamed and capped (./cap.ts). Over the per-file
 * cap git shows a file as binary (lib/core/git/commands/diff.ts), and the credential rules then
 * read its start as text (./blob-text.ts, docs/review.md "Big files").
 */
export function gitDiff(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CappedDiff> {
  return readCapped(stream(diffOf(args, DEFAULT_CAPS.fileBytes), { cwd, env }));
}

/** A failing git command becomes an input error naming the diff and git's first words. */
async function asInputError<T>(what: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof GitError) {
      // A read-only or full .git (git add -N writes an object): the file system's fault, said so.
      const refused = (await import('../core/fs/storage.js')).gitStorageFailure(error.stderr, m.objectStore);
      if (refused) throw refused;
      const said = error.stderr.trim().split('\n')[0] ?? '';
      throw new InputError(m.gitDiffFailed(what, said), { remedy: m.gitDiffRemedy, cause: error });
    }
    throw error;
  }
}

/**
 * The DiffSource for `--diff FILE` or `--diff -` (stdin). A relative FILE is taken from `cwd`.
 * Reading stdin waits for its end, so `git diff | revtrail review --diff -` works.
 */
export async function diffSourceFromFile(
  file: string,
  cwd: string,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<DiffSource> {
  if (file === '-') return { kind: 'text', text: await readStream(stdin), name: 'stdin' };
  const path = resolve(cwd, file);
  try {
    const { readFile } = await import('node:fs/promises');
    return { kind: 'text', text: await readFile(path, 'utf8'), name: file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(m.fileMissing(file), { remedy: m.fileRemedy });
    const why = code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new InputError(m.fileUnreadable(file, why), { remedy: m.fileRemedy });
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts).toString('utf8');
}
