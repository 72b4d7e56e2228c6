/**
 * `revtrail hook post-commit` (and post-merge, which git runs instead for a merge): a queued
 * record leaves the queue once the commit just made carries it (docs/record.md). The hook
 * script calls this only when the queue file is not empty, so a clean commit costs nothing.
 */
import type { Outcome } from './outcome.js';
import { findRepo } from '../core/git/repo.js';
import { mayHaveQueued } from '../verdicts/peek.js';

/** The post-commit flow: the queue after the commit just made at `cwd`. */
export async function postCommitFlow(cwd: string): Promise<Outcome> {
  const repo = await findRepo(cwd);
  if (!(await mayHaveQueued(repo.commonDir))) return { exit: 0, lines: [] };
  const [{ commitTrailerRows }, { pruneRows }] = await Promise.all([
    import('../record/history.js'),
    import('../verdicts/queue.js'),
  ]);
  const rows = [...(await commitTrailerRows(repo.top, ['HEAD'])).values()].flat();
  if (rows.length) await pruneRows(repo.commonDir, rows);
  return { exit: 0, lines: [] };
}
