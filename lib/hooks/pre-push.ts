/**
 * `revtrail hook pre-push REMOTE URL` (docs/hooks.md). For every ref line git sends, what the push
 * adds is reviewed (push-review.ts, which the server gate shares); any ref whose review has a
 * counted blocking finding (after verdicts) blocks the whole push.
 */
import type { CliContext } from '../core/output.js';
import { gitOut } from '../core/git/run.js';
import { emptyTree as emptyTreeCommand, peelCommit, runGit } from '../core/git/commands.js';
import { mayHaveQueued, rememberReview } from '../verdicts/peek.js';
import { writeLines } from './print.js';
import type { ReviewPlan } from './push-review.js';
import { hookMessages as m } from '../messages/hooks.js';
import { cleanCheckFile } from '../core/state.js';

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
    if (extra !== undefined || !localRef || !remoteRef || !SHA.test(localSha ?? '') || !SHA.test(remoteSha ?? ''))
      bad.push(line);
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

/**
 * `known`: the rev-list arguments that name what the other side has already, for a new ref or
 * an old tip this repository lacks (pre-push: `--not --remotes=REMOTE`; the server: `--not --all`).
 */
export async function planRef(
  top: string,
  known: readonly string[],
  update: RefUpdate,
  emptyTree: () => Promise<string>,
  peel: (rev: string) => Promise<string | null> = (rev) => peelCommit(top, rev),
): Promise<PushPlan> {
  const none = { update, range: null, commits: [], tip: null, single: false };
  if (ZERO.test(update.localSha)) return none; // a deletion is never blocked
  const tip = await peel(update.localSha);
  if (!tip) return none; // a tag of a tree or blob: no commits to review
  const remoteTip = ZERO.test(update.remoteSha) ? null : await peel(update.remoteSha);
  if (remoteTip) {
    const listed = await revList(top, [tip, `^${remoteTip}`]);
    const commits = listed.map((c) => c.commit);
    return { update, tip, commits, range: commits.length ? `${remoteTip}...${tip}` : null, single: isSingle(listed) };
  }
  // New ref, or the remote has a commit we lack (a force push over it): review what the other
  // side does not have already.
  const listed = await revList(top, ['--topo-order', tip, ...known]);
  const commits = listed.map((c) => c.commit);
  if (commits.length === 0) return { update, tip, commits, range: null, single: false };
  const base = listed[listed.length - 1]!.parents[0] ?? (await emptyTree());
  return { update, tip, commits, range: `${base}..${tip}`, single: isSingle(listed) };
}

function isSingle(listed: ReadonlyArray<{ parents: string[] }>): boolean {
  return listed.length === 1 && listed[0]!.parents.length === 1;
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
  const modules = import('./push-review.js');
  modules.catch(() => {}); // awaited below when there is work
  const { updates, bad } = parseRefLines(input);
  // What each pushed name is, asked beside "where" (git runs the hook at the top level, where
  // any folder of the work tree answers alike): one git round trip less before the review.
  const peeled = new Map<string, Promise<string | null>>();
  const peel = (rev: string) => {
    let known = peeled.get(rev);
    if (!known) peeled.set(rev, (known = peelCommit(context.cwd, rev)));
    return known;
  };
  for (const u of updates) for (const sha of [u.localSha, u.remoteSha]) if (!ZERO.test(sha)) peel(sha).catch(() => {});
  const repo = await located;
  for (const line of bad) err.write(m.badRefLine(line) + '\n');

  let emptyTreeId: string | undefined;
  const emptyTree = async () => (emptyTreeId ??= await runGit(emptyTreeCommand, { cwd: repo.top }));
  const plans: PushPlan[] = [];
  for (const update of updates)
    plans.push(await planRef(repo.top, ['--not', `--remotes=${remote}`], update, emptyTree, peel));
  const work = plans.filter((p) => p.range !== null);
  if (work.length === 0) return 0;

  const { openReview, reviewPlans, blockedLines } = await modules;
  const session = await openReview(repo.top, { repo });
  // The combined diff of a push no rule can reach is decided as a clean commit is (docs/hooks.md "Push").
  const { currentCleanRecord } = await import('../review/clean-check.js');
  const cleanFile = cleanCheckFile(repo.commonDir);
  const reviewed = await reviewPlans(repo.top, session, work.map(toReviewPlan), err, {
    cleanRecord: currentCleanRecord(cleanFile, repo.top),
    cleanFile,
  });
  await rememberReview(repo.commonDir, [...reviewed.findings.values()], 'pre-push', (why) =>
    err.write(m.saveFailed(why) + '\n'),
  );

  if (reviewed.blocked.length === 0) return 0;
  const ids = new Set(reviewed.blocked.flatMap((b) => b.findings.map((f) => f.id)));
  writeLines(
    err,
    await blockedLines(repo.top, reviewed, session.config.gate.credentialAnswers, await queuedFor(repo.commonDir, ids)),
  );
  return 1;
}

/** A plan with something to review, as the shared push review takes it. */
export function toReviewPlan(plan: PushPlan): ReviewPlan {
  return { ref: plan.update.localRef, range: plan.range!, commits: plan.commits, tip: plan.tip!, single: plan.single };
}

/** The human verdicts queued (not committed) for these findings, by finding ID. */
async function queuedFor(commonDir: string, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!(await mayHaveQueued(commonDir))) return found;
  const { readQueue } = await import('../verdicts/queue.js');
  for (const e of await readQueue(commonDir)) if (ids.has(e.id) && e.verdict !== 'OPEN') found.set(e.id, e.verdict);
  return found;
}
