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
  /** A human verdict; OPEN only on a carried record or a person's own finding (`authored`). */
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
  /** A finding a person wrote (`verdict --new`, ./human.ts): an OPEN row that is no carried record. */
  authored?: true;
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
  authored: z.optional(z.literal(true)),
});

/** A queue line revtrail cannot read (a hand edit, a misspelt key): kept as it is, and named. */
export interface DamagedLine {
  /** 1-based line number in the queue file. */
  line: number;
  text: string;
  reason: string;
}

interface ParsedQueue {
  entries: QueuedVerdict[];
  damaged: DamagedLine[];
}

function parseQueue(text: string): ParsedQueue {
  const entries: QueuedVerdict[] = [];
  const damaged: DamagedLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const bad = (reason: string) => damaged.push({ line: i + 1, text: line, reason });
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      bad('not JSON');
      continue;
    }
    const parsed = queuedSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      bad(`${issue.path.join('.') || 'entry'}: ${issue.message}`);
      continue;
    }
    const e = parsed.data;
    // The row must be this entry's record; OPEN only for a carried one or a person's own finding.
    if (
      e.row.id !== e.id ||
      e.row.verdict !== e.verdict ||
      (e.verdict === 'OPEN' && !e.carriedFrom && !e.authored) ||
      (e.authored && (e.verdict !== 'OPEN' || e.carriedFrom)) ||
      (e.dropped && (!e.carriedFrom || e.verdict === 'OPEN'))
    ) {
      bad('the row does not match the entry');
      continue;
    }
    entries.push(e as QueuedVerdict);
  }
  return { entries, damaged };
}

/** Damaged lines go back as they were, after the entries: a rewrite never loses a verdict (docs/record.md "Faults"). */
const serialize = (entries: readonly QueuedVerdict[], damaged: readonly DamagedLine[]) =>
  entries.map((e) => JSON.stringify(e) + '\n').join('') + damaged.map((d) => d.text + '\n').join('');

async function readParsed(commonDir: string): Promise<ParsedQueue> {
  try {
    return parseQueue(await readFile(queueFile(commonDir), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], damaged: [] };
    throw storageFailure(error, queueFile(commonDir), 'read');
  }
}

/** The queued entries, oldest first; none when there is no queue yet. Never throws on content. */
export async function readQueue(commonDir: string): Promise<QueuedVerdict[]> {
  return (await readParsed(commonDir)).entries;
}

/** The lines of the queue that cannot be read: they stay in the file until a person mends or removes them. */
export async function damagedQueueLines(commonDir: string): Promise<DamagedLine[]> {
  return (await readParsed(commonDir)).damaged;
}

/** Read-modify-write under the queue lock; writes only when `change` returns a new list. */
async function updateQueue(
  commonDir: string,
  change: (entries: QueuedVerdict[]) => QueuedVerdict[] | null,
): Promise<QueuedVerdict[]> {
  await ensureDir(revtrailDir(commonDir));
  return withLock(queueLock(commonDir), async () => {
    const { entries, damaged } = await readParsed(commonDir);
    const next = change(entries);
    if (next === null) return entries;
    await writeFileAtomic(queueFile(commonDir), serialize(next, damaged));
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

/** Queues human verdicts in one write (`verdict --rule`); returns the queued ones they replaced, by finding. */
export async function enqueueVerdicts(
  commonDir: string,
  added: readonly QueuedVerdict[],
): Promise<Map<string, QueuedVerdict>> {
  const replaced = new Map<string, QueuedVerdict>();
  const ids = new Set(added.map((e) => e.id));
  await updateQueue(commonDir, (entries) => {
    for (const e of entries) if (ids.has(e.id) && isHumanEntry(e)) replaced.set(e.id, e);
    return [...entries.filter((e) => !(ids.has(e.id) && isHumanEntry(e))), ...added];
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
