/**
 * Calibration in the review (docs/gate.md "Calibration"): the rules that the reviewed tip's
 * history demoted, from the same Review-Finding rows suppression reads, through the one per-rule
 * computation `stats` uses (lib/record/rule-tally.ts).
 */
import type { HistoryRow } from '../../record/history.js';
import { CREDENTIAL_RULE_SOURCES } from '../builtin.js';
import {
  findingCalibration,
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

/** rule_source → the numbers its findings carry, for every demoted rule. */
export function calibrationOf(
  rows: readonly HistoryRow[],
  settings: CalibrationSettings & { security?: readonly string[] },
): Map<string, FindingCalibration> {
  const demoted = new Map<string, FindingCalibration>();
  if (!settings.enabled || rows.length === 0) return demoted;
  const exempt = calibrationExempt(
    rows.map((r) => r.row),
    settings.security,
  );
  for (const t of tallyRules(occurrencesOfRows(rows), { ...settings, exempt })) {
    const c = findingCalibration(t);
    if (c) demoted.set(t.rule_source, c);
  }
  return demoted;
}
