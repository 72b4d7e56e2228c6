/**
 * `revtrail hook pre-push REMOTE URL` (docs/hooks.md). For every ref line git sends, what the push
 * adds is reviewed (push-review.ts, which the server gate shares); any ref whose review has a
 * counted blocking finding (after verdicts) blocks the whole push.
 */
import { planPush, type PushPlan } from './push-plan.js';
import { mayHaveQueued, rememberReview } from '../verdicts/peek.js';
import type { Outcome } from './outcome.js';
import type { PushReads } from './push-start.js';
import type { PushReview, ReviewPlan } from './push-review.js';
import type { Workspace } from '../workspace/index.js';
import { decidePush, pushFacts } from './push-decide.js';
import { hookMessages as m } from '../messages/hooks.js';
import { cleanCheckFile } from '../core/state.js';
import { currentCleanRecord } from '../review/clean-check.js';
import { readQueue } from '../verdicts/queue.js';
import * as pushReview from './push-review.js';

/** A push from this clone, as pre-push sees it. */
export interface PushInput {
  cwd: string;
  /** The remote's name (or URL, for a push to a URL). */
  remote: string;
  /** git's ref lines. */
  refLines: string;
  /** Where the live progress of a long push is drawn (./push-progress.ts). */
  terminal: NodeJS.WriteStream;
}

/** The push flow (docs/hooks.md "Push"): whether what the push adds may leave this clone. */
export async function pushFlow(input: PushInput, prepared?: PushReads): Promise<Outcome> {
  try {
    return await push(input, prepared);
  } finally {
    // The start-up's git log, when it was handed over, is stopped whatever happened here.
    await prepared?.patches?.close();
  }
}

async function push({ cwd, remote, refLines, terminal }: PushInput, prepared?: PushReads): Promise<Outcome> {
  const lines: string[] = [];
  // The start-up's clean-push check planned already when it ran (./push-start.ts).
  const { repo, bad, plans } = prepared ?? (await planPush(remote, refLines, cwd));
  for (const line of bad) lines.push(m.badRefLine(line));
  // The push's one decision (./push-decide.ts), going on from the facts the start gathered: what
  // it still needs, the review answers (its findings decide whatever a screen would have said).
  const facts = prepared?.facts ?? pushFacts(bad.length, plans);
  let decision = decidePush(facts);
  let reviewed: PushReview | undefined;
  let session: Workspace | undefined;
  if (decision.kind === 'need') {
    const work = plans.filter((p) => p.range !== null || p.object);
    const { openWorkspace, reviewPlans } = pushReview;
    session = await openWorkspace(repo.top, { repo });
    // The combined diff of a push no rule can reach is decided as a clean commit is (docs/hooks.md "Push").
    const cleanFile = cleanCheckFile(repo.commonDir);
    const cleanRecord = prepared?.record !== undefined ? prepared.record : currentCleanRecord(cleanFile, repo.top);
    reviewed = await reviewPlans(repo.top, session, work.map(toReviewPlan), terminal, {
      cleanRecord,
      cleanFile,
      diffs: prepared ? new Map(prepared.diffs) : undefined,
      screened: prepared?.screened,
      patches: prepared?.patches,
      metadata: prepared?.metadata ? new Map(prepared.metadata) : undefined,
    });
    lines.push(...reviewed.lines);
    await rememberReview(repo.commonDir, [...reviewed.findings.values()], 'pre-push', (why) =>
      lines.push(m.saveFailed(why)),
    );
    facts.blocked = reviewed.blocked.length;
    decision = decidePush(facts);
  }
  // The one block point: the rejection, with the ways on.
  if (decision.kind === 'block' && reviewed && session) {
    const ids = new Set(reviewed.blocked.flatMap((b) => b.findings.map((f) => f.id)));
    lines.push(
      ...(await pushReview.blockedLines(
        repo.top,
        reviewed,
        session.config.gate.credentialAnswers,
        await queuedFor(repo.commonDir, ids),
      )),
    );
    return { exit: 1, lines };
  }
  return { exit: 0, lines };
}

/** A plan with something to review, as the shared push review takes it. */
export function toReviewPlan(plan: PushPlan): ReviewPlan {
  const ref = plan.update.localRef;
  if (plan.object) return { ref, range: '', commits: [], merges: [], tip: '', single: false, object: plan.object };
  // An annotated tag: its own message is pushed too.
  const tag = plan.tip !== plan.update.localSha ? plan.update.localSha : undefined;
  return {
    ref,
    range: plan.range!,
    commits: plan.commits,
    merges: plan.merges,
    tip: plan.tip!,
    single: plan.single,
    tag,
  };
}

/** The human verdicts queued (not committed) for these findings, by finding ID. */
async function queuedFor(commonDir: string, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!(await mayHaveQueued(commonDir))) return found;
  for (const e of await readQueue(commonDir)) if (ids.has(e.id) && e.verdict !== 'OPEN') found.set(e.id, e.verdict);
  return found;
}
