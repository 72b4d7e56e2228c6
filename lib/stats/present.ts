/**
 * The flags a reader sees (docs/stats.md): a reject rate is flagged only once it rests on at
 * least `calibration.minVerdicts` human verdicts; below that it is "too few verdicts", so that
 * two REJECTs out of three never read as a rule to investigate.
 */
import type { RuleStats, StatsReport } from './compute.js';
import type { SignedAudit } from './signed-audit.js';

export type ShownFlag = RuleStats['flag'] | 'too few verdicts';
export type ShownRule = Omit<RuleStats, 'flag'> & { flag: ShownFlag };
export type ShownReport = Omit<StatsReport, 'rules'> & {
  rules: ShownRule[];
  min_verdicts: number;
  /** The audit of signed answers, where the config names reviewers (./signed-audit.ts). */
  signed_answers?: SignedAudit;
};

export function withMinVerdicts(report: StatsReport, minVerdicts: number): ShownReport {
  // computeStats already flags "too few verdicts" with the same minVerdicts (one computation).
  return { ...report, min_verdicts: minVerdicts };
}
