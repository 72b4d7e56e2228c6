/**
 * The commit-msg hook's one decision (docs/hooks.md "One decision per hook"): a pure function of
 * what is known about the commit, asked by the start bundle (./commit-start.ts) and by the full
 * flow (./commit.ts) alike. Each asks it, gathers the fact it names, and asks again; the start
 * stops at the first fact it cannot gather (the lint, the comment character, the review) and
 * hands what it gathered to the full flow, which goes on from there. So a clean commit is
 * decided by the same rules in both places, and nothing is gathered twice.
 */
import type { CommitKind } from './commit-plan.js';

/** What the decision may ask to be gathered next, in the order the full flow always asked. */
export type CommitNeed = 'lint' | 'empty' | 'plan' | 'state' | 'clean' | 'review';

/** What is known about the commit being made; a field not set is not known yet. */
export interface CommitFacts {
  /** A rebase ended with dropped commits to settle (verdicts/peek.ts rebaseToSettle): the full flow reports them. */
  settle: boolean;
  /** The message has a line a Review-Finding trailer could be on: it goes through the lint. */
  trailerLine: boolean;
  /** The lint's errors, once it ran. */
  lintErrors?: number;
  /** Whether the message is empty under core.commentChar (the start does not read it). */
  empty?: boolean;
  /** What the commit is (./commit-plan.ts). */
  plan?: CommitKind;
  /** Whether the verdict queue may hold entries (verdicts/peek.ts mayHaveQueued). */
  queued?: boolean;
  /** Whether last-review.json may hold this hook's findings, which a clean review erases. */
  lastFindings?: boolean;
  /** A plain commit's clean check (./commit-start.ts cleanWithoutReview): no rule can reach the staged diff. */
  clean?: boolean;
  /** What the review found that stops a commit: credential findings, and whether commitMsg.block stops it. */
  review?: { credentials: number; blocks: boolean };
}

export type CommitDecision =
  | { kind: 'need'; fact: CommitNeed }
  /** Nothing to write, nothing to say, nothing to erase: the start ends the hook here. */
  | { kind: 'pass' }
  /** An empty message stays empty, so that git aborts the commit as usual. */
  | { kind: 'empty' }
  /** The commit stops (exit 1): a hand-written row the lint refuses, a credential, or commitMsg.block. */
  | { kind: 'block'; why: 'lint' | 'credential' | 'findings' }
  /** The commit goes on: rows and queued records are written; `reviewed` false when the clean check stood in for the review. */
  | { kind: 'record'; reviewed: boolean };

const need = (fact: CommitNeed): CommitDecision => ({ kind: 'need', fact });

/** The decision, or the next fact it needs. */
export function decideCommit(f: Readonly<CommitFacts>): CommitDecision {
  // A hand-written row the lint refuses blocks before anything else happens.
  if (f.trailerLine) {
    if (f.lintErrors === undefined) return need('lint');
    if (f.lintErrors > 0) return { kind: 'block', why: 'lint' };
  }
  if (f.empty) return { kind: 'empty' };
  if (f.plan === undefined) return need('plan');
  // Only a plain commit's staged diff can be decided without the review (an amend or a merge
  // reviews what the whole commit adds, docs/record.md).
  if (f.plan === 'commit') {
    if (f.queued === undefined || f.lastFindings === undefined) return need('state');
    if (f.clean === undefined) return need('clean');
    if (f.clean) {
      const nothingElse = !f.settle && !f.trailerLine && !f.queued && !f.lastFindings;
      // Clean, with nothing else to do, is the same answer whether the message is empty or not.
      if (nothingElse) return { kind: 'pass' };
      return f.empty === undefined ? need('empty') : { kind: 'record', reviewed: false };
    }
  }
  if (f.empty === undefined) return need('empty');
  if (f.review === undefined) return need('review');
  // A credential never enters a commit by default, whatever commitMsg.block says (docs/gate.md).
  if (f.review.credentials > 0) return { kind: 'block', why: 'credential' };
  if (f.review.blocks) return { kind: 'block', why: 'findings' };
  return { kind: 'record', reviewed: true };
}

/**
 * Asks the decision, gathers what it needs and asks again, until it decides or names a fact
 * `gather` cannot give (its gatherer is missing or answers false): then that need is returned,
 * with the facts gathered so far left in `facts` for the caller to hand on.
 */
export async function decideCommitWith(
  facts: CommitFacts,
  gather: Partial<Record<CommitNeed, () => unknown>>,
): Promise<CommitDecision> {
  const asked = new Set<CommitNeed>();
  for (;;) {
    const decision = decideCommit(facts);
    if (decision.kind !== 'need') return decision;
    const gatherer = gather[decision.fact];
    // A gatherer that leaves its fact unknown would ask forever: the need is the answer.
    if (!gatherer || asked.has(decision.fact) || (await gatherer()) === false) return decision;
    asked.add(decision.fact);
  }
}
