/**
 * `revtrail hook commit-msg FILE` (docs/record.md): lint hand-written Review-Finding trailers,
 * review what the commit really adds (a commit, an amend or a merge: ./commit-plan.ts), and add
 * one OPEN trailer per new counted finding, the records an amend keeps, and the queued records
 * whose finding this commit's history carries. The message file changes only by an atomic
 * replace, so a failure or a kill leaves it as it was.
 *
 * This runs on every commit. The common case (no trailer written by hand, no finding, nothing
 * queued) runs three git processes (where and HEAD in one, core.commentChar beside it, then the
 * staged diff), loads neither the CSV libraries nor the row schemas, reads no history and
 * spawns no `git interpret-trailers`: each of those loads or runs only when a message, a
 * finding or a queued verdict needs it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Repo } from '../core/git/repo.js';
import { isRevtrailError } from '../core/errors.js';
import { commentCharOf, isEmptyMessage, readCommentConfig, withoutRows } from '../record/message.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { StorageError } from '../core/fs/storage.js';
import { isAncestor, run } from '../core/git/commands.js';
import { keepRecordOf } from '../review/clean-record.js';
import { CREDENTIAL_RULE_SOURCES, runReview } from '../review/index.js';
import { openWorkspace } from '../workspace/index.js';
import { runnableRuleSources } from './rule-sources.js';
import type { HistoryRow } from '../record/history.js';
import type { TrailerRow } from '../record/row.js';
import { blocks } from '../review/findings/event.js';
import { mayHaveLastFindings, mayHaveQueued, rebaseToSettle, rememberReview } from '../verdicts/peek.js';
import { locateHook } from './locate.js';
import { readDiff } from '../diff/source.js';
import { planCommit, type CommitPlan } from './commit-plan.js';
import { findingLines } from './finding-lines.js';
import type { Outcome } from './outcome.js';
import type { CommitReads } from './commit-start.js';
import { hookMessages as m } from '../messages/hooks.js';
import { cleanCheckFile } from '../core/state.js';
import { cleanWithoutReview, TRAILER_LINE } from './commit-start.js';
import { decideCommitWith, type CommitFacts } from './commit-decide.js';
import type { Workspace } from '../workspace/index.js';
import type { Bundle } from '../bundle/types.js';

/**
 * What this flow still loads only when a commit needs it (docs/hooks.md "Start-up"): the record
 * stage, whose modules bring zod and the CSV libraries (a review with nothing to record, a clean
 * check that stood in for the review, loads neither), and a rebase's settling, which only the
 * commit after a rebase needs. The review and the rest are imported statically: this flow runs
 * only when the start bundle could not decide, and then the review is nearly always run.
 */
const load = {
  records: () => import('./commit-records.js'),
  rewrite: () => import('./rewrite.js'),
};

/** The commit being made, through commit-msg: its message file, and where git runs the hook. */
export interface CommitInput {
  cwd: string;
  /** The message file, as git passes it (relative to `cwd`). */
  file: string;
  /** Stack traces of a review that could not run (REVTRAIL_DEBUG=1). */
  debug?: boolean;
}

