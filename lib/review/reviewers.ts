/**
 * The reviewers beyond the rules, one entry per transport (docs/architecture.md "Extension
 * points"; docs/model.md). Each entry opens this review's reviewer of its kind where its trust
 * allows (else one warning says why, and the rules decide alone), and answers chunks under one
 * contract (./program/reviewer.ts askWith). The pipeline asks every open reviewer the same way,
 * in this table's order; test/review/reviewers-registry.test.ts fails on a transport not listed.
 */
import type { ChunkSelection } from '../select/types.js';
import type { Workspace } from '../workspace/index.js';
import type { ReviewerChunkResult } from './program/reviewer.js';
import type { ReviewOptions } from './types.js';
import { openProgram } from './program/open.js';
import { openModel } from './model/open.js';

/** One review's reviewer of one kind. */
export interface ReviewerRun {
  /** Every chunk it may be asked about, before the first answer is taken (a model asks them all at once). */
  start?(selections: readonly ChunkSelection[]): void;
  /** The answer for one chunk, or null when it is not asked (stopped after a failure). Throws when a required reviewer failed. */
  answer(selection: ChunkSelection): Promise<ReviewerAnswer> | null;
}

export interface ReviewerAnswer extends ReviewerChunkResult {
  /** The line that says this reviewer is asked no more in this review, said after the answer's own. */
  stopped?: string;
}

export interface ReviewerOpening {
  session: Workspace;
  options: ReviewOptions;
  minConfidence: number;
  /** Where a reviewer that cannot be asked says why. */
  warnings: string[];
}

export interface ReviewerKind {
  open(opening: ReviewerOpening): Promise<ReviewerRun | null>;
}

/** The transports, in the order they are asked about each chunk. */
export const REVIEWERS = {
  program: { open: openProgram },
  model: { open: openModel },
} as const satisfies Record<string, ReviewerKind>;

/** Every reviewer this review may ask; none with `reviewer: false` (a push's credential pass). */
export async function openReviewers(opening: ReviewerOpening): Promise<ReviewerRun[]> {
  if (opening.options.reviewer === false) return [];
  const runs: ReviewerRun[] = [];
  for (const kind of Object.values(REVIEWERS) as ReviewerKind[]) {
    const run = await kind.open(opening);
    if (run) runs.push(run);
  }
  return runs;
}
