/**
 * Whether a rule governs a path, for comparing what a change introduces (docs/review.md "What a
 * change introduces"): a renamed file's old path, the file a moved line came from.
 */
import type { Concept, Rule } from '../../bundle/types.js';
import type { StructuralRule } from '../../bundle/structural.js';
import { compileGlobs } from '../../bundle/globs.js';
import { ruleAppliesTo } from '../../bundle/rule-paths.js';
import type { ChunkSelection } from '../../select/types.js';

const conceptPaths = new WeakMap<Concept, (path: string) => boolean>();

/**
 * Whether `rule` governs a path: its own paths and excludes, and the paths of the document that
 * holds it (docs/review.md "What a change introduces": a renamed file's old path, a moved line's).
 */
export function governing(selection: ChunkSelection, rule: Rule | StructuralRule): (path: string) => boolean {
  const concept = selection.matched.find(
    (d) => d.concept.rules.includes(rule as Rule) || d.concept.structural?.includes(rule as StructuralRule),
  )?.concept;
  let inConcept = concept ? conceptPaths.get(concept) : undefined;
  if (concept && !inConcept) {
    inConcept = concept.paths.length ? compileGlobs(concept.paths) : () => true;
    conceptPaths.set(concept, inConcept);
  }
  return (path) => ruleAppliesTo(rule as Rule, path) && (inConcept ? inConcept(path) : true);
}
