/** Which files a rule runs on: its `paths` (none: every file) minus its `exclude`. */
import type { Rule } from './types.js';
import { compileGlobs, type PathMatcher } from './globs.js';

const pathFilters = new WeakMap<Rule, PathMatcher>();

/** Whether a rule runs on a file. Compiled once per rule. */
export function ruleAppliesTo(rule: Rule, path: string): boolean {
  // Most rules name no paths: asked once per rule and piece, so answered without the lookup.
  if (rule.paths.length === 0 && rule.exclude.length === 0) return true;
  let filter = pathFilters.get(rule);
  if (!filter) {
    const include = rule.paths.length ? compileGlobs(rule.paths) : () => true;
    const exclude = compileGlobs(rule.exclude);
    filter = (p) => include(p) && !exclude(p);
    pathFilters.set(rule, filter);
  }
  return filter(path);
}
