/**
 * Findings over time for the statistics page (docs/stats.md): per month, the findings raised
 * (a finding ID's first occurrence), answered (its first human verdict) and rejected (that
 * verdict was REJECT), overall and per rule_source, over every month from the first to the last
 * (a quiet month is a zero, not a gap).
 */
import type { CommitResult } from '../mine/types.js';

export interface MonthPoint {
  /** YYYY-MM of the committer date. */
  month: string;
  raised: number;
  answered: number;
  rejected: number;
}

export interface RuleTrend {
  rule_source: string;
  /** One point per month of Trends.months. */
  points: MonthPoint[];
}

export interface Trends {
  months: string[];
  overall: MonthPoint[];
  rules: RuleTrend[];
}

/** Every YYYY-MM from `first` to `last`, both included. */
export function monthRange(first: string, last: string): string[] {
  const out: string[] = [];
  let [y, m] = first.split('-').map(Number) as [number, number];
  const [ly, lm] = last.split('-').map(Number) as [number, number];
  while (y < ly || (y === ly && m <= lm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

export function computeTrends(commits: readonly CommitResult[]): Trends {
  // Per finding ID: its rule, first date, and its first human verdict (date, verdict).
  const ids = new Map<string, { rule: string; first: string; verdict?: { date: string; verdict: string } }>();
  for (const c of commits) {
    for (const f of c.findings) {
      let t = ids.get(f.id);
      if (!t) ids.set(f.id, (t = { rule: f.rule_source, first: f.date }));
      if (f.date < t.first) t.first = f.date;
      if (f.verdict !== 'OPEN' && (!t.verdict || f.date < t.verdict.date))
        t.verdict = { date: f.date, verdict: f.verdict };
    }
  }
  if (ids.size === 0) return { months: [], overall: [], rules: [] };
  const dates = [...ids.values()]
    .flatMap((t) => [t.first, ...(t.verdict ? [t.verdict.date] : [])])
    .map((d) => d.slice(0, 7));
  // Months as YYYY-MM, so text order is time order.
  const sorted = dates.sort();
  const months = monthRange(sorted[0]!, sorted[sorted.length - 1]!);
  const index = new Map(months.map((mo, i) => [mo, i]));
  const blank = () => months.map((month) => ({ month, raised: 0, answered: 0, rejected: 0 }));
  const overall = blank();
  const perRule = new Map<string, MonthPoint[]>();
  for (const t of ids.values()) {
    let points = perRule.get(t.rule);
    if (!points) perRule.set(t.rule, (points = blank()));
    const raised = index.get(t.first.slice(0, 7))!;
    points[raised]!.raised++;
    overall[raised]!.raised++;
    if (t.verdict) {
      const at = index.get(t.verdict.date.slice(0, 7))!;
      points[at]!.answered++;
      overall[at]!.answered++;
      if (t.verdict.verdict === 'REJECT') {
        points[at]!.rejected++;
        overall[at]!.rejected++;
      }
    }
  }
  const rules = [...perRule]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule_source, points]) => ({ rule_source, points }));
  return { months, overall, rules };
}
