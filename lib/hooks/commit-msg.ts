/**
 * `revtrail hook commit-msg FILE` (SPEC §6): lint hand-written Review-Finding trailers, review the
 * staged diff, and add one OPEN trailer per new counted finding plus every queued verdict. The
 * message file changes only by an atomic replace, so a failure or a kill leaves it as it was.
 *
 * This runs on every commit. The common case (no trailer written by hand, no finding, nothing
 * queued) runs three git processes (where and HEAD in one, core.commentChar beside it, then the
 * staged diff), loads neither the CSV libraries nor the row schemas, reads no history and
 * spawns no `git interpret-trailers`: each of those loads or runs only when a message, a
 * finding or a queued verdict needs it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CliContext } from '../core/output.js';
import type { Repo } from '../core/git/repo.js';
import { isRevtrailError } from '../core/errors.js';
import { commentCharOf, isEmptyMessage, keptLines, readCommentConfig } from '../trailers/message.js';
import type { HistoryRow } from '../core/trailer/history.js';
import type { TrailerRow } from '../core/trailer/row.js';
import { isBlocking } from '../review/event.js';
import { mayHaveQueued, rememberReview } from '../verdicts/peek.js';
import { locateHook } from './locate.js';
import { findingLines, writeLines } from './print.js';
import { hookMessages as m } from '../messages/hooks.js';

const TRAILER_LINE = /^review-finding[ \t]*:/im;
const AUTOSQUASH = /^(fixup|squash|amend)! /;

export async function commitMsgHook(file: string, context: CliContext): Promise<number> {
  const err = context.stderr;
  const path = resolve(context.cwd, file);
  // Independent reads at once: each git process costs milliseconds on every commit.
  const located = locateHook(context.cwd);
  const reads = Promise.all([readFile(path), readCommentConfig(context.cwd)]);
  reads.catch(() => {}); // a failure is reported below, after "not a repository" as before
  const { repo, hasHead } = await located;
  const [original, configured] = await reads;
  const text = original.toString('utf8');
  const commentChar = commentCharOf(configured, text);
  const gitOptions = { cwd: repo.top, commentChar };

  // 1. Lint what a human wrote: a bad row blocks before anything else happens.
  let messageRows: TrailerRow[] = [];
  if (TRAILER_LINE.test(text)) {
    const [{ lintMessage, trailerValuesFromParse }, { parseTrailers }] = await Promise.all([
      import('../trailers/lint.js'),
      import('../trailers/write.js'),
    ]);
    const values = trailerValuesFromParse(await parseTrailers(original, gitOptions));
    const lint = lintMessage(text, { commentChar, trailerValues: values });
    const lines = lint.problems.map((p) => `${m.lintLine(file, p.line, p.level, p.reason)}\n    ${p.text}`);
    if (lint.errors) {
      writeLines(err, [m.lintFailed(lint.errors), ...lines, m.lintRemedy]);
      return 1;
    }
    writeLines(err, lines);
    messageRows = lint.rows.map((r) => r.row);
  }
  // 2. An empty message stays empty so that git aborts the commit as usual.
  if (isEmptyMessage(text, commentChar)) return 0;

  let history: HistoryRow[] | undefined;
  const readHistory = async () =>
    (history ??= hasHead ? await (await import('../core/trailer/history.js')).readHistoryRows(repo.top, 'HEAD') : []);

  // 3. Review the staged diff, unless this commit only merges or rearranges reviewed work. A
  //    review that cannot run is a warning: the queued verdicts below are still recorded.
  const rows: TrailerRow[] = [];
  // The review's report is printed once the rows are written: it says how many were recorded.
  let report: (recorded: boolean) => string[] = () => [];
  const skip = skipReason(text, commentChar, repo.gitDir);
  if (skip) err.write(m.reviewSkipped(skip) + '\n');
  else {
    let outcome: 'blocked' | Reviewed;
    try {
      outcome = await reviewStaged(repo, hasHead, messageRows, readHistory, err);
    } catch (error) {
      reportReviewFailure(error, err);
      outcome = { rows: [], report: () => [] };
    }
    if (outcome === 'blocked') return 1;
    rows.push(...outcome.rows);
    report = outcome.report;
  }

  // 4. Queued verdicts: every one not yet in a commit on HEAD goes into this message. A queue
  //    that cannot be read or locked now stays queued for the next commit; this one's rows go on.
  let queued: Awaited<ReturnType<typeof import('../verdicts/queue.js').pruneRecorded>> = [];
  try {
    if (await mayHaveQueued(repo.commonDir)) queued = await (await import('../verdicts/queue.js')).pruneRecorded(repo.top, repo.commonDir, readHistory);
  } catch (error) {
    err.write(m.queueFailed(error instanceof Error ? error.message : String(error)) + '\n');
  }
  rows.push(...queued.map((q) => q.row));

  let written = rows.length === 0;
  if (rows.length) {
    const { addTrailersToFile } = await import('../trailers/write.js');
    try {
      await addTrailersToFile(path, rows, gitOptions);
      written = true;
    } catch (error) {
      // A full disk or a read-only .git: the message is as it was (atomic replace), and saying
      // so beats an "internal error"; the commit goes on without the rows.
      const { StorageError } = await import('../core/fs/storage.js');
      if (!(error instanceof StorageError)) throw error;
      writeLines(err, [...report(false), m.trailersNotWritten(error.message, rows.length), `  ${error.remedy}`]);
      return 0;
    }
  }
  writeLines(err, report(written));
  if (queued.length) err.write(m.verdictsRecorded(queued.map((q) => `${q.verdict} ${q.id}`)) + '\n');
  return 0;
}

interface Reviewed {
  rows: TrailerRow[];
  /** The lines about this review, given whether its rows reached the message. */
  report: (recorded: boolean) => string[];
}