/** The commit flow (docs/record.md): what commit-msg decides and writes into the message file. */
export async function commitFlow(input: CommitInput, prepared?: CommitReads): Promise<Outcome> {
  const { cwd, file } = input;
  const lines: string[] = [];
  const path = resolve(cwd, file);
  // The start-up's clean check read these already when it ran (./commit-start.ts); else,
  // independent reads at once: each git process costs milliseconds on every commit.
  const located = prepared ? Promise.resolve(prepared.location) : locateHook(cwd);
  // The message is read synchronously: a small file, and no fs/promises on a clean commit.
  const reads = Promise.all([
    prepared ? prepared.message : Promise.resolve().then(() => readFileSync(path)),
    prepared?.commentConfig ?? readCommentConfig(cwd),
  ]);
  reads.catch(() => {}); // a failure is reported below, after "not a repository" as before
  // The staged diff too (git runs this hook at the top level): a plain commit reviews exactly
  // that, so it need not wait for the other answers. An amend or a merge reads its own.
  const stagedDiff = prepared ? Promise.resolve(prepared.staged) : readDiff(cwd, { kind: 'staged' });
  stagedDiff.catch(() => {}); // an error surfaces where the review reads it
  const { repo, hasHead } = await located;
  const [original, configured] = await reads;
  const text = original.toString('utf8');
  const commentChar = commentCharOf(configured, text);
  const gitOptions = { cwd: repo.top, commentChar };
  // The commit's one decision (./commit-decide.ts), going on from what the start gathered.
  const handed = prepared?.decided;
  const facts: CommitFacts = handed?.facts ?? {
    settle: rebaseToSettle(repo.gitDir),
    trailerLine: TRAILER_LINE.test(text),
  };
  facts.empty = isEmptyMessage(text, commentChar);
  let plan = handed?.plan;
  let clean = handed?.clean;
  // A rebase that rewrote nothing ran no post-rewrite: its drops are settled here, once (a file
  // test on every other commit; docs/record.md "Rebase").
  if (facts.settle) {
    try {
      lines.push(...(await (await load.rewrite()).reportDropped(repo)));
    } catch (error) {
      lines.push(m.queueFailed(error instanceof Error ? error.message : String(error)));
    }
    facts.queued = undefined; // the drops may have been queued: read again
  }

  let messageRows: TrailerRow[] = [];
  let lintLines: string[] = [];
  let amendedRows: TrailerRow[] = [];
  let parentRows: HistoryRow[] | undefined;
  const readParents = async () =>
    (parentRows ??= plan!.parents.length ? await (await load.records()).readHistoryOf(repo.top, plan!.parents) : []);
  // An amend keeps the amended commit's records; they count as this branch's history too.
  const readHistory = async () => [
    ...amendedRows.map((row) => ({ commit: plan!.amended!, row })),
    ...(await readParents()),
  ];
  let review: CommitReview | null = null;
  const decision = await decideCommitWith(facts, {
    // 1. Lint what a human wrote: a bad row blocks before anything else happens.
    lint: async () => {
      const { lintMessage, trailerValuesFromParse, parseTrailers } = await load.records();
      const values = trailerValuesFromParse(await parseTrailers(original, gitOptions));
      const lint = lintMessage(text, { commentChar, trailerValues: values });
      lintLines = lint.problems.map((p) => `${m.lintLine(file, p.line, p.level, p.reason)}\n    ${p.text}`);
      if (!lint.errors) lines.push(...lintLines);
      messageRows = lint.rows.map((r) => r.row);
      facts.lintErrors = lint.errors;
    },
    // 2. What this commit is: the history of its parents answers for it.
    plan: async () => {
      plan = await planCommit(repo, hasHead, stagedDiff);
      facts.plan = plan.kind;
    },
    state: async () => {
      facts.queued = await mayHaveQueued(repo.commonDir);
      facts.lastFindings = await mayHaveLastFindings(repo.commonDir, 'commit-msg');
    },
    // 3. A plain commit no rule can reach is decided without the review (docs/hooks.md "Clean commits").
    clean: async () => {
      clean = await cleanWithoutReview(repo, plan!);
      facts.clean = clean !== null;
    },
    // 4. Review. One that cannot run is a warning: kept and queued records are still written.
    review: async () => {
      amendedRows = plan!.amended ? await rowsOfCommit(repo.top, plan!.amended) : [];
      try {
        review = await reviewCommit(
          repo,
          plan!,
          messageRows,
          readHistory,
          lines,
          amendedRows.some((r) => r.verdict === 'OPEN'),
        );
        facts.review = review.facts;
      } catch (error) {
        lines.push(...reviewFailure(error, input.debug ?? false));
        facts.review = { credentials: 0, blocks: false };
      }
    },
  });
  // The one block point: why the commit stops, as the decision says.
  if (decision.kind === 'block') {
    if (decision.why === 'lint') lines.push(m.lintFailed(facts.lintErrors!), ...lintLines, m.lintRemedy);
    else lines.push(...(review as CommitReview | null)!.stopLines(decision.why));
    return { exit: 1, lines };
  }
  // An empty message stays empty so that git aborts the commit as usual; a clean commit with
  // nothing else to do writes nothing.
  if (decision.kind !== 'record') return { exit: 0, lines };
  let outcome: Reviewed | null;
  if (decision.reviewed) {
    const reviewed = review as CommitReview | null;
    outcome = reviewed ? await reviewed.finish() : null;
  } else outcome = await cleanReview(repo, clean!.foldAt, lines);
  const planned = plan!;

  const rows: TrailerRow[] = [];
  const notes: string[] = [];
  const recorded: string[] = [];
  if (amendedRows.length) {
    // Verdicts always; an OPEN row while this commit still raises its finding, or when no rule
    // here could tell (docs/record.md "Amend").
    const { recordKey } = await load.records();
    const present = new Set(messageRows.map(recordKey));
    const stillThere = (r: TrailerRow) => !outcome || outcome.raised.has(r.id) || !outcome.runnable.has(r.rule_source);
    const kept = amendedRows.filter((r) => !present.has(recordKey(r)) && (r.verdict !== 'OPEN' || stillThere(r)));
    rows.push(...kept);
    if (kept.length) notes.push(m.amendKept(kept.length));
  }
  if (outcome) rows.push(...outcome.open);
  // An amend's message still holds the amended commit's OPEN rows; one whose finding this
  // review no longer raises (the line was fixed) goes, as it would if not in the message
  // (docs/record.md "Amend"). A row answered in the same message stays with its answer.
  if (outcome && planned.amended && messageRows.length) {
    const { recordKey } = await load.records();
    const fromAmended = new Set(amendedRows.map(recordKey));
    const answered = new Set(messageRows.filter((r) => r.verdict !== 'OPEN').map((r) => r.id));
    const stale = messageRows.filter(
      (r) =>
        r.verdict === 'OPEN' &&
        fromAmended.has(recordKey(r)) &&
        !answered.has(r.id) &&
        !outcome.raised.has(r.id) &&
        outcome.runnable.has(r.rule_source),
    );
    if (stale.length) {
      const { keyFor } = await load.records();
      const current = readFileSync(path, 'utf8');
      const next = withoutRows(current, new Set(stale.map((r) => r.id)), commentChar, keyFor(commentChar));
      if (next !== current) {
        await writeFileAtomic(path, next);
        notes.push(m.amendDropped(stale.map((r) => r.id)));
      }
    }
  }

  // 5. Queued records, where this commit's history carries their finding. A queue that cannot be
  //    read or locked now stays queued for the next commit; this one's rows go on.
  try {
    if ((facts.queued ??= await mayHaveQueued(repo.commonDir))) {
      const queued = await chooseFromQueue(
        repo,
        planned,
        [...messageRows, ...rows],
        outcome?.raised ?? new Set(),
        readParents,
      );
      rows.push(...queued.write.map((q) => q.row));
      recorded.push(...queued.write.map((q) => `${q.verdict} ${q.id}`));
      if (queued.waiting.length) notes.push(m.queueWaiting(queued.waiting.map((q) => `${q.verdict} ${q.id}`)));
    }
  } catch (error) {
    lines.push(m.queueFailed(error instanceof Error ? error.message : String(error)));
  }

  // The review's report is printed once the rows are written: it says how many were recorded.
  const report = (written: boolean) => [
    ...(outcome ? outcome.report(written) : []),
    ...(written ? notes : []),
    ...(written && recorded.length ? [m.verdictsRecorded(recorded)] : []),
  ];
  if (rows.length) {
    const { addTrailersToFile, configuredFoldAt, TrailersUnreadableError } = await load.records();
    const foldAt = outcome ? outcome.foldAt : await configuredFoldAt(repo.top);
    try {
      await addTrailersToFile(path, rows, { ...gitOptions, foldAt });
    } catch (error) {
      // A full disk or a read-only .git, or rows git would not read back (its settings): the
      // message is as it was (atomic replace), and saying so beats an "internal error"; the
      // commit goes on without the rows, and queued verdicts stay queued.
      if (!(error instanceof StorageError) && !(error instanceof TrailersUnreadableError)) throw error;
      lines.push(...report(false), m.trailersNotWritten(error.message, rows.length), `  ${error.remedy}`);
      return { exit: 0, lines };
    }
  }
  lines.push(...report(true));
  return { exit: 0, lines };
}

