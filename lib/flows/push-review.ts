/**
 * Reviewing ref updates as the push gate does (docs/hooks.md "Push"), shared by pre-push on the
 * client and pre-receive/update on the server (docs/server.md): what each ref adds is reviewed as
 * one combined diff, and the credential rules also run on each added commit on its own, because a
 * secret a later commit removed is still in the pushed history. Any ref whose review has a
 * counted blocking finding (after committed verdicts) blocks.
 */
import type { Workspace } from '../workspace/index.js';
import { commitMessage, commitsTouching, emptyTree, run, subjectsAndParents } from '../core/git/commands.js';
import { fileVersions } from '../core/git/versions.js';
import { blobFile, tipFiles } from './push-tip-files.js';
import { addedFileDiff, messageDiff } from './push-commits.js';
import { commitMetadata, tagTexts } from './push-metadata.js';
import type { Finding } from '../review/types.js';
import { blocks } from '../review/findings/event.js';
import type { HistoryRow } from '../record/history.js';
import { runReview, CREDENTIAL_RULE_SOURCES } from '../review/index.js';
import { openWorkspace } from '../workspace/index.js';
import { credentialCheck } from '../review/credentials.js';
import { checkCommits } from './push-check.js';
import { findingLines } from './finding-lines.js';
import { lineSpan } from '../record/span.js';
import { pushProgress } from './push-progress.js';
import { preCheck, type CleanRecord, type Decision } from '../review/clean-check.js';
import { readDiff } from '../diff/source.js';
import type { CappedDiff } from '../diff/cap.js';
import { hookMessages as m } from '../messages/hooks.js';
import { checkSignedAnswers, type SignedCheck } from './push-signed.js';
import { policyFindings } from './push-policy.js';
import { keepRecordOf } from '../review/clean-record.js';
import { isPolicyChange } from '../record/policy-changes.js';
import type { HandedPatches } from './push-start.js';

export { openWorkspace };

/** What one ref update asks to review (see planRef in pre-push.ts). */
export interface ReviewPlan {
  /** The name the output uses for the ref. */
  ref: string;
  /** Combined diff range. */
  range: string;
  commits: string[];
  /** Those of `commits` that are merges. */
  merges: string[];
  /** The pushed commit (tags peeled): verdicts come from its history. */
  tip: string;
  /** One commit with one parent: its own diff is the combined diff. */
  single: boolean;
  /** The annotated tag object the ref names, when it is one: its message is pushed too. */
  tag?: string;
  /** A tree or blob the ref names instead of a commit (./push-plan.ts): `range` is ''. */
  object?: { oid: string; type: 'tree' | 'blob' | 'tag' };
}

export interface BlockedRef {
  ref: string;
  findings: Finding[];
}

export interface PushReview {
  blocked: BlockedRef[];
  /** Every finding of every ref, by ID (blocking or not). */
  findings: Map<string, Finding>;
  /** The pushed commits whose own diff adds each credential finding, oldest first (docs/gate.md "After an ACCEPT"). */
  holders: Map<string, Array<{ commit: string; tip: string }>>;
  /** The answers that needed a reviewer's signature: those that opened the gate and those refused (./push-signed.ts). */
  signed: SignedCheck | null;
  /** What the pusher is told whether or not the push is blocked: notes, demoted rules, warnings, opened answers. */
  lines: string[];
}

export interface PushReviewOptions {
  /** No reviewer program (the server: repository content never names a program it runs). */
  noReviewer?: boolean;
  /**
   * The clean check's record of this session's policy, when current (review/clean-check.ts): a
   * combined diff no rule can reach is decided without loading the bundle.
   */
  cleanRecord?: CleanRecord | null;
  /** Where a full review leaves that record for the next push or commit. */
  cleanFile?: string;
  /**
   * Combined diffs read already, by range, and the clean check's answer for them where it was
   * asked under `cleanRecord`'s policy (the start-up's clean-push check, ./push-start.ts).
   */
  diffs?: ReadonlyMap<string, { diff: CappedDiff; decision?: Decision }>;
  /**
   * `TIP COMMIT` of the commits whose own diff the credential screen passed over already: they
   * cannot hold a credential finding (the start-up's check screens only beside a combined diff
   * with pieces, as checkCommits does).
   */
  screened?: readonly string[];
  /** The start-up's reading of one ref's commit patches, handed on (./push-start.ts HandedPatches). */
  patches?: HandedPatches;
  /** Each ref's pushed metadata as the start-up read it, by `RANGE TIP TAG` (./push-start.ts). */
  metadata?: ReadonlyMap<string, Promise<string>>;
  /** The server's authenticated pusher (./pusher.ts), for signed answers; never set on a client. */
  pusher?: string | null;
  /**
   * The server's policy ref and its commit before the push: a push that moves it and changes the
   * reviewers or the gate settings has a finding for that (./push-policy.ts).
   */
  policy?: { ref: string; commit: string };
}

