/**
 * Where revtrail runs: the `rev-parse` questions that locate the repository (../repo.ts findRepo
 * asks them, in one process with whatever else the caller needs), a path inside the git dir and
 * the worktrees.
 */
import type { GitCommand } from '../run.js';
import { parseWorktreeList, type Worktree } from './parse.js';

/** The top level, this work tree's git dir and the common dir: the first three lines of findRepo's answer. */
export const WHERE = ['--show-toplevel', '--absolute-git-dir', '--git-common-dir'] as const;

/**
 * `git rev-parse` of WHERE and `more` (a revision peeled and verified, or any further
 * questions): `okCodes` 1 when a verified revision may not resolve (git prints the folders even then).
 */
export function whereWith(
  more: readonly string[],
  okCodes: readonly number[],
): GitCommand<{ stdout: string; status: number }> {
  return { args: ['rev-parse', ...WHERE, ...more], okCodes, parse: (a) => ({ stdout: a.text, status: a.status }) };
}

/** A server hook's repository (bare, usually): its git dir and common dir, there is no work tree. */
export const receivingWhere: GitCommand<{ stdout: string; status: number }> = {
  args: ['rev-parse', '--absolute-git-dir', '--git-common-dir'],
  parse: (a) => ({ stdout: a.text, status: a.status }),
};

/**
 * An org entry's repository, bare or not (lib/org/repos.ts): whether it is bare, its git dirs,
 * HEAD's commit when `head`, and last the top level (a bare one has none and git exits 128
 * there, after printing the rest). null when git failed otherwise.
 */
export function entryWhere(head: boolean): GitCommand<{ stdout: string; status: number }> {
  return {
    args: [
      'rev-parse',
      '--is-bare-repository',
      '--absolute-git-dir',
      '--git-common-dir',
      ...(head ? ['HEAD^{commit}'] : []),
      '--show-toplevel',
    ],
    okCodes: [128],
    parse: (a) => ({ stdout: a.text, status: a.status }),
  };
}

/**
 * This work tree's index (GIT_INDEX_FILE and linked worktrees included, printed even when HEAD
 * is unborn) and whether HEAD is a commit (exit 0), in one process.
 */
export const indexAndHead: GitCommand<{ stdout: string; status: number }> = {
  args: ['rev-parse', '--git-path', 'index', '--verify', '--quiet', 'HEAD^{commit}'],
  okCodes: [1],
  parse: (a) => ({ stdout: a.text, status: a.status }),
};

/** A path inside the git dir as git resolves it (`hooks` follows core.hooksPath), relative to the work tree. */
export function gitPath(name: string): GitCommand<string> {
  return { args: ['rev-parse', '--git-path', name], parse: (a) => a.text.trim() };
}

/** The worktrees git knows (none outside a repository). */
export const worktreeList: GitCommand<Worktree[]> = {
  args: ['worktree', 'list', '--porcelain'],
  okCodes: [128],
  parse: (a) => parseWorktreeList(a.text),
};
