/**
 * Per-rule path excludes from the config (`exclude: {RULE: [globs]}`, docs/review.md "Allow
 * comments and excludes"): a rule named by its rule_source or its rule id does not run on the
 * paths its globs match. Never a credential rule: such an entry is only listed (a warning), and
 * the credential rules run there as everywhere (`isCredentialSource`, the one predicate).
 */
import { checkGlob, compileGlobs, type PathMatcher } from '../../bundle/globs.js';
import type { Bundle } from '../../bundle/types.js';
import { closest } from '../../core/suggest.js';
import { allBuiltinRules, isCredentialSource } from '../builtin.js';
import type { ReviewRule } from './rules.js';
import { reviewMessages as m } from '../../messages/review.js';

const ruleId = (ruleSource: string) => ruleSource.slice(ruleSource.lastIndexOf(':') + 1);

/** Whether an exclude key names this rule_source. */
export function excludeNames(key: string, ruleSource: string): boolean {
  return key === ruleSource || key === ruleId(ruleSource);
}

/**
 * The matcher for the config's excludes, or undefined for none. Globs compile on first use;
 * a glob that does not compile is skipped here (knowledge check reports it as an error).
 */
export function excludeMatcher(
  exclude: Readonly<Record<string, readonly string[]>>,
): ((rule: ReviewRule, path: string) => boolean) | undefined {
  const keys = Object.keys(exclude).filter((k) => exclude[k]!.length > 0);
  if (keys.length === 0) return undefined;
  const compiled = new Map<string, PathMatcher>();
  const matcherOf = (key: string) => {
    let found = compiled.get(key);
    if (!found) {
      const globs = exclude[key]!.map(checkGlob).flatMap((c) => (c.ok ? [c.glob] : []));
      compiled.set(key, (found = compileGlobs(globs)));
    }
    return found;
  };
  return (rule, path) =>
    !isCredentialSource(rule.ruleSource) && keys.some((k) => excludeNames(k, rule.ruleSource) && matcherOf(k)(path));
}

export interface ExcludeProblem {
  level: 'error' | 'warning';
  message: string;
}

/** The config's excludes checked against the rules there are (built-in and the bundle's): bad globs are errors, unknown rules warnings. */
export function checkExcludes(
  exclude: Readonly<Record<string, readonly string[]>>,
  bundle: Bundle | null,
): ExcludeProblem[] {
  const sources = [
    ...allBuiltinRules().map((r) => r.ruleSource),
    ...(bundle?.concepts ?? []).flatMap((c) => [...c.rules, ...(c.structural ?? [])].map((r) => r.ruleSource)),
  ];
  const problems: ExcludeProblem[] = [];
  for (const [key, globs] of Object.entries(exclude)) {
    for (const glob of globs) {
      const checked = checkGlob(glob);
      if (!checked.ok) problems.push({ level: 'error', message: m.excludeBadGlob(key, checked.error) });
      else if (checked.warning)
        problems.push({ level: 'warning', message: m.excludeGlobWarning(key, checked.warning) });
    }
    const named = sources.filter((s) => excludeNames(key, s));
    if (named.length === 0)
      problems.push({ level: 'warning', message: m.excludeUnknownRule(key, nearest(key, sources)) });
    else if (named.every(isCredentialSource)) problems.push({ level: 'warning', message: m.excludeCredential(key) });
  }
  return problems;
}

function nearest(key: string, sources: readonly string[]): string | null {
  return closest(key, new Set(sources.flatMap((s) => [s, ruleId(s)])));
}
