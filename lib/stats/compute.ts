/**
 * Statistics per rule_source (SPEC §8): occurrences per verdict and the reject rate, REJECT over
 * human verdicts (ACCEPT, REJECT, DEFER, ACKNOWLEDGE). Above 30% a rule is flagged to
 * investigate, below 10% it is performing well.
 */
import type { CommitResult } from '../mine/types.js';
import type { Verdict } from '../core/vocabulary.js';
import { statsMessages as m } from '../messages/stats.js';

export const INVESTIGATE_ABOVE = 0.3;
export const PERFORMING_BELOW = 0.1;

export type Counts = Record<Verdict, number>;
export type Flag = 'investigate' | 'performing well' | null;

export interface RuleStats {
  rule_source: string;
  /** Distinct finding IDs (threads). */
  findings: number;
  /** Occurrences per verdict. */
  counts: Counts;
  human_verdicts: number;
  /** null when there is no human verdict yet. */
  reject_rate: number | null;
  flag: Flag;
}

export interface MonthStats {
  /** YYYY-MM of the committer date. */
  month: string;
  counts: Counts;
}

export interface StatsReport {
  commits: number;
  rules: RuleStats[];
  total: Omit<RuleStats, 'rule_source' | 'flag'>;
  timeline: MonthStats[];
}

const zero = (): Counts => ({ OPEN: 0, ACCEPT: 0, REJECT: 0, DEFER: 0, ACKNOWLEDGE: 0 });

export function rateOf(counts: Counts): { human: number; rate: number | null } {
  const human = counts.ACCEPT + counts.REJECT + counts.DEFER + counts.ACKNOWLEDGE;
  return { human, rate: human ? counts.REJECT / human : null };
}

export function flagOf(rate: number | null): Flag {
  if (rate === null) return null;
  if (rate > INVESTIGATE_ABOVE) return m.investigate as 'investigate';
  if (rate < PERFORMING_BELOW) return m.performingWell as 'performing well';
  return null;
}

export function computeStats(commits: readonly CommitResult[]): StatsReport {
  const perRule = new Map<string, { counts: Counts; ids: Set<string> }>();
  const perMonth = new Map<string, Counts>();
  const total = zero();
  const ids = new Set<string>();
  for (const c of commits) {
    for (const f of c.findings) {
      let r = perRule.get(f.rule_source);
      if (!r) perRule.set(f.rule_source, (r = { counts: zero(), ids: new Set() }));
      r.counts[f.verdict] += 1;
      r.ids.add(f.id);
      total[f.verdict] += 1;
      ids.add(f.id);
      const month = f.date.slice(0, 7);
      let mc = perMonth.get(month);
      if (!mc) perMonth.set(month, (mc = zero()));
      mc[f.verdict] += 1;
    }
  }
  const rules: RuleStats[] = [...perRule]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule_source, r]) => {
      const { human, rate } = rateOf(r.counts);
      return { rule_source, findings: r.ids.size, counts: r.counts, human_verdicts: human, reject_rate: rate, flag: flagOf(rate) };
    });
  const { human, rate } = rateOf(total);
  return {
    commits: commits.length,
    rules,
    total: { findings: ids.size, counts: total, human_verdicts: human, reject_rate: rate },
    timeline: [...perMonth].sort(([a], [b]) => (a < b ? -1 : 1)).map(([month, counts]) => ({ month, counts })),
  };
}