/**
 * Reviews `plans` with `session` (its config, bundle and doc map) and returns what blocks, with
 * the non-blocking notes and the warnings as lines. `terminal` is where the live progress is
 * drawn (a plain line every few seconds when it is no TTY: ./push-progress.ts).
 */
export async function reviewPlans(
  top: string,
  session: Workspace,
  plans: readonly ReviewPlan[],
  terminal: NodeJS.WriteStream,
  options: PushReviewOptions = {},
): Promise<PushReview> {
  const shown = pushProgress(terminal);
  const lines: string[] = [];
  // The one pre-check (review/clean-check.ts); none where a model reviewer runs at the push.
  const clean = options.noReviewer ? null : preCheck(options.cleanRecord ?? null, 'pre-push');
  const softTests = session.config.softTests;
  const isCredential = (s: string) => CREDENTIAL_RULE_SOURCES.has(s);
  // Answers to the kinds the policy's reviewers cover count only when signed (./push-signed.ts).
  const signedAnswers = session.config.gate.reviewers !== undefined;
  // The model reviewer runs at the push when its `hooks` name pre-push (docs/model.md); never on a server.
  const reviewer = options.noReviewer
    ? { reviewer: false as const }
    : { model: session.config.reviewer.model?.hooks.includes('pre-push') ?? false };
  // One read of each pushed tip's history serves every review of it: verdicts and calibration.
  const histories = new Map<string, Promise<HistoryRow[]>>();
  const historyOf = (tip: string) => () => {
    let rows = histories.get(tip);
    if (!rows) histories.set(tip, (rows = import('../record/history.js').then((h) => h.readHistoryRows(top, tip))));
    return rows;
  };
  // Refs pushing the same commits (a branch and its tag) share one review.
  const cache = new Map<
    string,
    { result: Promise<{ findings: Finding[]; warnings: string[] }>; hasDiff: Promise<boolean> }
  >();
  const reviewRange = (
    range: string,
    tip: string,
    only: 'all' | 'others',
    ref: string,
    pause?: () => Promise<void>,
  ) => {
    const key = `${only} ${range} ${tip}`;
    let pending = cache.get(key);
    if (!pending) {
      let sawChunk: (yes: boolean) => void = () => {};
      const hasDiff = new Promise<boolean>((resolve) => (sawChunk = resolve));
      const result = (async () => {
        const read = options.diffs?.get(range);
        let text: Promise<CappedDiff> | undefined = read ? Promise.resolve(read.diff) : undefined;
        if (clean) {
          text ??= readDiff(top, { kind: 'range', range });
          const decided = read?.decision ?? clean.decide(await text);
          if (decided.decision === 'clean') {
            sawChunk(decided.pieces > 0);
            return { findings: [], warnings: [] };
          }
        }
        const r = await runReview(session, {
          cwd: top,
          source: { kind: 'range', range, text },
          verdictTip: tip,
          history: historyOf(tip),
          signedAnswers,
          ...reviewer,
          ...(only === 'others' ? { ruleFilter: (s: string) => !isCredential(s) } : {}),
          onProgress: (done, total, path) => {
            sawChunk(true);
            shown.reviewing(ref, done, total, path);
          },
          pause,
        });
        sawChunk(r.knowledge_docs.length > 0);
        // The bundle was loaded (the diff had pieces): its policy's record for the next push.
        if (options.cleanFile && r.knowledge_docs.length)
          await keepRecordOf(options.cleanFile, session, await session.bundle());
        return { findings: r.findings, warnings: r.warnings };
      })();
      result.catch(() => sawChunk(false));
      cache.set(key, (pending = { result, hasDiff }));
    }
    return pending;
  };

  // Credential findings per pushed tip and commit (verdicts come from the tip's history), shared
  // by refs that push the same commits.
  const perCommit = new Map<string, { findings: Finding[]; warnings: string[] }>(
    (options.screened ?? []).map((key) => [key, { findings: [], warnings: [] }]),
  );
  const foundBy = new Map<ReviewPlan, ReadonlySet<string>>();
  // The whole-file review per range and tip, and the findings only it made, by the plan that made them.
  const atTip = new Map<string, Promise<{ findings: Finding[]; warnings: string[] }>>();
  const onlyAtTip = new Map<string, ReviewPlan>();
  const blocked: BlockedRef[] = [];
  const allFindings = new Map<string, Finding>();
  const warnings = new Set<string>();
  for (const plan of plans) {
    const tip = plan.tip;
    const found = new Map<string, Finding>();
    const add = (r: { findings: Finding[]; warnings: string[] }) => {
      for (const f of r.findings) if (!found.has(f.id)) found.set(f.id, f);
      for (const w of r.warnings) warnings.add(w);
    };
    // Each changed file whole, as the tip holds it: a key no single diff adds whole
    // (./push-tip-files.ts). Started first: git reads the blobs while the diffs are reviewed.
    const tipKey = `${plan.range} ${tip} ${plan.tag ?? ''}`;
    let whole = atTip.get(tipKey);
    if (!whole && !plan.object)
      atTip.set(
        tipKey,
        (whole = tipCredentials(
          top,
          plan,
          credentialCheck(session, tip, historyOf(tip), undefined, signedAnswers),
          options.metadata?.get(tipKey),
        )),
      );
    whole?.catch(() => {}); // awaited below, after the diffs' reviews
    if (plan.object) {
      // A tree or blob a tag names: its content whole, credentials only, no history to answer from.
      add(
        await objectCredentials(
          top,
          plan,
          credentialCheck(session, null, async () => [], undefined, signedAnswers),
        ),
      );
    } else if (plan.single) {
      // One non-merge commit: its own diff is the combined diff, so one review does both jobs.
      add(await reviewRange(plan.range, tip, 'all', plan.ref).result);
      shown.clear();
    } else {
      // The commits' own diffs stream from git while the combined diff is reviewed.
      const todo = plan.commits.filter((c) => !perCommit.has(`${tip} ${c}`));
      let failed = false;
      const review = reviewRange(plan.range, tip, 'others', plan.ref, todo.length ? turn : undefined);
      const handed = options.patches?.tip === tip ? options.patches.stream : undefined;
      if (handed) options = { ...options, patches: undefined }; // read once
      const checking = checkCommits(
        top,
        handed ?? { commits: todo, merges: new Set(plan.merges) },
        credentialCheck(session, tip, historyOf(tip), options.cleanRecord?.credentialSources, signedAnswers),
        {
          // A commit the screen passes over warns only what the combined review warns already,
          // once that had a diff (the bundle's diagnostics come with the first diff reviewed).
          screen: review.hasDiff,
          results: perCommit,
          key: (commit) => `${tip} ${commit}`,
          progress: (done) => shown.checking(plan.ref, done, todo.length),
          stopped: () => failed,
        },
      );
      checking.catch(() => {});
      const combined = await review.result.catch((error) => {
        failed = true;
        throw error;
      });
      await checking;
      shown.clear();
      add(combined);
      for (const commit of plan.commits) {
        const r = perCommit.get(`${tip} ${commit}`);
        if (r) add(r);
      }
    }
    if (options.policy && plan.ref === options.policy.ref && !plan.object) {
      add({ findings: await policyFindings(top, session, options.policy.commit, tip, historyOf(tip)), warnings: [] });
    }
    const held = new Set(found.keys());
    if (whole) add(await whole);
    for (const id of found.keys()) if (!held.has(id)) onlyAtTip.set(id, plan);
    for (const f of found.values()) allFindings.set(f.id, f);
    foundBy.set(plan, new Set(held));
    const blocking = [...found.values()].filter((f) => blocks(f, softTests));
    const calibrated = [...found.values()].filter((f) => f.calibration);
    if (blocking.length) blocked.push({ ref: plan.ref, findings: blocking });
    else if (found.size) lines.push(m.pushNotes(plan.ref, 'COMMENT', found.size));
    // A demoted rule's findings are named either way, with why they do not block.
    if (calibrated.length) lines.push(m.pushCalibrated(plan.ref, calibrated.length), ...findingLines(calibrated, 50));
  }
  lines.push(...[...warnings].map((w) => m.warning(w.replace(/[\r\n]+/g, ' '))));
  const credentials = blocked.flatMap((b) => b.findings).filter((f) => isCredential(f.rule_source));
  const holders = credentialHolders(plans, perCommit, foundBy, credentials);
  // A key only the whole file holds: the pushed commits that change that file assembled it.
  for (const f of credentials) {
    const plan = onlyAtTip.get(f.id);
    if (!plan || holders.has(f.id)) continue;
    const message = /^\((?:message|metadata|paths) of commit ([0-9a-f]{12})\)$/.exec(f.path);
    const commits = message
      ? plan.commits.filter((c) => c.startsWith(message[1]!))
      : await run(commitsTouching([...plan.commits].reverse(), f.path), { cwd: top });
    if (commits.length)
      holders.set(
        f.id,
        commits.map((commit) => ({ commit, tip: plan.tip })),
      );
  }
  const signed = signedAnswers
    ? await openSigned(top, session, plans, blocked, holders, lines, options.pusher ?? null)
    : null;
  return { blocked: blocked.filter((b) => b.findings.length), findings: allFindings, holders, signed, lines };
}

