/** Selection per chunk plus the knowledge budget (docs/bundle.md): what governs each piece of a diff. */
import type { Bundle } from '../bundle/types.js';
import type { Chunk } from '../diff/types.js';
import type { ChunkSelection, SelectedDocument } from './types.js';
import { compileSelector, type Selector } from './match.js';
import { applyBudget } from './budget.js';

const selectors = new WeakMap<Bundle, Selector>();

/** The bundle's compiled selector, built once per bundle object. */
export function selectorFor(bundle: Bundle): Selector {
  let selector = selectors.get(bundle);
  if (!selector) {
    selector = compileSelector(bundle);
    selectors.set(bundle, selector);
  }
  return selector;
}

export function selectDocuments(
  bundle: Bundle,
  chunks: Chunk[],
  options: { maxKnowledgeTokens: number },
): ChunkSelection[] {
  const selector = selectorFor(bundle);
  // Pieces of one file share path and namespace: match once per file.
  const perFile = new Map<string, ReturnType<Selector['match']>>();
  return chunks.map((chunk) => {
    const key = `${chunk.path}\0${chunk.oldPath ?? ''}\0${chunk.namespace ?? ''}`;
    let matches = perFile.get(key);
    if (!matches) {
      matches = selector.match(chunk.path, chunk.oldPath, chunk.namespace);
      perFile.set(key, matches);
    }
    const matched: SelectedDocument[] = matches.map((m) => ({
      concept: m.concept,
      match: m.match,
      matched: m.matched,
      tokens: m.tokens,
      truncated: false,
      text: m.concept.body,
    }));
    const documents = applyBudget(matched, options.maxKnowledgeTokens).map((b) => ({
      ...b.item,
      text: b.text,
      tokens: b.tokens,
      truncated: b.truncated,
    }));
    return { chunk, matched, documents };
  });
}