/**
 * The commit flow for `git am` (pre-applypatch): the applied patch's staged diff reviewed with
 * the commit's stops (the credential stop, commitMsg.block), and nothing written: that hook has
 * no message to write into (docs/hooks.md).
 */
export async function appliedPatchFlow(cwd: string): Promise<Outcome> {
  const lines: string[] = [];
  const { repo, hasHead } = await locateHook(cwd);
  const staged = readDiff(repo.top, { kind: 'staged' });
  staged.catch(() => {}); // an error surfaces where the review reads it
  const plan = await planCommit(repo, hasHead, staged);
  // The history answers for suppression (a verdict already committed on this branch).
  const readHistory = async () =>
    plan.parents.length ? (await load.records()).readHistoryOf(repo.top, plan.parents) : [];
  // The commit's decision (./commit-decide.ts) over a message that is not there: nothing to
  // lint, nothing empty, no queue to take.
  const facts: CommitFacts = { settle: false, trailerLine: false, empty: false, plan: plan.kind, queued: false };
  let clean: { foldAt: number } | null = null;
  let review: CommitReview | null = null;
  const decision = await decideCommitWith(facts, {
    state: async () => {
      facts.lastFindings = await mayHaveLastFindings(repo.commonDir, 'commit-msg');
    },
    clean: async () => {
      clean = await cleanWithoutReview(repo, plan);
      facts.clean = clean !== null;
    },
    review: async () => {
      review = await reviewCommit(repo, plan, [], readHistory, lines, false, { record: false });
      facts.review = review.facts;
    },
  });
  if (decision.kind === 'block') {
    lines.push(...(review as CommitReview | null)!.stopLines(decision.why as 'credential' | 'findings'));
    return { exit: 1, lines };
  }
  if (decision.kind === 'record' && decision.reviewed) {
    lines.push(...(await (review as CommitReview | null)!.finish()).report(false));
  } else if (clean) await cleanReview(repo, (clean as { foldAt: number }).foldAt, lines);
  return { exit: 0, lines };
}

