/**
 * The flags a reader sees (docs/stats.md): a reject rate is flagged only once it rests on at
 * least `calibration.minVerdicts` human verdicts; below that it is "too few verdicts", so that
 * two REJECTs out of three never read as a rule to investigate.
 */
import type { RuleStats, StatsReport } from './compute.js';
import { statsMessages as m } from '../messages/stats.js';

export const DEFAULT_MIN_VERDICTS = 5;

export type ShownFlag = RuleStats['flag'] | 'too few verdicts';
export type ShownRule = Omit<RuleStats, 'flag'> & { flag: ShownFlag };
export type ShownReport = Omit<StatsReport, 'rules'> & { rules: ShownRule[]; min_verdicts: number };

/** `calibration.minVerdicts` of a configuration that may not have that key (yet). */
export function minVerdictsOf(config: unknown): number {
  const value = (config as { calibration?: { minVerdicts?: unknown } } | null)?.calibration?.minVerdicts;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : DEFAULT_MIN_VERDICTS;
}

export function withMinVerdicts(report: StatsReport, minVerdicts: number): ShownReport {
  return {
    ...report,
    min_verdicts: minVerdicts,
    rules: report.rules.map((r) => ({
      ...r,
      flag: r.human_verdicts > 0 && r.human_verdicts < minVerdicts ? (m.tooFewVerdicts as 'too few verdicts') : r.flag,
    })),
  };
}
