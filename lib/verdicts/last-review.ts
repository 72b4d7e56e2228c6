/**
 * The findings of the latest hook reviews, kept in <commonDir>/revtrail/last-review.json so that
 * `revtrail verdict` knows an ID no commit recorded yet (one that blocked a push, or one from a
 * commit with commitMsg.record off). One entry per hook: a commit does not erase what the last
 * push found, and each new review of the same hook replaces the previous one.
 */
import { readFile } from 'node:fs/promises';
import { ensureDir } from '../core/fs/storage.js';
import * as z from 'zod/mini';
import { trailerRowSchema, type TrailerRow } from '../record/row.js';
import { findingRow } from '../report/trailer-rows.js';
import type { Finding } from '../review/types.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { withLock } from '../core/fs/lock.js';
import { lastReviewFile, lastReviewLock, revtrailDir } from '../core/state.js';

/** `editor`: the open buffers the language server reviewed (docs/editor.md "Code actions"). */
export type ReviewOrigin = 'review' | 'commit-msg' | 'pre-push' | 'editor';

export interface ReviewedFinding {
  /** The finding as an OPEN row. */
  row: TrailerRow;
  origin: ReviewOrigin;
  seenAt: string;
  /** A review of committed history (`review --range`): the tip commit holding the findings. */
  tip?: string;
}

const reviewSchema = z.object({
  seenAt: z.string(),
  findings: z.array(trailerRowSchema),
  tip: z.optional(z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
});
const fileSchema = z.object({
  version: z.literal(1),
  reviews: z.object({
    review: z.optional(reviewSchema),
    'commit-msg': z.optional(reviewSchema),
    'pre-push': z.optional(reviewSchema),
    editor: z.optional(reviewSchema),
  }),
});
type LastReviews = z.output<typeof fileSchema>;

async function readFileData(commonDir: string): Promise<LastReviews> {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(await readFile(lastReviewFile(commonDir), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // none yet, or damaged: derived data, as good as none
  }
  return { version: 1, reviews: {} };
}

/** The findings of the latest review of each hook, the newer review first. */
export async function readLastReview(commonDir: string): Promise<ReviewedFinding[]> {
  const { reviews } = await readFileData(commonDir);
  const entries = (['pre-push', 'commit-msg', 'review', 'editor'] as const).flatMap((origin) => {
    const review = reviews[origin];
    return review ? [{ origin, ...review }] : [];
  });
  entries.sort((a, b) => b.seenAt.localeCompare(a.seenAt));
  return entries.flatMap((e) =>
    e.findings.map((row) => ({ row, origin: e.origin, seenAt: e.seenAt, ...(e.tip ? { tip: e.tip } : {}) })),
  );
}

/** Replaces the hook's entry with this review's findings (none: the entry is emptied). */
export async function saveLastReview(
  commonDir: string,
  findings: readonly Finding[],
  origin: ReviewOrigin,
  tip?: string,
): Promise<void> {
  const rows = findings.map((f) => findingRow(f)).filter((r): r is TrailerRow => r !== null);
  await ensureDir(revtrailDir(commonDir));
  await withLock(lastReviewLock(commonDir), async () => {
    const data = await readFileData(commonDir);
    if (rows.length === 0 && !data.reviews[origin]?.findings.length) return; // nothing to say, nothing to erase
    data.reviews[origin] = { seenAt: new Date().toISOString(), findings: rows, ...(tip ? { tip } : {}) };
    await writeFileAtomic(lastReviewFile(commonDir), JSON.stringify(data, null, 1) + '\n');
  });
}
