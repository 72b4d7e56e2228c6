/**
 * Git commands revtrail runs in several places, named once (like simple-git's tasks): each is
 * data (the argv) plus the parse of its answer, over the one runner in ./run.ts.
 */
import { git } from './run.js';

/** `rev-parse --verify REV^{commit}`: the commit a revision names, or null (unborn branch, no such rev). */
export async function peelCommit(cwd: string, rev: string): Promise<string | null> {
  const r = await git(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`], { cwd, okCodes: [1, 128] });
  const sha = r.stdout.trim();
  return r.status === 0 && sha ? sha : null;
}
