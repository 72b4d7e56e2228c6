/**
 * Which queued records go into the commit being made (docs/record.md "Where a queued record
 * goes"): only one whose history carries the finding, and only when that history (or the
 * message) does not hold the same record already. Nothing here writes: the caller adds the
 * chosen rows to the message and the queue keeps them until the commit exists.
 */
import { recordKey, type HistoryRow } from '../record/history.js';
import type { TrailerRow } from '../record/row.js';
import { isHumanEntry, type QueuedVerdict } from './queue.js';

export interface CommitContext {
  /** Rows in the history of the new commit's parents. */
  history: readonly HistoryRow[];
  /** Rows the new commit carries already (its message, kept and new rows). */
  own: readonly TrailerRow[];
  /** Finding IDs this commit's own review raised (counted or answered). */
  raised: ReadonlySet<string>;
  /** Whether `anchor` is a parent of the new commit, or an ancestor of one. */
  descends: (anchor: string) => Promise<boolean>;
}

export interface QueueChoice {
  /** Written into this commit, in message order. */
  write: QueuedVerdict[];
  /** Not for this commit: its history does not carry the finding. */
  waiting: QueuedVerdict[];
  /** Already in a commit of this history: they can leave the queue now. */
  recorded: QueuedVerdict[];
}

export async function chooseQueued(entries: readonly QueuedVerdict[], context: CommitContext): Promise<QueueChoice> {
  const choice: QueueChoice = { write: [], waiting: [], recorded: [] };
  if (entries.length === 0) return choice;
  const inHistory = new Set(context.history.map((h) => recordKey(h.row)));
  const inOwn = new Set(context.own.map((r) => recordKey(r)));
  const idsInHistory = new Set(context.history.map((h) => h.row.id));
  const idsOwn = new Set(context.own.map((r) => r.id));
  const descends = new Map<string, Promise<boolean>>();
  const fromAnchor = (anchor: string | undefined) => {
    if (!anchor) return Promise.resolve(false);
    let known = descends.get(anchor);
    if (!known) descends.set(anchor, (known = context.descends(anchor).catch(() => false)));
    return known;
  };
  for (const entry of entries) {
    const key = recordKey(entry);
    if (inHistory.has(key)) {
      choice.recorded.push(entry);
      continue;
    }
    if (inOwn.has(key)) continue; // the message has it: the commit records it
    // A carried OPEN row is only wanted where the finding is on record nowhere else.
    if (entry.verdict === 'OPEN' && idsInHistory.has(entry.id)) {
      choice.recorded.push(entry);
      continue;
    }
    if (entry.verdict === 'OPEN' && idsOwn.has(entry.id)) continue;
    const carries =
      isHumanEntry(entry) || entry.dropped
        ? idsInHistory.has(entry.id) ||
          idsOwn.has(entry.id) ||
          context.raised.has(entry.id) ||
          (await fromAnchor(entry.anchor))
        : await fromAnchor(entry.anchor);
    if (carries) {
      choice.write.push(entry);
      inOwn.add(key);
    } else choice.waiting.push(entry);
  }
  // A finding's OPEN row goes before the verdicts that answer it.
  choice.write.sort((a, b) => Number(a.verdict !== 'OPEN') - Number(b.verdict !== 'OPEN'));
  return choice;
}
