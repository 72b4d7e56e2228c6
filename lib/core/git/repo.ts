/** Where we are: the work tree's top level and the git dirs, from one `git rev-parse`. */
import { isAbsolute, resolve } from 'node:path';
import { git } from './run.js';
import { GitError, NotARepositoryError } from './errors.js';

export interface Repo {
  /** Top level of the work tree (absolute). */
  top: string;
  /** This work tree's git dir (differs from commonDir in a linked worktree). */
  gitDir: string;
  /** The git common dir: shared by all worktrees; where queues and caches live. */
  commonDir: string;
  /** Folder the command was started from. */
  cwd: string;
}

const WHERE = ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'] as const;

export async function findRepo(cwd: string = process.cwd()): Promise<Repo> {
  return parseRepo(await ask([...WHERE], cwd, []), cwd);
}

/**
 * findRepo and whether HEAD is a commit (false on an unborn branch), from the same one git
 * process: the hooks ask both on every commit, and each process costs milliseconds. git prints
 * the folders even when HEAD does not resolve, and exits 1 then.
 */
export async function findRepoAndHead(cwd: string): Promise<{ repo: Repo; hasHead: boolean }> {
  const { repo, commit } = await findRepoAndCommit(cwd, 'HEAD');
  return { repo, hasHead: commit !== null };
}

/**
 * findRepo and the commit `rev` names (a tag peeled; null when it names none), from one `git
 * rev-parse`: pre-push asks both before anything else (lib/flows/push-plan.ts).
 */
export async function findRepoAndCommit(cwd: string, rev: string): Promise<{ repo: Repo; commit: string | null }> {
  const out = await ask([...WHERE, '--verify', '--quiet', `${rev}^{commit}`], cwd, [1]);
  return { repo: parseRepo(out, cwd), commit: (out.status === 0 && out.stdout.split('\n')[3]) || null };
}

/**
 * findRepo and more questions to the same `git rev-parse` (the rest of its output lines, as git
 * printed them): a cached `revtrail mine` asks where the repository is and what the tips are in
 * one git process (lib/mine/cache.ts signatureQuestion).
 */
export async function findRepoWith(cwd: string, more: readonly string[]): Promise<{ repo: Repo; rest: string[] }> {
  const out = await ask([...WHERE, ...more], cwd, []);
  return { repo: parseRepo(out, cwd), rest: out.stdout.split('\n').slice(3) };
}

/**
 * The repository a server hook runs in (a bare one, usually): there is no work tree, so `top`
 * is the git dir, where every git call of the hook runs.
 */
export async function findReceivingRepo(cwd: string): Promise<Repo> {
  const out = await ask(['rev-parse', '--absolute-git-dir', '--git-common-dir'], cwd, []);
  const [gitDir, common] = out.stdout.split('\n');
  if (!gitDir || !common) throw new NotARepositoryError(cwd);
  return { top: gitDir, gitDir, commonDir: isAbsolute(common) ? common : resolve(cwd, common), cwd };
}

async function ask(args: string[], cwd: string, okCodes: number[]): Promise<{ stdout: string; status: number }> {
  try {
    return await git(args, { cwd, okCodes });
  } catch (error) {
    if (error instanceof GitError) throw new NotARepositoryError(cwd);
    throw error;
  }
}

/** The first three lines of WHERE's answer; a relative common dir is relative to `cwd`. */
export function parseRepo(out: { stdout: string }, cwd: string): Repo {
  const [top, gitDir, common] = out.stdout.split('\n');
  if (!top || !gitDir || !common) throw new NotARepositoryError(cwd);
  return { top, gitDir, commonDir: isAbsolute(common) ? common : resolve(cwd, common), cwd };
}