/**
 * The blocking findings whose answer needed a signature: those a listed reviewer signed leave
 * `blocked` (each named in `lines`, the audit's line on the pusher's terminal).
 */
async function openSigned(
  top: string,
  session: Workspace,
  plans: readonly ReviewPlan[],
  blocked: BlockedRef[],
  holders: ReadonlyMap<string, ReadonlyArray<{ commit: string }>>,
  lines: string[],
  pusher: string | null,
): Promise<SignedCheck | null> {
  const unique = new Map(blocked.flatMap((b) => b.findings).map((f) => [f.id, f]));
  const pushed = [...new Set(plans.flatMap((p) => p.commits))];
  const signed = await checkSignedAnswers(
    top,
    session,
    [...unique.values()],
    (f) => holders.get(f.id)?.map((h) => h.commit),
    pushed,
    pusher,
  );
  if (!signed?.opened.length) return signed;
  const opened = new Set(signed.opened.map((o) => o.finding.id));
  for (const b of blocked) b.findings = b.findings.filter((f) => !opened.has(f.id));
  lines.push(
    ...signed.opened.map((o) =>
      m.signedOpened(o.finding.id, `${o.finding.path}:${lineSpan(o.finding.start_line, o.finding.line)}`, o),
    ),
  );
  return signed;
}