export interface Reviewed {
  /** OPEN rows for new counted findings. */
  open: TrailerRow[];
  /** Every finding ID this review raised, counted or answered by a verdict. */
  raised: Set<string>;
  /** Rule sources it ran (filled only when an amended commit has OPEN rows to judge). */
  runnable: Set<string>;
  /** The lines about this review, given whether its rows reached the message. */
  report: (written: boolean) => string[];
  /** `trailers.foldAt` of the config the review ran with. */
  foldAt: number;
}

/** The review of a commit as its decision reads it (./commit-decide.ts), with what follows from it. */
export interface CommitReview {
  /** What stops a commit: its credential findings, and whether commitMsg.block stops it. */
  facts: { credentials: number; blocks: boolean };
  /** Why the commit stops, for the decision's block. */
  stopLines(why: 'credential' | 'findings'): string[];
  /** The rows and the report, once the decision lets the commit go on. */
  finish(): Promise<Reviewed>;
}

/** A plain commit the clean check decided: the review's answer without the review. */
async function cleanReview(repo: Repo, foldAt: number, lines: string[]): Promise<Reviewed> {
  await rememberReview(repo.commonDir, [], 'commit-msg', (why) => lines.push(m.saveFailed(why)));
  return { open: [], raised: new Set(), report: () => [], runnable: new Set(), foldAt };
}

/**
 * The review of a commit being made: what its stops read (the credential stop, commitMsg.block)
 * and the lines they print, decided by the caller's decision. `record: false` (a hook that has no
 * message to write into, pre-applypatch) makes no OPEN rows, so it reads no history for them.
 */
