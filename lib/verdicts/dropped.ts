/**
 * Verdicts of commits a rebase drops (`drop`, a deleted todo line, a commit that became empty):
 * git names them nowhere (post-rewrite lists only commits it rewrote, and runs not at all when
 * it rewrote none), so the rebase's before and after are compared: every verdict row of a
 * commit the old tip had and the new one lacks, that no rewrite carried and that the new
 * history does not hold, is queued with one line that says so. It goes, like a human verdict,
 * into the next commit whose history has its finding; `verdict --list` shows it and
 * `verdict --drop ID` discards it (docs/record.md "Rebase").
 */
import { readFile, rm } from 'node:fs/promises';
import type { Repo } from '../core/git/repo.js';
import { commitsDropped, run } from '../core/git/commands.js';
import { commitTrailerRows, readHistoryOf, recordKey } from '../record/history.js';
import { rebaseMarkFile } from '../core/state.js';
import { enqueueCarried, type QueuedVerdict } from './queue.js';

// A rebase of a long branch onto an unrelated one lists its whole history: bounded.
const MAX_DROPPED = 2000;

/** Queues the verdict rows of commits `before` reaches and `after` does not, except `rewritten` ones. */
export async function queueDropped(
  top: string,
  commonDir: string,
  before: string,
  after: string,
  rewritten: ReadonlySet<string>,
): Promise<QueuedVerdict[]> {
  let listed: string[];
  try {
    listed = (await run(commitsDropped(before, after, MAX_DROPPED), { cwd: top }))
      .split('\n')
      .filter((c) => c && !rewritten.has(c));
  } catch {
    return []; // the old tip is gone (gc) or unreadable: nothing to compare
  }
  if (listed.length === 0) return [];
  const rowsBy = await commitTrailerRows(top, listed);
  const found: Array<{ commit: string; row: QueuedVerdict['row'] }> = [];
  for (const commit of listed.slice().reverse()) {
    for (const row of rowsBy.get(commit) ?? []) if (row.verdict !== 'OPEN') found.push({ commit, row });
  }
  if (found.length === 0) return [];
  const kept = new Set((await readHistoryOf(top, [after])).map((h) => recordKey(h.row)));
  const now = new Date().toISOString();
  const entries: QueuedVerdict[] = found
    .filter((f) => !kept.has(recordKey(f.row)))
    .map((f) => ({
      id: f.row.id,
      verdict: f.row.verdict,
      rationale: f.row.rationale,
      row: f.row,
      queuedAt: now,
      carriedFrom: f.commit,
      dropped: true,
    }));
  return enqueueCarried(commonDir, entries);
}

/**
 * After a rebase: the drops between where the branch was when it started and HEAD now. Called
 * by post-rewrite (with the commits it rewrote), and, for a rebase that rewrote nothing (so git
 * ran no post-rewrite), by the next commit or `verdict --list`. An aborted rebase drops nothing.
 */
export async function settleRebase(
  repo: Repo,
  options: { rewritten?: ReadonlySet<string>; before?: string } = {},
): Promise<QueuedVerdict[]> {
  const mark = rebaseMarkFile(repo.gitDir);
  let before = options.before;
  try {
    before = (await readFile(mark, 'utf8')).trim() || before;
  } catch {
    // no mark: the post-checkout block is older than this version; post-rewrite passes its own
  }
  if (!before || !/^[0-9a-f]{40,64}$/.test(before)) {
    await rm(mark, { force: true });
    return [];
  }
  const added = await queueDropped(repo.top, repo.commonDir, before, 'HEAD', options.rewritten ?? new Set());
  await rm(mark, { force: true });
  return added;
}
