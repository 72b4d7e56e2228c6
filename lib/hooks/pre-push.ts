/**
 * `revtrail hook pre-push REMOTE URL` (docs/hooks.md). For every ref line git sends: what the push adds
 * is reviewed as one combined diff, and the credential rules also run on each pushed commit on
 * its own, because a secret a later commit removed is still in the pushed history. Any ref whose
 * review has a counted blocking finding (after verdicts) blocks the whole push.
 */
import type { CliContext } from '../core/output.js';
import { git, gitOut } from '../core/git/run.js';
import type { Finding } from '../review/types.js';
import { blocks } from '../review/event.js';
import type { HistoryRow } from '../core/trailer/history.js';
import { mayHaveQueued, rememberReview } from '../verdicts/peek.js';
import { findingLines, writeLines } from './print.js';
import { pushProgress } from './push-progress.js';
import { hookMessages as m } from '../messages/hooks.js';

export interface RefUpdate {
  localRef: string;
  localSha: string;
  remoteRef: string;
  remoteSha: string;
}

const ZERO = /^(0{40}|0{64})$/;
const SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** Parses git's pre-push stdin; malformed lines are returned separately (git never sends them). */
export function parseRefLines(input: string): { updates: RefUpdate[]; bad: string[] } {
  const updates: RefUpdate[] = [];
  const bad: string[] = [];
  for (const raw of input.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const [localRef, localSha, remoteRef, remoteSha, extra] = line.split(/\s+/);
    if (extra !== undefined || !localRef || !remoteRef || !SHA.test(localSha ?? '') || !SHA.test(remoteSha ?? '')) bad.push(line);
    else updates.push({ localRef, localSha: localSha!, remoteRef, remoteSha: remoteSha! });
  }
  return { updates, bad };
}

/** What one ref line asks to review: a diff range and the commits it adds. */
export interface PushPlan {
  update: RefUpdate;
  /** Combined diff range; null: nothing to review (deletion, nothing new, not a commit). */
  range: string | null;
  commits: string[];
  /** The pushed commit (tags peeled): verdicts come from its history. */
  tip: string | null;
  /** One commit with one parent: its own diff is the combined diff. */
  single: boolean;
}

export async function planRef(top: string, remote: string, update: RefUpdate, emptyTree: () => Promise<string>): Promise<PushPlan> {
  const none = { update, range: null, commits: [], tip: null, single: false };
  if (ZERO.test(update.localSha)) return none; // a deletion is never blocked
  const tip = await peelCommit(top, update.localSha);
  if (!tip) return none; // a tag of a tree or blob: no commits to review
  const remoteTip = ZERO.test(update.remoteSha) ? null : await peelCommit(top, update.remoteSha);
  if (remoteTip) {
    const listed = await revList(top, [tip, `^${remoteTip}`]);
    const commits = listed.map((c) => c.commit);
    return { update, tip, commits, range: commits.length ? `${remoteTip}...${tip}` : null, single: isSingle(listed) };
  }
  // New ref, or the remote has a commit we lack (a force push over it): review what no
  // remote-tracking ref of this remote already has.
  const listed = await revList(top, ['--topo-order', tip, '--not', `--remotes=${remote}`]);
  const commits = listed.map((c) => c.commit);
  if (commits.length === 0) return { update, tip, commits, range: null, single: false };
  const base = listed[listed.length - 1]!.parents[0] ?? (await emptyTree());
  return { update, tip, commits, range: `${base}..${tip}`, single: isSingle(listed) };
}

function isSingle(listed: ReadonlyArray<{ parents: string[] }>): boolean {
  return listed.length === 1 && listed[0]!.parents.length === 1;
}

async function peelCommit(top: string, rev: string): Promise<string | null> {
  const out = await git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd: top, okCodes: [1, 128] });
  return out.status === 0 ? out.stdout.trim() : null;
}

/** The commits with their parents (first parent first): one git process answers both. */
async function revList(top: string, args: string[]): Promise<Array<{ commit: string; parents: string[] }>> {
  const lines = (await gitOut(['rev-list', '--parents', ...args, '--'], { cwd: top })).split('\n').filter(Boolean);
  return lines.map((line) => {
    const [commit, ...parents] = line.split(' ');
    return { commit: commit!, parents };
  });
}

