/** Where a hook runs and whether HEAD is a commit: core/git/repo.ts answers both from one `git rev-parse`. */
import { findRepo, type Repo } from '../core/git/repo.js';

export interface HookLocation {
  repo: Repo;
  /** HEAD is a commit (false on an unborn branch). */
  hasHead: boolean;
}

export function locateHook(cwd: string): Promise<HookLocation> {
  return findRepo(cwd, { commit: 'HEAD' }).then(({ repo, commit }) => ({ repo, hasHead: commit !== null }));
}
