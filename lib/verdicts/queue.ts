/**
 * The verdict queue (SPEC §5): human verdicts waiting for the next commit, one JSON object per
 * line in <commonDir>/revtrail/verdicts.jsonl. Changes happen under a lock and land by an atomic
 * rename, so two worktrees committing at once never tear or lose the file. An entry leaves the
 * queue only once its trailer is seen in a commit on HEAD: an aborted commit loses nothing.
 */
import { readFile } from 'node:fs/promises';
import { ensureDir, storageFailure } from '../core/fs/storage.js';
import * as z from 'zod/mini';
import { trailerRowSchema, type TrailerRow } from '../core/trailer/row.js';
import { readHistoryRows, type HistoryRow } from '../core/trailer/history.js';
import type { HumanVerdict } from '../core/vocabulary.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { withLock } from '../core/fs/lock.js';
import { queueFile, queueLock, revtrailDir } from '../core/state.js';

export interface QueuedVerdict {
  id: string;
  verdict: HumanVerdict;
  rationale: string;
  /** The trailer row to write: the finding's fields with this verdict and rationale. */
  row: TrailerRow;
  /** ISO 8601 time the verdict was queued. */
  queuedAt: string;
}

const queuedSchema = z.object({
  id: z.string(),
  verdict: z.enum(['ACCEPT', 'REJECT', 'DEFER', 'ACKNOWLEDGE']),
  rationale: z.string(),
  row: trailerRowSchema,
  queuedAt: z.string(),
});

function parseQueue(text: string): QueuedVerdict[] {
  const entries: QueuedVerdict[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue; // a hand-edited line; the rest of the queue still counts
    }
    const parsed = queuedSchema.safeParse(raw);
    if (parsed.success && parsed.data.row.id === parsed.data.id) entries.push(parsed.data);
  }
  return entries;
}

const serialize = (entries: readonly QueuedVerdict[]) => entries.map((e) => JSON.stringify(e) + '\n').join('');

/** The queued verdicts, oldest first; none when there is no queue yet. Never throws on content. */
export async function readQueue(commonDir: string): Promise<QueuedVerdict[]> {
  try {
    return parseQueue(await readFile(queueFile(commonDir), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw storageFailure(error, queueFile(commonDir), 'read');
  }
}

/** Read-modify-write under the queue lock; writes only when `change` returns a new list. */
async function updateQueue(commonDir: string, change: (entries: QueuedVerdict[]) => QueuedVerdict[] | null): Promise<QueuedVerdict[]> {
  await ensureDir(revtrailDir(commonDir));
  return withLock(queueLock(commonDir), async () => {
    const entries = await readQueue(commonDir);
    const next = change(entries);
    if (next === null) return entries;
    await writeFileAtomic(queueFile(commonDir), serialize(next));
    return next;
  });
}

/** Queues a verdict; a newer verdict for the same finding replaces the older one (returned). */
export async function enqueueVerdict(commonDir: string, entry: QueuedVerdict): Promise<QueuedVerdict | null> {
  let replaced: QueuedVerdict | null = null;
  await updateQueue(commonDir, (entries) => {
    replaced = entries.find((e) => e.id === entry.id) ?? null;
    return [...entries.filter((e) => e.id !== entry.id), entry];
  });
  return replaced;
}

/** Removes the entries `recorded` says are in a commit on HEAD; returns what stays queued. */
export async function pruneQueue(commonDir: string, recorded: (entry: QueuedVerdict) => boolean): Promise<QueuedVerdict[]> {
  if ((await readQueue(commonDir)).length === 0) return [];
  return updateQueue(commonDir, (entries) => {
    const kept = entries.filter((e) => !recorded(e));
    return kept.length === entries.length ? null : kept;
  });
}

/** Drops the queued verdict for `id`; returns it, or null when none was queued. */
export async function dropQueued(commonDir: string, id: string): Promise<QueuedVerdict | null> {
  let dropped: QueuedVerdict | null = null;
  await updateQueue(commonDir, (entries) => {
    dropped = entries.find((e) => e.id === id) ?? null;
    return dropped ? entries.filter((e) => e.id !== id) : null;
  });
  return dropped;
}

/** Whether a history row is this queued verdict's trailer (same finding, verdict and rationale). */
export function isRecordedBy(entry: QueuedVerdict, row: TrailerRow): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return row.id === entry.id && row.verdict === entry.verdict && norm(row.rationale) === norm(entry.rationale);
}

/**
 * Drops the entries whose trailer a commit on HEAD already carries; returns what stays queued.
 * `history`: the rows of HEAD, or a loader for them (called only when the queue has entries);
 * by default they are read here.
 */
export async function pruneRecorded(
  top: string,
  commonDir: string,
  history?: readonly HistoryRow[] | (() => Promise<readonly HistoryRow[]>),
): Promise<QueuedVerdict[]> {
  if ((await readQueue(commonDir)).length === 0) return [];
  const rows = typeof history === 'function' ? await history() : (history ?? (await readHistoryRows(top, 'HEAD')));
  return pruneQueue(commonDir, (entry) => rows.some((h) => isRecordedBy(entry, h.row)));
}