export async function prePushHook(remote: string, _url: string, input: string, context: CliContext): Promise<number> {
  const err = context.stderr;
  const { findRepo } = await import('../core/git/repo.js');
  const located = findRepo(context.cwd);
  // The review's modules load while git answers where and what: a push with nothing new pays
  // for loading them, every other push gets them sooner.
  const modules = Promise.all([import('../review/index.js'), import('../review/credentials.js'), import('./push-check.js')]);
  modules.catch(() => {}); // awaited below when there is work
  const repo = await located;
  const { updates, bad } = parseRefLines(input);
  for (const line of bad) err.write(m.badRefLine(line) + '\n');

  let emptyTreeId: string | undefined;
  const emptyTree = async () => (emptyTreeId ??= (await gitOut(['hash-object', '-t', 'tree', '--stdin'], { cwd: repo.top })).trim());
  const plans: PushPlan[] = [];
  for (const update of updates) plans.push(await planRef(repo.top, remote, update, emptyTree));
  const work = plans.filter((p) => p.range !== null);
  if (work.length === 0) return 0;

  const [{ openReview, runReview, CREDENTIAL_RULE_SOURCES }, { credentialCheck }, { checkCommits }] = await modules;
  const session = await openReview(repo.top, { repo });
  const shown = pushProgress(err);
  const softTests = session.config.softTests;
  const isCredential = (s: string) => CREDENTIAL_RULE_SOURCES.has(s);
  // One read of each pushed tip's history serves every review of it: verdicts and calibration.
  const histories = new Map<string, Promise<HistoryRow[]>>();
  const historyOf = (tip: string) => () => {
    let rows = histories.get(tip);
    if (!rows) histories.set(tip, (rows = import('../core/trailer/history.js').then((h) => h.readHistoryRows(repo.top, tip))));
    return rows;
  };
  // Refs pushing the same commits (a branch and its tag) share one review.
  const cache = new Map<string, { result: Promise<{ findings: Finding[]; warnings: string[] }>; hasDiff: Promise<boolean> }>();
  const reviewRange = (range: string, tip: string, only: 'all' | 'others', ref: string, pause?: () => Promise<void>) => {
    const key = `${only} ${range} ${tip}`;
    let pending = cache.get(key);
    if (!pending) {
      let sawChunk: (yes: boolean) => void = () => {};
      const hasDiff = new Promise<boolean>((resolve) => (sawChunk = resolve));
      const result = runReview(session, {
        cwd: repo.top,
        source: { kind: 'range', range },
        verdictTip: tip,
        history: historyOf(tip),
        model: session.config.reviewer.model?.hooks.includes('pre-push') ?? false,
        ...(only === 'others' ? { ruleFilter: (s: string) => !isCredential(s) } : {}),
        onProgress: (done, total, path) => {
          sawChunk(true);
          shown.reviewing(ref, done, total, path);
        },
        pause,
      }).then((r) => {
        sawChunk(r.knowledge_docs.length > 0);
        return { findings: r.findings, warnings: r.warnings };
      });
      result.catch(() => sawChunk(false));
      cache.set(key, (pending = { result, hasDiff }));
    }
    return pending;
  };

  // Credential findings per pushed tip and commit (verdicts come from the tip's history), shared
  // by refs that push the same commits.
  const perCommit = new Map<string, { findings: Finding[]; warnings: string[] }>();
  const blockedRefs: Array<{ ref: string; findings: Finding[] }> = [];
  const allFindings = new Map<string, Finding>();
  const warnings = new Set<string>();
  for (const plan of work) {
    const tip = plan.tip!;
    const found = new Map<string, Finding>();
    const add = (r: { findings: Finding[]; warnings: string[] }) => {
      for (const f of r.findings) if (!found.has(f.id)) found.set(f.id, f);
      for (const w of r.warnings) warnings.add(w);
    };
    // One non-merge commit: its own diff is the combined diff, so one review does both jobs.
    if (plan.single) {
      add(await reviewRange(plan.range!, tip, 'all', plan.update.localRef).result);
      shown.clear();
    } else {
      // The commits' own diffs stream from git while the combined diff is reviewed.
      const todo = plan.commits.filter((c) => !perCommit.has(`${tip} ${c}`));
      let failed = false;
      const review = reviewRange(plan.range!, tip, 'others', plan.update.localRef, todo.length ? turn : undefined);
      const checking = checkCommits(repo.top, todo, credentialCheck(session, tip, historyOf(tip)), {
        // A commit the screen passes over warns only what the combined review warns already,
        // once that had a diff (the bundle's diagnostics come with the first diff reviewed).
        screen: review.hasDiff,
        results: perCommit,
        key: (commit) => `${tip} ${commit}`,
        progress: (done) => shown.checking(plan.update.localRef, done, todo.length),
        stopped: () => failed,
      });
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
    for (const f of found.values()) allFindings.set(f.id, f);
    const blocking = [...found.values()].filter((f) => blocks(f, softTests));
    const calibrated = [...found.values()].filter((f) => f.calibration);
    if (blocking.length) blockedRefs.push({ ref: plan.update.localRef, findings: blocking });
    else if (found.size) err.write(m.pushNotes(plan.update.localRef, 'COMMENT', found.size) + '\n');
    // A demoted rule's findings are named either way, with why they do not block.
    if (calibrated.length) writeLines(err, [m.pushCalibrated(plan.update.localRef, calibrated.length), ...findingLines(calibrated, 50)]);
  }
  writeLines(err, [...warnings].map((w) => m.warning(w.replace(/[\r\n]+/g, ' '))));
  await rememberReview(repo.commonDir, [...allFindings.values()], 'pre-push', (why) => err.write(m.saveFailed(why) + '\n'));

  if (blockedRefs.length === 0) return 0;
  const ids = new Set<string>();
  const lines: string[] = [m.pushBlocked(new Set(blockedRefs.flatMap((b) => b.findings.map((f) => f.id))).size)];
  for (const { ref, findings } of blockedRefs) {
    lines.push(m.refBlocked(ref, findings.length), ...findingLines(findings, 50));
    for (const f of findings) ids.add(f.id);
  }
  // Verdicts only queued do not count here (what is pushed must carry its answers): name them.
  const queued = await queuedFor(repo.commonDir, ids);
  const unanswered = [...ids].filter((id) => !queued.has(id));
  if (unanswered.length) lines.push(...m.waysOn, ...unanswered.map(m.verdictCommand), m.thenCommit);
  if (queued.size) lines.push(m.queuedNotCommitted([...queued].map(([id, verdict]) => `${verdict} ${id}`)), m.recordQueued);
  writeLines(err, lines);
  return 1;
}

/** One turn of the event loop: what git wrote meanwhile is read. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The human verdicts queued (not committed) for these findings, by finding ID. */
async function queuedFor(commonDir: string, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!(await mayHaveQueued(commonDir))) return found;
  const { readQueue } = await import('../verdicts/queue.js');
  for (const e of await readQueue(commonDir)) if (ids.has(e.id) && e.verdict !== 'OPEN') found.set(e.id, e.verdict);
  return found;
}
