/** Which documents govern a chunk, and why (docs/architecture.md "Stages and the one-way order"). */
import type { Concept } from '../bundle/types.js';
import type { Chunk } from '../diff/types.js';

/** `doc-map`: a glob of a doc map mapping (as strong as `paths`). */
export type MatchKind = 'paths' | 'doc-map' | 'domain' | 'tags';

export interface SelectedDocument {
  concept: Concept;
  match: MatchKind;
  /** The glob or name that matched. */
  matched: string;
  /** ceil(characters / 4) of the text handed on (after truncation). */
  tokens: number;
  truncated: boolean;
  /** The document text within the budget (ends with `[…truncated]` when cut). */
  text: string;
}

export interface ChunkSelection {
  chunk: Chunk;
  /** Every matching document, in selection order; their rules all run. */
  matched: SelectedDocument[];
  /** The prefix of `matched` that fits `maxKnowledgeTokens`: what a reviewer program is given. */
  documents: SelectedDocument[];
}
