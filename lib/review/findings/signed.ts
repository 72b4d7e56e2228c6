/**
 * Which findings need a signed answer (docs/gate.md "Signed answers"): the kinds the policy's
 * `gate.reviewers.for` names. `credentials` is the built-in credential rules, `security` every
 * finding of that severity, anything else a rule_source (`X/*` every rule_source under `X/`).
 */
import type { Finding } from '../types.js';

export type NeedsSignature = (finding: Pick<Finding, 'rule_source' | 'severity'>) => boolean;

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
