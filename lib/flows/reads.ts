/**
 * The typed read-set (docs/architecture.md "Use cases"): what a hook's start bundle read before
 * it decided, handed to the flow that goes on from there as the same types, so no read is
 * done twice and nothing crosses the bundle boundary untyped.
 */
import type { CommitReads } from './commit-start.js';
import type { PushReads } from './push-start.js';

export type { CommitReads, PushReads };

/** The reads a start handed over: one of them, for the flow of the hook that started. */
export interface ReadSet {
  /** commit-msg: the location, the message and the staged diff (./commit-start.ts). */
  commit?: CommitReads;
  /** pre-push: the planning, the diffs read, the commits screened, the patches still streaming (./push-start.ts). */
  push?: PushReads;
}