export async function reviewCommit(
  repo: Repo,
  plan: CommitPlan,
  messageRows: readonly TrailerRow[],
  readHistory: () => Promise<HistoryRow[]>,
  lines: string[],
  judgeRows: boolean,
  options: { record?: boolean } = {},
): Promise<CommitReview> {
  // The queue's module (zod, the row codec) loads only if the review asks for queued verdicts.
  const readQueue = async (commonDir: string) => (await load.records()).readQueue(commonDir);
  const session = await openWorkspace(repo.top, { repo }); // the hook's own repo: no second rev-parse
  const { config } = session;
  // One read of the history serves suppression and "already recorded on this branch".
  const result = await runReview(session, {
    cwd: repo.top,
    source: await plan.source(),
    verdictTip: plan.parents[0] ?? plan.amended,
    history: readHistory,
    queued: readQueue,
    // A model reviewer runs in commit-msg only when its `hooks` say so (docs/model.md).
    model: config.reviewer.model?.hooks.includes('commit-msg') ?? false,
  });
  lines.push(...result.warnings.map((w) => m.warning(w.replace(/[\r\n]+/g, ' '))));
  // The next clean commit of this policy is decided from what this review ran (the bundle was
  // loaded: the diff had pieces).
  if (result.knowledge_docs.length) await keepCleanRecordOf(session, await session.bundle());
  await rememberReview(repo.commonDir, result.findings, 'commit-msg', (why) => lines.push(m.saveFailed(why)));
  const blocking = result.findings.filter((f) => blocks(f, config.softTests));
  // A credential never enters a commit by default, whatever commitMsg.block says; only an answer
  // that opens the gate for a credential (a queued REJECT) lets it through (docs/gate.md).
  const credentials = config.commitMsg.blockCredentials
    ? result.findings.filter((f) => CREDENTIAL_RULE_SOURCES.has(f.rule_source))
    : [];
  const stopLines = (why: 'credential' | 'findings') =>
    why === 'credential'
      ? [
          m.credentialBlocked(credentials.length),
          ...findingLines(credentials, 50),
          ...m.credentialWaysOn(
            credentials.map((f) => f.id),
            config.gate.credentialAnswers,
          ),
        ]
      : [m.commitBlocked(blocking.length), ...findingLines(blocking), m.commitBlockedRemedy];
  const finish = async (): Promise<Reviewed> => {
    const raised = new Set([...result.findings, ...result.suppressed].map((f) => f.id));
    const open: TrailerRow[] = [];
    if ((options.record ?? true) && config.commitMsg.record && result.findings.length) {
      const { findingRow } = await load.records();
      const known = new Set([...(await readHistory()).map((h) => h.row.id), ...messageRows.map((r) => r.id)]);
      for (const finding of result.findings) {
        if (known.has(finding.id)) continue;
        known.add(finding.id); // a folded finding and its twin never make two rows
        const row = findingRow(finding);
        if (row) open.push(row);
        else lines.push(m.notRecordable(finding.id));
      }
    }
    const report = (written: boolean) =>
      result.findings.length || result.suppressed.length
        ? [
            m.summary(
              result.event,
              result.findings.length,
              written ? open.length : 0,
              result.suppressed.length,
              plan.kind,
            ),
            ...findingLines(result.findings),
            ...(blocking.length ? [m.pushWillBlock] : []),
          ]
        : [];
    const runnable = judgeRows ? await runnableRuleSources(session) : new Set<string>();
    return { open, raised, report, runnable, foldAt: config.trailers.foldAt };
  };
  return {
    facts: {
      credentials: credentials.length,
      blocks: config.commitMsg.block && result.event === 'REQUEST_CHANGES',
    },
    stopLines,
    finish,
  };
}

/** Leaves the record of this review's policy for the next clean commit (review/clean-record.ts). */
async function keepCleanRecordOf(session: Workspace, bundle: Bundle): Promise<void> {
  if (!session.commonDir) return;
  await keepRecordOf(cleanCheckFile(session.commonDir), session, bundle);
}

/** The queued records this commit takes; those already in its history leave the queue. */
async function chooseFromQueue(
  repo: Repo,
  plan: CommitPlan,
  own: readonly TrailerRow[],
  raised: ReadonlySet<string>,
  readParents: () => Promise<HistoryRow[]>,
) {
  const { readQueue, pruneQueue, chooseQueued, recordKey } = await load.records();
  const entries = await readQueue(repo.commonDir);
  // An amend replaces HEAD: what descends from HEAD's parents or is HEAD itself goes in.
  const tips = plan.amended ? [plan.amended] : plan.parents;
  const descends = async (anchor: string) => {
    for (const tip of tips) {
      if (await run(isAncestor(anchor, tip), { cwd: repo.top })) return true;
    }
    return false;
  };
  const choice = await chooseQueued(entries, { history: await readParents(), own, raised, descends });
  if (choice.recorded.length) {
    const done = new Set(choice.recorded.map((e) => `${recordKey(e)}\0${e.carriedFrom ?? ''}`));
    await pruneQueue(repo.commonDir, (e) => done.has(`${recordKey(e)}\0${e.carriedFrom ?? ''}`));
  }
  return choice;
}

/** Every valid Review-Finding row of a commit's message (trailer block and body alike). */
async function rowsOfCommit(top: string, commit: string): Promise<TrailerRow[]> {
  const { commitMessages, lintMessage } = await load.records();
  const text = (await commitMessages(top, [commit])).get(commit) ?? '';
  return TRAILER_LINE.test(text) ? lintMessage(text, { commentChar: '\0' }).rows.map((r) => r.row) : [];
}

function reviewFailure(error: unknown, debug: boolean): string[] {
  const remedy = isRevtrailError(error) && error.remedy ? ` (${error.remedy})` : '';
  const line = m.reviewFailed(`${error instanceof Error ? error.message : String(error)}${remedy}`);
  return debug && error instanceof Error && error.stack ? [line, error.stack] : [line];
}
