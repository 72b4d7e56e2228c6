/**
 * Calibration in the review (docs/gate.md "Calibration"): the rules that the reviewed tip's
 * history demoted, from the same Review-Finding rows suppression reads, through the one per-rule
 * computation `stats` uses (lib/core/rule-tally.ts).
 */
import type { HistoryRow } from '../core/trailer/history.js';
import { CREDENTIAL_RULE_SOURCES } from './builtin.js';
import { findingCalibration, occurrencesOfRows, tallyRules, type CalibrationSettings, type FindingCalibration } from '../core/rule-tally.js';

/** rule_source → the numbers its findings carry, for every demoted rule. */
export function calibrationOf(rows: readonly HistoryRow[], settings: CalibrationSettings): Map<string, FindingCalibration> {
  const demoted = new Map<string, FindingCalibration>();
  if (!settings.enabled || rows.length === 0) return demoted;
  // Credential rules are never demoted: a leaked key is never a false positive to learn from.
  for (const t of tallyRules(occurrencesOfRows(rows), { ...settings, exempt: (s) => CREDENTIAL_RULE_SOURCES.has(s) })) {
    const c = findingCalibration(t);
    if (c) demoted.set(t.rule_source, c);
  }
  return demoted;
}
