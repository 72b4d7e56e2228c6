/**
 * Which findings need a signed answer (docs/gate.md "Signed answers"): the kinds the policy's
 * `gate.reviewers.for` names. `credentials` is the built-in credential rules, `security` every
 * finding of that severity, anything else a rule_source (`X/*` every rule_source under `X/`).
 */
import type { Finding } from '../types.js';
import type { Config } from '../../config/schema.js';
import { CREDENTIAL_RULE_SOURCES } from '../builtin.js';
import { openingAnswers } from './suppress.js';
import { isPolicyChange } from '../../record/policy-changes.js';

export type NeedsSignature = (finding: { rule_source: string; severity: string }) => boolean;

export function signedKinds(kinds: readonly string[], isCredential: (ruleSource: string) => boolean): NeedsSignature {
  const sources = new Set(kinds.filter((k) => k !== 'credentials' && k !== 'security' && !k.endsWith('/*')));
  const prefixes = kinds.filter((k) => k.endsWith('/*')).map((k) => k.slice(0, -1));
  const credentials = kinds.includes('credentials');
  const security = kinds.includes('security');
  return (f) =>
    (credentials && isCredential(f.rule_source)) ||
    (security && f.severity === 'security') ||
    sources.has(f.rule_source) ||
    prefixes.some((p) => f.rule_source.startsWith(p));
}

/**
 * The config's signed-answer rules, or null when it names no reviewers: what the history readers
 * (stats' audit, mine --signed-answers; lib/stats/signed-audit.ts) are passed, as calibration's
 * exemptions are, since they sit below the review.
 */
export function signedAnswerRules(config: Config): {
  needs: NeedsSignature;
  opens: (finding: Pick<Finding, 'rule_source'>, verdict: string) => boolean;
} | null {
  const reviewers = config.gate.reviewers;
  if (!reviewers) return null;
  // A change to who may answer always needs a signed answer (docs/gate.md "Changes to the reviewers").
  const listed = signedKinds(reviewers.for, (s) => CREDENTIAL_RULE_SOURCES.has(s));
  return {
    needs: (f) => isPolicyChange(f.rule_source) || listed(f),
    opens: (f, verdict) => openingAnswers(f, config.gate.credentialAnswers).includes(verdict),
  };
}
