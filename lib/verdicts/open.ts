/**
 * Which findings a human can give a verdict to: OPEN rows in the history of HEAD without a
 * later human verdict, and the findings of recent hook reviews (last-review.json) that no
 * verdict answers yet. Findings that already have a verdict are known too (a DEFER can later
 * become an ACCEPT), but are not open.
 */
import { readHistoryRows, type HistoryRow } from '../record/history.js';
import type { TrailerRow } from '../record/row.js';
import type { Verdict } from '../core/vocabulary.js';
import { readLastReview, type ReviewOrigin } from './last-review.js';
import { readQueue, type QueuedVerdict } from './queue.js';

export interface KnownFinding {
  /** The finding's fields (verdict/rationale: its latest state). */
  row: TrailerRow;
  /** OPEN, or the latest human verdict in the history of HEAD. */
  state: Verdict;
  /** Where it was seen: a commit's trailer or a hook review not recorded yet. */
  origin: 'history' | ReviewOrigin;
  /** Commit of the latest row (origin history), or the tip of the range a review of commits saw it in. */
  commit?: string;
  /** A verdict waiting in the queue for this finding. */
  queued?: QueuedVerdict;
}

export interface FindingState {
  known: KnownFinding[];
  history: HistoryRow[];
  queue: QueuedVerdict[];
  /**
   * Findings answered in the history of HEAD that the last push review still counted: a key
   * answered ACCEPT (fixed in the files) that a pushed commit still adds, or an answer not fit
   * for its kind (docs/gate.md "After an ACCEPT").
   */
  stillInHistory: KnownFinding[];
}

/** State of every known finding, newest first. */
export async function findingState(top: string, commonDir: string): Promise<FindingState> {
  const [history, reviewed, queue] = await Promise.all([
    readHistoryRows(top, 'HEAD'),
    readLastReview(commonDir),
    readQueue(commonDir),
  ]);
  const byId = new Map<string, KnownFinding>();
  // History is newest first: the first commit that mentions an ID decides its state; within
  // that commit a human verdict outranks an OPEN row.
  for (const { commit, row } of history) {
    const seen = byId.get(row.id);
    if (!seen) byId.set(row.id, { row, state: row.verdict, origin: 'history', commit });
    else if (seen.commit === commit && seen.state === 'OPEN' && row.verdict !== 'OPEN')
      byId.set(row.id, { row, state: row.verdict, origin: 'history', commit });
  }
  // A record a rewrite left out waits in the queue: its finding is still known.
  for (const q of queue) {
    if (q.carriedFrom && !byId.has(q.id))
      byId.set(q.id, { row: q.row, state: q.verdict, origin: 'history', commit: q.carriedFrom });
  }
  for (const { row, origin, tip } of reviewed) {
    if (!byId.has(row.id)) byId.set(row.id, { row, state: 'OPEN', origin, ...(tip ? { commit: tip } : {}) });
  }
  const queued = new Map(queue.filter((q) => !q.carriedFrom).map((q) => [q.id, q]));
  const known = [...byId.values()].map((k) => (queued.has(k.row.id) ? { ...k, queued: queued.get(k.row.id) } : k));
  const pushed = new Set(reviewed.filter((r) => r.origin === 'pre-push').map((r) => r.row.id));
  const stillInHistory = known.filter((k) => k.state !== 'OPEN' && pushed.has(k.row.id));
  return { known, history, queue, stillInHistory };
}

/** The shortest ID prefix a verdict takes: `rf-` and this many hex digits. */
export const MIN_PREFIX_HEX = 6;

/** Why an ID (trimmed, lower case) cannot name a finding, or null when its shape is right. */
export function idProblem(id: string): 'too-short' | 'bad' | null {
  if (/^rf-[0-9a-f]{6,40}$/.test(id)) return null;
  if (/^(?:r|rf|rf-[0-9a-f]{0,5})$/.test(id)) return 'too-short';
  return 'bad';
}

/** Finds a known finding by its full ID or a unique prefix of it (at least `rf-` and 6 hex digits). */
export function lookupFinding(
  known: readonly KnownFinding[],
  id: string,
): { found: KnownFinding | null; ambiguous: KnownFinding[] } {
  const exact = known.find((k) => k.row.id === id);
  if (exact) return { found: exact, ambiguous: [] };
  if (!/^rf-[0-9a-f]{6,}$/.test(id)) return { found: null, ambiguous: [] };
  const matches = known.filter((k) => k.row.id.startsWith(id));
  return matches.length === 1 ? { found: matches[0]!, ambiguous: [] } : { found: null, ambiguous: matches };
}