/** The credential review of the files `plan` changes, whole at its tip (none: nothing found). */
async function tipCredentials(
  top: string,
  plan: ReviewPlan,
  check: ReturnType<typeof credentialCheck>,
  /** The metadata read already (the start-up's, handed on). */
  read?: Promise<string>,
): Promise<{ findings: Finding[]; warnings: string[] }> {
  // Beside the files: the paths (a key as a file or folder name), the message of a commit the
  // per-commit check does not read (one commit: the combined review), an annotated tag's message.
  // And every pushed commit's header lines (author, committer, extra headers), an annotated
  // tag's header lines (./push-metadata.ts).
  const [files, single, metadata] = await Promise.all([
    tipFiles(top, plan.range),
    plan.single ? run(commitMessage(plan.tip), { cwd: top }) : null,
    (read ?? Promise.reject()).catch(() =>
      commitMetadata(top, plan.commits, plan.tag ? { oid: plan.tag, ref: plan.ref } : undefined),
    ),
  ]);
  const texts = [files.text, addedFileDiff(`(paths of ${plan.ref})`, files.paths.join('\n')), metadata];
  if (single !== null) texts.push(messageDiff(plan.tip, Buffer.from(single)).toString('utf8'));
  return screenedReview(check, texts.join(''), files.capped, `what ${plan.ref} pushes at ${plan.tip.slice(0, 12)}`);
}

