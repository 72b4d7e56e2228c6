/**
 * The verdict queue (docs/record.md): records waiting for the next commit, one JSON object per
 * line in <commonDir>/revtrail/verdicts.jsonl. Two kinds of entry live here: human verdicts
 * (`revtrail verdict`), and records a rewrite left out of their new commit (`carriedFrom`).
 * Changes happen under a lock and land by an atomic rename, so two worktrees committing at once
 * never tear or lose the file. An entry leaves the queue only once its trailer is in a commit
 * that exists (post-commit, post-merge, post-rewrite): an aborted commit loses nothing.
 */
import { readFile } from 'node:fs/promises';
import { ensureDir, storageFailure } from '../core/fs/storage.js';
import * as z from 'zod/mini';
import { trailerRowSchema, type TrailerRow } from '../record/row.js';
import { readHistoryRows, recordKey, type HistoryRow } from '../record/history.js';
import { VERDICTS, type Verdict } from '../core/vocabulary.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { withLock } from '../core/fs/lock.js';
import { queueFile, queueLock, revtrailDir } from '../core/state.js';

export interface QueuedVerdict {
  id: string;
  /** A human verdict; OPEN only on a carried record. */
  verdict: Verdict;
  rationale: string;
  /** The trailer row to write: the finding's fields with this verdict and rationale. */
  row: TrailerRow;
  /** ISO 8601 time the verdict was queued. */
  queuedAt: string;
  /**
   * A commit known to carry the finding (HEAD when the verdict was given on a finding a
   * review or a push found, or the new commit of a rewrite): the entry may go into any commit
   * that descends from it.
   */
  anchor?: string;
  /** The rewritten commit whose record this is (a rewrite left it out of its new commit). */
  carriedFrom?: string;
  /**
   * The commit `carriedFrom` names was dropped by a rebase: the entry goes, like a human
   * verdict, only where the history has its finding (./dropped.ts).
   */
  dropped?: true;
}

const queuedSchema = z.object({
  id: z.string(),
  verdict: z.enum(VERDICTS),
  rationale: z.string(),
  row: trailerRowSchema,
  queuedAt: z.string(),
  anchor: z.optional(z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
  carriedFrom: z.optional(z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
  dropped: z.optional(z.literal(true)),
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
    if (!parsed.success) continue;
    const e = parsed.data;
    // The row must be this entry's record; OPEN only for a carried one.
    if (
      e.row.id !== e.id ||
      e.row.verdict !== e.verdict ||
      (e.verdict === 'OPEN' && !e.carriedFrom) ||
      (e.dropped && (!e.carriedFrom || e.verdict === 'OPEN'))
    )
      continue;
    entries.push(e as QueuedVerdict);
  }
  return entries;
}

const serialize = (entries: readonly QueuedVerdict[]) => entries.map((e) => JSON.stringify(e) + '\n').join('');

/** The queued entries, oldest first; none when there is no queue yet. Never throws on content. */
export async function readQueue(commonDir: string): Promise<QueuedVerdict[]> {
  try {
    return parseQueue(await readFile(queueFile(commonDir), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw storageFailure(error, queueFile(commonDir), 'read');
  }
}

/** Read-modify-write under the queue lock; writes only when `change` returns a new list. */
async function updateQueue(
  commonDir: string,
  change: (entries: QueuedVerdict[]) => QueuedVerdict[] | null,
): Promise<QueuedVerdict[]> {
  await ensureDir(revtrailDir(commonDir));
  return withLock(queueLock(commonDir), async () => {
    const entries = await readQueue(commonDir);
    const next = change(entries);
    if (next === null) return entries;
    await writeFileAtomic(queueFile(commonDir), serialize(next));
    return next;
  });
}

/** A human verdict queued by `revtrail verdict` (not a carried record). */
export const isHumanEntry = (e: QueuedVerdict) => e.carriedFrom === undefined;

/** Queues a human verdict; a newer one for the same finding replaces the older one (returned). */
export async function enqueueVerdict(commonDir: string, entry: QueuedVerdict): Promise<QueuedVerdict | null> {
  let replaced: QueuedVerdict | null = null;
  await updateQueue(commonDir, (entries) => {
    replaced = entries.find((e) => e.id === entry.id && isHumanEntry(e)) ?? null;
    return [...entries.filter((e) => !(e.id === entry.id && isHumanEntry(e))), entry];
  });
  return replaced;
}

/** Queues records a rewrite left out (each record once); returns the ones that were new. */
export async function enqueueCarried(commonDir: string, carried: readonly QueuedVerdict[]): Promise<QueuedVerdict[]> {
  const added: QueuedVerdict[] = [];
  if (carried.length === 0) return added;
  await updateQueue(commonDir, (entries) => {
    const known = new Set(entries.map((e) => recordKey(e)));
    for (const c of carried) {
      if (known.has(recordKey(c))) continue;
      known.add(recordKey(c));
      added.push(c);
    }
    return added.length ? [...entries, ...added] : null;
  });
  return added;
}

/** Follows a rewrite: anchors on a rewritten commit move to its new commit. */
export async function remapAnchors(commonDir: string, rewritten: ReadonlyMap<string, string>): Promise<void> {
  const entries = await readQueue(commonDir);
  if (!entries.some((e) => e.anchor && rewritten.has(e.anchor))) return;
  await updateQueue(commonDir, (list) =>
    list.map((e) => (e.anchor && rewritten.has(e.anchor) ? { ...e, anchor: rewritten.get(e.anchor)! } : e)),
  );
}

/** Removes the entries `recorded` says are in a commit; returns what stays queued. */
export async function pruneQueue(
  commonDir: string,
  recorded: (entry: QueuedVerdict) => boolean,
): Promise<QueuedVerdict[]> {
  if ((await readQueue(commonDir)).length === 0) return [];
  return updateQueue(commonDir, (entries) => {
    const kept = entries.filter((e) => !recorded(e));
    return kept.length === entries.length ? null : kept;
  });
}

/** Removes the entries whose record is one of `rows` (the rows of commits that exist). */
export async function pruneRows(
  commonDir: string,
  rows: readonly TrailerRow[],
): Promise<{ kept: QueuedVerdict[]; removed: QueuedVerdict[] }> {
  const keys = new Set(rows.map((r) => recordKey(r)));
  const removed: QueuedVerdict[] = [];
  const kept = await pruneQueue(commonDir, (e) => {
    const hit = keys.has(recordKey(e));
    if (hit) removed.push(e);
    return hit;
  });
  return { kept, removed };
}

/** Drops the queued human verdict for `id`; returns it, or null when none was queued. */
export async function dropQueued(commonDir: string, id: string): Promise<QueuedVerdict | null> {
  let dropped: QueuedVerdict | null = null;
  await updateQueue(commonDir, (entries) => {
    dropped = entries.find((e) => e.id === id && isHumanEntry(e)) ?? entries.find((e) => e.id === id) ?? null;
    return dropped ? entries.filter((e) => e !== dropped) : null;
  });
  return dropped;
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
  return (
    await pruneRows(
      commonDir,
      rows.map((h) => h.row),
    )
  ).kept;
}
