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

export async function findRepo(cwd: string = process.cwd()): Promise<Repo> {
  let out: string;
  try {
    out = (await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], { cwd })).stdout;
  } catch (error) {
    if (error instanceof GitError) throw new NotARepositoryError(cwd);
    throw error;
  }
  const [top, gitDir, common] = out.split('\n');
  if (!top || !gitDir || !common) throw new NotARepositoryError(cwd);
  return { top, gitDir, commonDir: isAbsolute(common) ? common : resolve(cwd, common), cwd };
}
