/**
 * Cheap looks at the verdict files for the hooks' common case, a commit with nothing queued
 * and no findings: a file read, no schema, no lock. Each answers "maybe" whenever unsure, and
 * the caller then takes the full path (queue.ts, last-review.ts), which decides as before.
 * The reads are synchronous: small files, and fs/promises is not loaded on a clean commit
 * (docs/hooks.md, "Start-up").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastReviewFile, queueFile, rebaseMarkFile } from '../core/state.js';
import type { ReviewOrigin } from './last-review.js';
import type { Finding } from '../review/types.js';

/** False only when the verdict queue surely holds no entry (no file, or only blank lines). */
export async function mayHaveQueued(commonDir: string): Promise<boolean> {
  try {
    return readFileSync(queueFile(commonDir), 'utf8').trim() !== '';
  } catch (error) {
    // No queue yet; any other failure is for readQueue to report.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * False only when last-review.json surely holds no finding for `origin`: saving an empty
 * review then changes nothing (saveLastReview neither erases nor writes), so it can be skipped.
 */
export async function mayHaveLastFindings(commonDir: string, origin: ReviewOrigin): Promise<boolean> {
  let text: string;
  try {
    text = readFileSync(lastReviewFile(commonDir), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  try {
    // Anything but a non-empty list fails the schema or holds nothing: saveLastReview reads
    // such a file as having no findings for the hook. A non-empty list: the schema decides.
    const findings = (JSON.parse(text) as { reviews?: Record<string, { findings?: unknown } | undefined> } | null)
      ?.reviews?.[origin]?.findings;
    return Array.isArray(findings) && findings.length > 0;
  } catch {
    return false; // not JSON: read as no findings at all
  }
}

/**
 * Keeps a review's findings for `revtrail verdict` (docs/trailers.md: open findings include the latest
 * review). Derived data: a failure is passed to `onError` and never fails the caller; a clean
 * review with nothing to erase loads and writes nothing.
 */
export async function rememberReview(
  commonDir: string,
  findings: readonly Finding[],
  origin: ReviewOrigin,
  onError: (message: string) => void = () => {},
  tip?: string,
): Promise<void> {
  try {
    if (findings.length === 0 && !(await mayHaveLastFindings(commonDir, origin))) return;
    const { saveLastReview } = await import('./last-review.js');
    await saveLastReview(commonDir, findings, origin, tip);
  } catch (error) {
    onError((error as Error).message);
  }
}

/**
 * Whether a rebase noted its start (the post-checkout hook) and has ended: its dropped commits'
 * verdicts are still to be queued (./dropped.ts). One file test in the common case.
 */
export function rebaseToSettle(gitDir: string): boolean {
  return (
    existsSync(rebaseMarkFile(gitDir)) &&
    !existsSync(join(gitDir, 'rebase-merge')) &&
    !existsSync(join(gitDir, 'rebase-apply'))
  );
}