/** The credential review of a tree or blob a ref names, read whole. */
async function objectCredentials(
  top: string,
  plan: ReviewPlan,
  check: ReturnType<typeof credentialCheck>,
): Promise<{ findings: Finding[]; warnings: string[] }> {
  const { oid, type } = plan.object!;
  if (type === 'tag') {
    const tag = await fileVersions(top).object(oid);
    const text = tag?.type === 'tag' ? tagTexts(plan.ref, tag.bytes) : '';
    return screenedReview(check, text, [], `tag ${oid.slice(0, 12)} of ${plan.ref}`);
  }
  const files =
    type === 'tree'
      ? await tipFiles(top, `${await emptyTreeOf(top)()}..${oid}`, undefined, `${plan.ref}/`)
      : await blobFile(top, oid, `${plan.ref} (blob ${oid.slice(0, 12)})`);
  const texts = [files.text, addedFileDiff(`(paths of ${plan.ref})`, files.paths.join('\n'))];
  return screenedReview(check, texts.join(''), files.capped, `${type} ${oid.slice(0, 12)} of ${plan.ref}`);
}

/** A credential review of diff text, passed over when the screen says no rule can report (sound only over text read whole). */
async function screenedReview(
  check: ReturnType<typeof credentialCheck>,
  text: string,
  capped: string[],
  name: string,
): Promise<{ findings: Finding[]; warnings: string[] }> {
  if (!text) return { findings: [], warnings: [] };
  const screen = capped.length ? null : await check.screen();
  if (screen && !screen(Buffer.from(text))) return { findings: [], warnings: [] };
  return check.review(text, name, capped);
}

/**
 * The pushed commits whose own diff adds each credential finding, oldest first, with the tip
 * of the ref that pushes them (the one commit `git commit --amend` can rewrite).
 */
function credentialHolders(
  plans: readonly ReviewPlan[],
  perCommit: ReadonlyMap<string, { findings: Finding[] }>,
  foundBy: ReadonlyMap<ReviewPlan, ReadonlySet<string>>,
  credentials: readonly Finding[],
): Map<string, Array<{ commit: string; tip: string }>> {
  const wanted = new Set(credentials.map((f) => f.id));
  const holders = new Map<string, Array<{ commit: string; tip: string }>>();
  for (const plan of plans) {
    const tip = plan.tip;
    // One non-merge commit: its own review was the combined one.
    const found = (commit: string) =>
      plan.single
        ? [...(foundBy.get(plan) ?? [])]
        : (perCommit.get(`${tip} ${commit}`)?.findings ?? []).map((f) => f.id);
    for (const commit of [...plan.commits].reverse()) {
      for (const id of found(commit)) {
        if (!wanted.has(id)) continue;
        let list = holders.get(id);
        if (!list) holders.set(id, (list = []));
        if (!list.some((h) => h.commit === commit)) list.push({ commit, tip });
      }
    }
  }
  return holders;
}

/**
 * The rejection: each blocking finding by ref, and the ways on that fit each finding's kind
 * (docs/gate.md "Answers by kind"); `queued`: ID -> verdict queued in this clone but not
 * committed (none on a server).
 */
export async function blockedLines(
  top: string,
  reviewed: PushReview,
  credentialAnswers: readonly string[],
  queued: Map<string, string> = new Map(),
  policyFrom?: string,
): Promise<string[]> {
  const { blocked } = reviewed;
  const ids = new Set<string>();
  const lines: string[] = [m.pushBlocked(new Set(blocked.flatMap((b) => b.findings.map((f) => f.id))).size)];
  for (const { ref, findings } of blocked) {
    lines.push(m.refBlocked(ref, findings.length), ...findingLines(findings, 50));
    for (const f of findings) ids.add(f.id);
  }
  const isCredential = (s: string) => CREDENTIAL_RULE_SOURCES.has(s);
  const blocking = [...ids].map((id) => reviewed.findings.get(id)!);
  const signed = reviewed.signed;
  const needsSigned = (f: Finding) => signed?.needs(f) ?? false;
  // Verdicts only queued do not count here (what is pushed must carry its answers): name them,
  // when committing them would open the gate for their finding's kind.
  for (const [id, verdict] of queued) {
    const f = reviewed.findings.get(id);
    if (f && needsSigned(f)) queued.delete(id);
    else if (f && isCredential(f.rule_source) && !credentialAnswers.includes(verdict)) queued.delete(id);
  }
  const others = blocking.filter((f) => !isCredential(f.rule_source) && !queued.has(f.id));
  const credentials = blocking.filter((f) => isCredential(f.rule_source) && !queued.has(f.id));
  const plain = others.filter((f) => !needsSigned(f));
  if (plain.length) {
    lines.push(...m.waysOn);
    for (const f of plain)
      lines.push(
        ...(f.answer?.verdict === 'ACCEPT' ? [m.stillFoundAfterAccept(f.id)] : []),
        m.verdictCommand(f.id, undefined, policyFrom),
      );
    // The server's policy may not be the pusher's (a push that changes the bundle): the
    // commands name it, so `verdict` reviews with it (docs/server.md "Answering the server").
    if (policyFrom) lines.push(m.fromYourClone(policyFrom));
    lines.push(m.thenCommit);
  }
  for (const f of others.filter(needsSigned)) lines.push(...signedWays(f, signed!));
  if (credentials.length)
    lines.push(...(await credentialWays(top, credentials, reviewed.holders, credentialAnswers, signed)));
  if (queued.size)
    lines.push(m.queuedNotCommitted([...queued].map(([id, verdict]) => `${verdict} ${id}`)), m.recordQueued);
  return lines;
}

