/**
 * The pre-push hook's one decision (docs/hooks.md "One decision per hook"): a pure function of
 * what is known about the push, asked by the start bundle (./push-start.ts) as it reads and by
 * the full flow (./push.ts) once it reviewed. The start gathers the facts a clean push is
 * decided from (the clean check's record, each ref's combined diff, the paths and metadata it
 * carries, each commit's own patch) and stops as soon as the decision cannot be "pass"; the full
 * flow goes on from the facts handed to it and adds the review's answer.
 */
import type { Decision } from '../review/clean-check.js';
import type { PushPlan } from './push-plan.js';

/** What the decision may ask to be gathered next; `ref` is an index into `PushFacts.refs`. */
export type PushNeed = 'state' | 'combined' | 'carried' | 'commits' | 'review';

export interface PushRefFacts {
  /** What the ref update asks to review: nothing (a deletion, nothing new), commits, or a tree, blob or tag object. */
  kind: 'none' | 'commits' | 'object';
  /** One commit with one parent: its own diff is the combined diff. */
  single: boolean;
  /** The clean check's decision on the ref's combined diff (review/clean-check.ts). */
  combined?: Decision;
  /** The credential screen over the paths the combined diff names and the pushed metadata. */
  carried?: 'clean' | 'review';
  /** The credential screen over each pushed commit's own patch: 'review' as soon as one needs it. */
  commits?: 'clean' | 'review';
}

/** What is known about the push; a field not set is not known yet. */
export interface PushFacts {
  /** Ref lines git sent that could not be read (the full flow names them). */
  bad: number;
  /** One per ref line read, in git's order. */
  refs: PushRefFacts[];
  /**
   * The clean check of this clone's policy: none (no current record, or a model reviewer at the
   * push), for combined diffs only, or also screening commits' patches for credential needles.
   */
  check?: 'none' | 'combined' | 'screens';
  /** Whether last-review.json may hold pre-push findings, which only the full flow erases. */
  lastFindings?: boolean;
  /** Refs whose review has counted blocking findings after verdicts and signed answers, once reviewed. */
  blocked?: number;
}

export type PushDecision =
  | { kind: 'need'; fact: PushNeed; ref?: number }
  /** Nothing to review, or nothing any rule can find: exit 0, nothing said. */
  | { kind: 'pass' }
  /** A blocking finding without its answer: the push stops (exit 1). */
  | { kind: 'block' }
  /** The push goes on, with what the review says (notes, warnings, bad ref lines). */
  | { kind: 'go' };

/** The decision, or the next fact it needs. */
export function decidePush(f: Readonly<PushFacts>): PushDecision {
  const work = f.refs.flatMap((r, i) => (r.kind === 'none' ? [] : [i]));
  if (work.length === 0) return f.bad ? { kind: 'go' } : { kind: 'pass' };
  // The review's answer is the push's, whatever was screened before it.
  if (f.blocked !== undefined) return f.blocked > 0 ? { kind: 'block' } : { kind: 'go' };
  // Bad ref lines and objects named by a ref are for the full flow to name and review.
  if (f.bad || work.some((i) => f.refs[i]!.kind === 'object')) return { kind: 'need', fact: 'review' };
  const screened = screensClean(f);
  if (screened === 'pass') return { kind: 'pass' };
  return screened === 'review' ? { kind: 'need', fact: 'review' } : screened;
}

/**
 * Whether the screens let the push through without the review: 'pass', 'review', or the next
 * fact they need. Clean needs the record to screen patches, nothing to erase, and for every ref
 * a combined diff the check decides clean (with pieces, unless one commit: the screen may not
 * stand in for the review of a diff with none, ./push-check.ts), clean paths and metadata and
 * clean commits' patches.
 */
function screensClean(f: Readonly<PushFacts>): 'pass' | 'review' | { kind: 'need'; fact: PushNeed; ref?: number } {
  if (f.check === undefined || f.lastFindings === undefined) return { kind: 'need', fact: 'state' };
  if (f.check !== 'screens' || f.lastFindings) return 'review';
  for (const [ref, r] of f.refs.entries()) {
    if (r.kind === 'none') continue;
    if (!r.combined) return { kind: 'need', fact: 'combined', ref };
    if (r.combined.decision === 'review' || (!r.single && r.combined.pieces === 0)) return 'review';
    if (!r.carried) return { kind: 'need', fact: 'carried', ref };
    if (r.carried === 'review') return 'review';
    if (!r.commits) return { kind: 'need', fact: 'commits', ref };
    if (r.commits === 'review') return 'review';
  }
  return 'pass';
}

/** The facts a push's decision starts from (./push-decide.ts): its bad lines and what each ref asks to review. */
export function pushFacts(bad: number, plans: readonly PushPlan[]): PushFacts {
  return {
    bad,
    refs: plans.map((p) => ({ kind: p.object ? 'object' : p.range !== null ? 'commits' : 'none', single: p.single })),
  };
}
