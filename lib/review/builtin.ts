/**
 * The built-in baseline: checks every repository wants, whatever its knowledge bundle says.
 * rule_source `builtin/<section>:<id>`; each id can be disabled in the config
 * (`builtinRules: false` or a list of ids, rule sources or sections), except the credential
 * rules: no repository file switches those off (docs/trust.md "Credential rules").
 *
 * The rules live in families, one file each under ./builtin/ (docs/review.md lists them);
 * this registry is the only place that names the families. Everything else (the ids a config
 * may name, the credential set, each rule's needles) is computed from the rules.
 *
 * Noise matters as much as recall, so each rule carries guards (rules.ts RuleGuards): code
 * rules look only at code, in the languages they understand; credential rules skip documented
 * example keys and placeholders; SQL and shell rules need real interpolation or concatenation.
 */
import type { ReviewRule } from './engine/rules.js';
import { compileFamily, type BuiltinFamily } from './builtin/define.js';
import { family as git } from './builtin/git.js';
import { family as secrets } from './builtin/secrets.js';
import { family as tokens } from './builtin/tokens.js';
import { family as providers } from './builtin/providers.js';
import { family as sentry } from './builtin/sentry.js';
import { family as leaked } from './builtin/leaked.js';
import { family as genericSecret } from './builtin/generic-secret.js';
import { family as tests } from './builtin/tests.js';
import { family as debug } from './builtin/debug.js';
import { family as injection } from './builtin/injection.js';

/** Every family, in the order their rules run. */
export const FAMILIES: readonly BuiltinFamily[] = [
  git,
  secrets,
  tokens,
  providers,
  sentry,
  leaked,
  genericSecret,
  tests,
  debug,
  injection,
];

let all: ReviewRule[] | undefined;

/** Every built-in rule, compiled once per process. */
export function allBuiltinRules(): readonly ReviewRule[] {
  all ??= FAMILIES.flatMap(compileFamily);
  return all;
}

/** The ids a `builtinRules` list may name, in rule order. */
export function builtinIds(): string[] {
  return allBuiltinRules().map((r) => r.id);
}

// The credential rules' names and confidences, from their specs: no rule is compiled for them.
const CREDENTIALS: ReadonlyArray<{ id: string; ruleSource: string; confidence: number }> = FAMILIES.filter(
  (f) => f.credential,
).flatMap((f) =>
  f.specs().map((s) => ({ id: s.id, ruleSource: `builtin/${f.section}:${s.id}`, confidence: s.confidence })),
);

/** rule_source of the credential rules (private keys, cloud keys, tokens): pre-push checks these per commit. */
export const CREDENTIAL_RULE_SOURCES: ReadonlySet<string> = new Set(CREDENTIALS.map((c) => c.ruleSource));
/** Whether a rule_source is a credential rule: the one predicate for what config cannot switch off or exclude. */
export function isCredentialSource(ruleSource: string): boolean {
  return CREDENTIAL_RULE_SOURCES.has(ruleSource);
}

/** Whether a config entry names this rule: its id, its rule_source, or its section (`secrets`, `builtin/secrets`). */
function names(entry: string, r: { id: string; ruleSource: string }): boolean {
  const section = r.ruleSource.slice('builtin/'.length, r.ruleSource.indexOf(':'));
  return entry === r.id || entry === r.ruleSource || entry === section || entry === `builtin/${section}`;
}

/**
 * The baseline for a config value `builtinRules`: true = every rule, false = only the credential
 * rules, a list = every rule except those it names (id, rule_source or section). The credential
 * rules always stay: a repository's own config (a pull request's, in CI) must not be able to
 * switch off the check that stops a secret (credentialOverrides says what a config tried).
 */
export function builtinRules(disabled: string[] | boolean): ReviewRule[] {
  const rules = allBuiltinRules();
  if (disabled === true) return [...rules];
  if (disabled === false) return rules.filter((r) => r.credential);
  return rules.filter((r) => r.credential || !disabled.some((entry) => names(entry, r)));
}

/** Whether a config entry (a rule id, rule_source or section) names at least one credential rule. */
export function namesCredentialRule(entry: string): boolean {
  return CREDENTIALS.some((r) => names(entry, r));
}

/** What a config value tried to take from the credential rules, for one warning line each. */
export interface CredentialOverride {
  key: 'builtinRules' | 'minConfidence' | 'exclude';
  /** The config's words: `false`, the entries, the value. */
  what: string;
}

/**
 * The parts of a config that would switch off or filter the credential rules if they reached
 * them: `builtinRules: false` or entries naming them, a `minConfidence` above a credential
 * rule's confidence, `exclude` entries naming them. None of these reaches them (builtinRules
 * above, the pipeline's confidence check, the excludes); the review says so.
 */
export function credentialOverrides(config: {
  builtinRules: string[] | boolean;
  minConfidence: number;
  exclude?: Record<string, string[]>;
}): CredentialOverride[] {
  const out: CredentialOverride[] = [];
  if (config.builtinRules === false) out.push({ key: 'builtinRules', what: 'false' });
  else if (Array.isArray(config.builtinRules)) {
    const named = config.builtinRules.filter(namesCredentialRule);
    if (named.length) out.push({ key: 'builtinRules', what: named.map((e) => JSON.stringify(e)).join(', ') });
  }
  const lowest = Math.min(...CREDENTIALS.map((r) => r.confidence));
  if (config.minConfidence > lowest) out.push({ key: 'minConfidence', what: String(config.minConfidence) });
  const excluded = Object.keys(config.exclude ?? {}).filter(namesCredentialRule);
  if (excluded.length) out.push({ key: 'exclude', what: excluded.map((e) => JSON.stringify(e)).join(', ') });
  return out;
}

/** Entries of a `builtinRules` list that name no built-in rule (a typo would silently disable nothing). */
export function unknownBuiltinIds(list: readonly string[]): string[] {
  return list.filter((entry) => !allBuiltinRules().some((r) => names(entry, r)));
}