/**
 * The ways on for credential findings (docs/gate.md "After an ACCEPT"): the commits that hold
 * each one and the rewrite that takes it out, a rotation reminder, and a verdict only where it
 * opens the gate for a credential and the finding was not answered as a real key (ACCEPT).
 */
async function credentialWays(
  top: string,
  credentials: readonly Finding[],
  holders: ReadonlyMap<string, ReadonlyArray<{ commit: string; tip: string }>>,
  answers: readonly string[],
  signed: SignedCheck | null,
): Promise<string[]> {
  const commits = [...new Set([...holders.values()].flatMap((h) => h.map((x) => x.commit)))];
  const facts = new Map<string, { subject: string; parent: string | null }>();
  if (commits.length) {
    const out = await run(subjectsAndParents(commits), { cwd: top });
    for (const line of out.split('\n').filter(Boolean)) {
      const [sha, parents, subject] = line.split('\0');
      facts.set(sha!, { subject: subject ?? '', parent: parents?.split(' ')[0] || null });
    }
  }
  const lines: string[] = [];
  for (const f of credentials) {
    lines.push(m.credentialTitle(f.id, `${f.path}:${lineSpan(f.start_line, f.line)}`));
    const needsSigned = signed?.needs(f) ?? false;
    if (f.answer?.verdict === 'ACCEPT') lines.push(m.credentialAccepted(f.answer.rationale));
    else if (f.answer && !needsSigned) lines.push(m.credentialWrongAnswer(f.answer.verdict, answers));
    const held = holders.get(f.id) ?? [];
    if (held.length) {
      lines.push(
        m.credentialHeldBy(held.length),
        ...held.map((h) => m.credentialCommit(h.commit, facts.get(h.commit)?.subject ?? '')),
      );
      lines.push(m.credentialRewrite);
      const oldest = held[0]!;
      const parent = facts.get(oldest.commit)?.parent ?? null;
      if (held.length === 1 && oldest.commit === oldest.tip) lines.push(m.rewriteAmend(oldest.commit));
      else
        lines.push(
          ...m.rewriteRebase(
            held.map((h) => h.commit),
            parent ? parent.slice(0, 12) : '--root',
          ),
        );
    }
    lines.push(m.rotate);
    if (f.answer?.verdict === 'ACCEPT') continue;
    if (needsSigned) lines.push(...signedWays(f, signed!));
    else lines.push(m.credentialNotSecret(f.id, answers));
  }
  return lines;
}

/** Why a finding of a signed kind still blocks, and who may answer it (docs/gate.md "Signed answers"). */
function signedWays(f: Finding, signed: SignedCheck): string[] {
  const lines: string[] = [];
  const refused = signed.refused.get(f.id);
  if (refused && f.answer) lines.push(m.signatureRefused(f.id, f.answer.verdict, refused));
  else if (f.allowComment) lines.push(m.allowNeedsSignature(f.id, f.allowComment));
  lines.push(
    ...(isPolicyChange(f.rule_source)
      ? m.policyAnswerNeeded(f, signed.file, signed.principals)
      : m.signedAnswerNeeded(f.id, signed.file, signed.principals)),
  );
  return lines;
}

/** The empty tree's name (a root commit's base), asked of git once. */
export function emptyTreeOf(top: string): () => Promise<string> {
  let id: Promise<string> | undefined;
  return () => (id ??= run(emptyTree, { cwd: top }));
}

/** One turn of the event loop: what git wrote meanwhile is read. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
