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
  /** Whether this review asks it at all, from the options and the configuration alone. */
  wanted(opening: ReviewerOpening): boolean;
  open(opening: ReviewerOpening): Promise<ReviewerRun | null>;
}

/**
 * The transports, in the order they are asked about each chunk. This table is the reviewers'
 * registry: a transport's module is loaded only when this review wants it (each brings spawning or
 * HTTP, and its answers' schema in zod), and imports its own stages statically
 * (docs/architecture.md "Why the hook path is kept small").
 */
export const REVIEWERS = {
  program: {
    wanted: ({ options, session }) =>
      options.program !== false &&
      options.reviewer !== false &&
      !!(options.reviewer ?? session.config.reviewer.command)?.length,
    open: async (opening) => (await import('./program/open.js')).openProgram(opening),
  },
  model: {
    wanted: ({ options, session }) => !!session.config.reviewer.model && options.model !== false,
    open: async (opening) => (await import('./model/open.js')).openModel(opening),
  },
} as const satisfies Record<string, ReviewerKind>;

/** Every reviewer this review may ask; none with `reviewer: false` (a push's credential pass). */
export async function openReviewers(opening: ReviewerOpening): Promise<ReviewerRun[]> {
  if (opening.options.reviewer === false) return [];
  const runs: ReviewerRun[] = [];
  for (const kind of Object.values(REVIEWERS) as ReviewerKind[]) {
    if (!kind.wanted(opening)) continue;
    const run = await kind.open(opening);
    if (run) runs.push(run);
  }
  return runs;
}
