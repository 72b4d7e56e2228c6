/**
 * Where a hook runs and whether HEAD is a commit, from one `git rev-parse` (findRepo's three
 * answers plus `--verify --quiet HEAD^{commit}`): each git process costs milliseconds on
 * every commit. git prints the folders even when HEAD does not resolve, and exits 1 then.
 */
import { isAbsolute, resolve } from 'node:path';
import { git } from '../core/git/run.js';
import { GitError, NotARepositoryError } from '../core/git/errors.js';
import type { Repo } from '../core/git/repo.js';

export interface HookLocation {
  repo: Repo;
  /** HEAD is a commit (false on an unborn branch). */
  hasHead: boolean;
}

export async function locateHook(cwd: string): Promise<HookLocation> {
  let out: { stdout: string; status: number };
  try {
    out = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', '--verify', '--quiet', 'HEAD^{commit}'], {
      cwd,
      okCodes: [1],
    });
  } catch (error) {
    if (error instanceof GitError) throw new NotARepositoryError(cwd);
    throw error;
  }
  const [top, gitDir, common, head] = out.stdout.split('\n');
  if (!top || !gitDir || !common) throw new NotARepositoryError(cwd);
  return {
    repo: { top, gitDir, commonDir: isAbsolute(common) ? common : resolve(cwd, common), cwd },
    hasHead: out.status === 0 && Boolean(head),
  };
}
