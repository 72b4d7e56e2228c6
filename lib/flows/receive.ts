/**
 * The server gate (docs/server.md): `revtrail hook pre-receive` (ref lines `<old> <new> <ref>` on
 * stdin) and `revtrail hook update REF OLD NEW`, run by git in the repository that receives a
 * push, with no work tree. Each ref update is reviewed as pre-push reviews it (push-review.ts):
 * a deletion never blocks, an update reviews what OLD lacks, a new ref what no ref of this
 * repository has. In pre-receive the pushed objects are still in git's quarantine (git hands the
 * hook GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES, which every git call here
 * inherits); nothing here writes a ref or an object.
 *
 * The policy is the policy ref's before the push (./policy-ref.ts: `revtrail.policyRef`, else
 * HEAD), for every ref alike: its config, bundle and doc map, copied out of git's objects
 * (policy-tree.ts). A policy ref that does not exist refuses the push. Only verdicts committed in
 * the pushed history count: a server has no queue.
 */
import { emptyTree as emptyTreeCommand, run } from '../core/git/commands.js';
import { findRepo } from '../core/git/repo.js';
import { toReviewPlan } from './push.js';
import { planRef, SHA, ZERO, type PushPlan, type RefUpdate } from './push-plan.js';
import type { Outcome } from './outcome.js';
import { POLICY_REF_KEY, serverPolicyRef } from './policy-ref.js';
import { hookMessages as hm, serverMessages as m } from '../messages/hooks.js';
import { copyPolicy } from './policy-tree.js';
import { serverPusher } from './pusher.js';
import * as pushReview from './push-review.js';

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

/** A push arriving at a bare repository: its ref updates, and where the server hook runs. */
export interface ReceiveInput {
  cwd: string;
  updates: readonly ReceivedUpdate[];
  /** Where the live progress of a long review is drawn (the pusher sees it through git). */
  terminal: NodeJS.WriteStream;
}

/** The receive flow, the server gate (docs/server.md): whether these ref updates may land. */
export async function receiveFlow({ cwd, updates, terminal }: ReceiveInput): Promise<Outcome> {
  const lines: string[] = [];
  const { repo } = await findRepo(cwd, { receiving: true });
  const top = repo.top;
  let emptyTreeId: string | undefined;
  const emptyTree = async () => (emptyTreeId ??= await run(emptyTreeCommand, { cwd: top }));
  // Every ref is reviewed with one policy, the policy ref's before the push (./policy-ref.ts):
  // the pusher cannot pick it by pushing a ref at an old commit or a broken config first.
  const policyRef = serverPolicyRef(top);
  const copy = policyRef.then((p) => (p.commit ? copyPolicy(top, repo.commonDir, p.commit) : null));
  copy.catch(() => {});
  // What the repository has already is every ref it has now (refs move only after this hook).
  const planned = await Promise.all(
    updates.map(async (u) => {
      const update: RefUpdate = { localRef: u.ref, localSha: u.new, remoteRef: u.ref, remoteSha: u.old };
      if (ZERO.test(u.new)) return null; // a deletion is never blocked
      const plan = await planRef(top, ['--not', '--all'], update, emptyTree);
      return plan.range === null && !plan.object ? null : plan;
    }),
  );
  const plans = planned.filter((p): p is PushPlan => p !== null);
  if (plans.length === 0) return { exit: 0, lines };
  const policy = await policyRef;
  const copied = await copy;
  if (!copied) {
    lines.push(`revtrail: ${policy.problem}`, m.policyRefRefused, m.policyRefRemedy(POLICY_REF_KEY));
    return { exit: 1, lines };
  }

  const { openWorkspace, reviewPlans, blockedLines } = pushReview;
  lines.push(...copied.warnings.map((w) => hm.warning(w)));
  const session = await openWorkspace(top, {
    repo,
    policyTop: copied.dir,
    knowledge: copied.knowledge,
    policyCommit: policy.commit!,
  });
  const reviewed = await reviewPlans(top, session, plans.map(toReviewPlan), terminal, {
    noReviewer: true,
    pusher: await serverPusher(top),
    policy: { ref: policy.ref, commit: policy.commit! },
  });
  lines.push(...reviewed.lines);
  if (reviewed.blocked.length === 0) return { exit: 0, lines };
  // Each verdict command names the policy's commit: the pusher's clone reviews with it, so it
  // knows a finding only this policy raises (docs/server.md "Answering the server").
  lines.push(
    ...(await blockedLines(top, reviewed, session.config.gate.credentialAnswers, undefined, policy.commit!)),
    m.policyNote(policy.ref),
  );
  for (const { ref } of reviewed.blocked) {
    const range = plans.find((p) => p.update.localRef === ref)?.range;
    if (range) lines.push(hm.seeFromYourClone(range, policy.commit!));
  }
  return { exit: 1, lines };
}
