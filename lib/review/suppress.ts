/**
 * Verdicts suppress (docs/review.md): a finding whose id has a REJECT, DEFER or ACKNOWLEDGE verdict
 * in the history of the reviewed tip, or queued by `revtrail verdict`, stays in the output
 * under `suppressed` and does not count. ACCEPT means "fixed": a finding still there counts.
 */
import type { HistoryRow } from '../core/trailer/history.js';
import { SUPPRESSING_VERDICTS, type Verdict } from '../core/vocabulary.js';
import type { Finding, QueuedVerdictLike, SuppressedFinding } from './types.js';

export interface VerdictEntry {
  verdict: string;
  rationale: string;
}


/**
 * The latest human verdict per finding id: history of `tip` (newest first), then the queue on
 * top (a queued verdict is newer than any commit). `tip` null: no history (an unborn branch).
 */
export async function loadVerdicts(
  top: string,
  tip: string | null,
  queued: readonly QueuedVerdictLike[],
  history?: () => Promise<HistoryRow[]>,
): Promise<Map<string, VerdictEntry>> {
  const verdicts = new Map<string, VerdictEntry>();
  if (tip !== null) {
    // The trailer reader (and its CSV parser) is loaded only when there are findings to look up.
    const { latestVerdicts, readHistoryRows } = await import('../core/trailer/history.js');
    for (const [id, row] of latestVerdicts(await (history ? history() : readHistoryRows(top, tip)))) {
      verdicts.set(id, { verdict: row.verdict, rationale: row.rationale });
    }
  }
  for (const q of queued) if (q.verdict !== 'OPEN') verdicts.set(q.id, { verdict: q.verdict, rationale: q.rationale });
  return verdicts;
}

export function applyVerdicts(
  findings: readonly Finding[],
  verdicts: ReadonlyMap<string, VerdictEntry>,
): { counted: Finding[]; suppressed: SuppressedFinding[] } {
  const counted: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  for (const f of findings) {
    const v = verdicts.get(f.id);
    if (v && SUPPRESSING_VERDICTS.includes(v.verdict as Verdict)) suppressed.push({ ...f, verdict: v.verdict, rationale: v.rationale });
    else counted.push(f);
  }
  return { counted, suppressed };
}