/** Reviews the staged diff; returns the OPEN rows to add, or 'blocked' (commitMsg.block). */
async function reviewStaged(
  repo: Repo,
  hasHead: boolean,
  messageRows: readonly TrailerRow[],
  readHistory: () => Promise<HistoryRow[]>,
  err: NodeJS.WritableStream,
): Promise<'blocked' | Reviewed> {
  const [{ openReview, runReview }, { readQueue }] = await Promise.all([import('../review/index.js'), import('../verdicts/queue.js')]);
  const session = await openReview(repo.top, { repo }); // the hook's own repo: no second rev-parse
  const { config } = session;
  // One read of HEAD's history serves suppression and "already recorded on this branch".
  const result = await runReview(session, { cwd: repo.top, source: { kind: 'staged' }, verdictTip: hasHead ? 'HEAD' : null, history: readHistory, queued: readQueue });
  writeLines(err, result.warnings.map((w) => m.warning(w.replace(/[\r\n]+/g, ' '))));
  await rememberReview(repo.commonDir, result.findings, 'commit-msg', (why) => err.write(m.saveFailed(why) + '\n'));
  const blocking = result.findings.filter((f) => isBlocking(f.severity, config.softTests));
  if (config.commitMsg.block && result.event === 'REQUEST_CHANGES') {
    writeLines(err, [m.commitBlocked(blocking.length), ...findingLines(blocking), m.commitBlockedRemedy]);
    return 'blocked';
  }
  const rows: TrailerRow[] = [];
  if (config.commitMsg.record && result.findings.length) {
    const { findingRow } = await import('../trailers/from-finding.js');
    const known = new Set([...(await readHistory()).map((h) => h.row.id), ...messageRows.map((r) => r.id)]);
    for (const finding of result.findings) {
      if (known.has(finding.id)) continue;
      known.add(finding.id); // a folded finding and its twin never make two rows
      const row = findingRow(finding);
      if (row) rows.push(row);
      else err.write(m.notRecordable(finding.id) + '\n');
    }
  }
  const report = (recorded: boolean) =>
    result.findings.length || result.suppressed.length
      ? [
          m.summary(result.event, result.findings.length, recorded ? rows.length : 0, result.suppressed.length),
          ...findingLines(result.findings),
          ...(blocking.length ? [m.pushWillBlock] : []),
        ]
      : [];
  return { rows, report };
}

function reportReviewFailure(error: unknown, err: NodeJS.WritableStream): void {
  const remedy = isRevtrailError(error) && error.remedy ? ` (${error.remedy})` : '';
  err.write(m.reviewFailed(`${error instanceof Error ? error.message : String(error)}${remedy}`) + '\n');
  if (process.env.REVTRAIL_DEBUG === '1' && error instanceof Error && error.stack) err.write(`${error.stack}\n`);
}

function skipReason(text: string, commentChar: string, gitDir: string): string | null {
  if (existsSync(join(gitDir, 'MERGE_HEAD'))) return m.skipMerge;
  const subject = keptLines(text, commentChar).find((l) => l.text.trim())?.text ?? '';
  const autosquash = AUTOSQUASH.exec(subject);
  return autosquash ? m.skipFixup(autosquash[1]!) : null;
}

/** Keeps this commit's findings for `revtrail verdict` (an empty review erases the last one's). */
