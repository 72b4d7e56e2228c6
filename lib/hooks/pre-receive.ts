/**
 * The server gate (docs/server.md): `revtrail hook pre-receive` (ref lines `<old> <new> <ref>` on
 * stdin) and `revtrail hook update REF OLD NEW`, run by git in the repository that receives a
 * push, with no work tree. Each ref update is reviewed as pre-push reviews it (push-review.ts):
 * a deletion never blocks, an update reviews what OLD lacks, a new ref what no ref of this
 * repository has. In pre-receive the pushed objects are still in git's quarantine (git hands the
 * hook GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES, which every git call here
 * inherits); nothing here writes a ref or an object.
 *
 * The policy is the one the ref had before the push: the config, bundle and doc map of OLD (of
 * the default branch, HEAD, for a new ref), copied out of git's objects (policy-tree.ts). Only
 * verdicts committed in the pushed history count: a server has no queue.
 */
import type { CliContext } from '../core/output.js';
import { emptyTree as emptyTreeCommand, peelCommit, runGit } from '../core/git/commands.js';
import { findReceivingRepo } from '../core/git/repo.js';
import { toReviewPlan } from './pre-push.js';
import { planRef, SHA, ZERO, type PushPlan, type RefUpdate } from './push-plan.js';
import { writeLines } from './print.js';
import { hookMessages as hm, serverMessages as m } from '../messages/hooks.js';

export interface ReceivedUpdate {
  ref: string;
  old: string;
  new: string;
}

/** git's pre-receive stdin; malformed lines come back separately (git never sends them). */
export function parseReceiveLines(input: string): { updates: ReceivedUpdate[]; bad: string[] } {
  const updates: ReceivedUpdate[] = [];
  const bad: string[] = [];
  for (const raw of input.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const [old, next, ref, extra] = line.split(/\s+/);
    if (extra !== undefined || !ref || !SHA.test(old ?? '') || !SHA.test(next ?? '')) bad.push(line);
    else updates.push({ ref, old: old!, new: next! });
  }
  return { updates, bad };
}

export async function preReceiveHook(input: string, context: CliContext): Promise<number> {
  const { updates, bad } = parseReceiveLines(input);
  for (const line of bad) context.stderr.write(hm.badRefLine(line) + '\n');
  // A line git should not send could hide a ref: nothing is accepted unchecked.
  if (bad.length) return 2;
  return serverGate(updates, context);
}

export async function updateHook(args: readonly string[], context: CliContext): Promise<number> {
  const [ref, old, next] = args;
  if (!ref || !SHA.test(old ?? '') || !SHA.test(next ?? '')) {
    context.stderr.write(m.updateUsage + '\n');
    return 2;
  }
  return serverGate([{ ref, old: old!, new: next! }], context);
}

export async function serverGate(updates: readonly ReceivedUpdate[], context: CliContext): Promise<number> {
  const err = context.stderr;
  const modules = import('./push-review.js');
  modules.catch(() => {});
  const repo = await findReceivingRepo(context.cwd);
  const top = repo.top;
  let emptyTreeId: string | undefined;
  const emptyTree = async () => (emptyTreeId ??= await runGit(emptyTreeCommand, { cwd: top }));
  const { copyPolicy } = await import('./policy-tree.js');
  // What the repository has already is every ref it has now (refs move only after this hook).
  // The policy is the ref's as it was; a new ref (or an old tip that is no commit) takes the
  // default branch's. Planning and copying the policy are git's work each: they run together.
  let head: Promise<string | null> | undefined;
  const planned = await Promise.all(
    updates.map(async (u) => {
      const update: RefUpdate = { localRef: u.ref, localSha: u.new, remoteRef: u.ref, remoteSha: u.old };
      if (ZERO.test(u.new)) return null; // a deletion is never blocked
      const policy = (async () => {
        const old = ZERO.test(u.old) ? null : await peelCommit(top, u.old);
        return copyPolicy(top, repo.commonDir, old ?? (await (head ??= peelCommit(top, 'HEAD'))));
      })();
      policy.catch(() => {});
      const plan = await planRef(top, ['--not', '--all'], update, emptyTree);
      return plan.range === null ? null : { plan, copy: await policy };
    }),
  );
  const plans = planned.filter((p): p is NonNullable<typeof p> => p !== null);
  if (plans.length === 0) return 0;

  const { openReview, reviewPlans, blockedLines } = await modules;
  // One review session per policy: refs updated from the same base share it.
  const byPolicy = new Map<string, { dir: string; knowledge: string; plans: PushPlan[] }>();
  const warnings = new Set<string>();
  for (const { plan, copy } of plans) {
    for (const w of copy.warnings) warnings.add(w);
    const group = byPolicy.get(copy.dir) ?? { dir: copy.dir, knowledge: copy.knowledge, plans: [] };
    group.plans.push(plan);
    byPolicy.set(copy.dir, group);
  }
  writeLines(
    err,
    [...warnings].map((w) => hm.warning(w)),
  );
  const lines: string[] = [];
  for (const group of byPolicy.values()) {
    const session = await openReview(top, { repo, policyTop: group.dir, knowledge: group.knowledge });
    const reviewed = await reviewPlans(top, session, group.plans.map(toReviewPlan), err, { noReviewer: true });
    // Each policy's rejection with the answers its own config lets open the gate.
    if (reviewed.blocked.length)
      lines.push(...(await blockedLines(top, reviewed, session.config.gate.credentialAnswers)));
  }
  if (lines.length === 0) return 0;
  writeLines(err, [...lines, m.policyNote]);
  return 1;
}
