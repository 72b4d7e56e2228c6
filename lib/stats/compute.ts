/**
 * Statistics per rule_source (docs/record.md "Counting"): they count findings (threads), not
 * copies of trailers. A finding's copies (a cherry-pick, a merge, a rebase leftover in a
 * body) are one thread, whose state is its latest human verdict (OPEN: none yet). Per rule:
 * findings, the threads per state, and the reject rate (REJECT threads over threads with a
 * human verdict) with its n. Above 30% a rule is flagged to investigate, below 10% it is
 * performing well. The timeline counts, per month, findings raised (OPEN) and verdicts
 * given (each distinct verdict once, where it first appears).
 */
import type { CommitResult } from '../mine/types.js';
import type { Verdict } from '../core/vocabulary.js';
import { buildThreads } from '../gate/threads.js';
import { statsMessages as m } from '../messages/stats.js';

export const INVESTIGATE_ABOVE = 0.3;
export const PERFORMING_BELOW = 0.1;

export type Counts = Record<Verdict, number>;
export type Flag = 'investigate' | 'performing well' | null;

export interface RuleStats {
  rule_source: string;
  /** Distinct findings (threads). */
  findings: number;
  /** Threads with no human verdict yet (counts.OPEN). */
  open: number;
  /** Threads per latest verdict. */
  counts: Counts;
  /** Threads with a human verdict: the n of the reject rate. */
  human_verdicts: number;
  /** null when there is no human verdict yet. */
  reject_rate: number | null;
  flag: Flag;
}

export interface MonthStats {
  /** YYYY-MM of the committer date. */
  month: string;
  /** OPEN: findings raised that month; the others: verdicts given that month. */
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
  const perRule = new Map<string, Counts>();
  const perMonth = new Map<string, Counts>();
  const total = zero();
  const threads = buildThreads(commits);
  const month = (date: string) => {
    const key = date.slice(0, 7);
    let mc = perMonth.get(key);
    if (!mc) perMonth.set(key, (mc = zero()));
    return mc;
  };
  for (const t of threads) {
    let r = perRule.get(t.rule_source);
    if (!r) perRule.set(t.rule_source, (r = zero()));
    r[t.state] += 1;
    total[t.state] += 1;
    // Raised where the thread starts; each verdict where it first appears (copies are not new).
    month(t.occurrences[0]!.date).OPEN += 1;
    const given = new Set<string>();
    for (const o of t.occurrences) {
      if (o.verdict === 'OPEN') continue;
      const key = `${o.verdict}\0${o.rationale.replace(/\s+/g, ' ').trim()}`;
      if (given.has(key)) continue;
      given.add(key);
      month(o.date)[o.verdict] += 1;
    }
  }
  const rules: RuleStats[] = [...perRule]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule_source, c]) => {
      const { human, rate } = rateOf(c);
      const findings = Object.values(c).reduce((a, b) => a + b, 0);
      return { rule_source, findings, open: c.OPEN, counts: c, human_verdicts: human, reject_rate: rate, flag: flagOf(rate) };
    });
  const { human, rate } = rateOf(total);
  return {
    commits: commits.length,
    rules,
    total: { findings: threads.length, open: total.OPEN, counts: total, human_verdicts: human, reject_rate: rate },
    timeline: [...perMonth].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, counts]) => ({ month: key, counts })),
  };
}
