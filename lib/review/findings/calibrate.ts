/**
 * Calibration in the review (docs/gate.md "Calibration"): the rules that the reviewed tip's
 * history demoted, from the same Review-Finding rows suppression reads, through the one per-rule
 * computation `stats` uses (lib/record/rule-tally.ts).
 */
import type { HistoryRow } from '../../record/history.js';
import { CREDENTIAL_RULE_SOURCES } from '../builtin.js';
import {
  findingCalibration,
  isDemoted,
  occurrencesOfRows,
  securityExempt,
  tallyRules,
  type CalibrationSettings,
  type FindingCalibration,
} from '../../record/rule-tally.js';

/**
 * The rules calibration never demotes: the credential rules (a leaked key is never a false
 * positive to learn from), and rules with `security` findings that `calibration.security` does
 * not name (a real injection after three false positives is still an injection). `records`: the
 * rule_source and severity of every recorded finding (history rows, mined records).
 */
export function calibrationExempt(
  records: Iterable<{ rule_source: string; severity: string }>,
  security: readonly string[] = [],
): (ruleSource: string) => boolean {
  const securityRule = securityExempt(records, security);
  return (s) => CREDENTIAL_RULE_SOURCES.has(s) || securityRule(s);
}

/** Other repositories' answered findings of one rule, summed (docs/org.md "Pooled calibration"). */
export interface PooledRule {
  verdicts: number;
  rejected: number;
  /** Some repository judged it a credential or security rule (its `rules.exempt`). */
  exempt: boolean;
  /** How many repositories answered one of its findings. */
  repositories: number;
  /** The distinct people behind their REJECTs, when the repositories say; else they count as one. */
  people?: number;
}

/**
 * rule_source → the numbers its findings carry, for every demoted rule. With `pooled` (other
 * repositories' numbers, calibration.pooled), a rule's numbers are this history's plus theirs,
 * judged by the same thresholds; a rule another repository holds for a security rule stays
 * exempt unless `calibration.security` names it here, and credential rules always are.
 * `settings.minAuthors` (gate.minAuthors): the distinct people whose REJECTs a demotion needs
 * (docs/gate.md "Calibration"); the local review, the pre-push and the server all ask here.
 */
export function calibrationOf(
  rows: readonly HistoryRow[],
  settings: CalibrationSettings & { security?: readonly string[] },
  pooled?: ReadonlyMap<string, PooledRule>,
): Map<string, FindingCalibration> {
  const demoted = new Map<string, FindingCalibration>();
  if (!settings.enabled || (rows.length === 0 && !pooled?.size)) return demoted;
  const exempt = calibrationExempt(
    rows.map((r) => r.row),
    settings.security,
  );
  const tallies = tallyRules(occurrencesOfRows(rows), { ...settings, exempt });
  if (!pooled?.size) {
    for (const t of tallies) {
      const c = findingCalibration(t);
      if (c) demoted.set(t.rule_source, c);
    }
    return demoted;
  }
  const own = new Map(tallies.map((t) => [t.rule_source, t]));
  for (const rule of new Set([...own.keys(), ...pooled.keys()])) {
    const mine = own.get(rule);
    const theirs = pooled.get(rule);
    const never =
      exempt(rule) || (theirs?.exempt === true && !(settings.security ?? []).includes(rule)) || (mine?.exempt ?? false);
    const verdicts = (mine?.verdicts ?? 0) + (theirs?.verdicts ?? 0);
    const rejected = (mine?.rejected ?? 0) + (theirs?.rejected ?? 0);
    // Other repositories' REJECTs are at least one person; no more is known unless they say.
    const people = (mine?.agreeing ?? 0) + (theirs?.rejected ? (theirs.people ?? 1) : 0);
    if (!isDemoted(rejected, verdicts, settings, never, people)) continue;
    demoted.set(rule, {
      rejected,
      verdicts,
      rate: rejected / verdicts,
      ...(theirs?.repositories ? { repositories: theirs.repositories } : {}),
    });
  }
  return demoted;
}
