/**
 * Statistics per rule_source (docs/record.md "Counting", docs/gate.md "Statistics"): they count
 * findings (threads), not copies of trailers. A finding's copies (a cherry-pick, a merge, a
 * rebase leftover in a body) are one thread, whose state is its latest human verdict (OPEN:
 * none yet). Per rule: findings, the threads per state, and the reject rate (REJECT threads over
 * threads with a human verdict) with its n, from lib/record/rule-tally.ts — the same numbers the
 * review calibrates with, including whether a rule is demoted and since which verdict. Above
 * 30% a rule is flagged to investigate, below 10% it is performing well, and neither with fewer
 * than `calibration.minVerdicts` verdicts. The timeline counts, per month, findings raised
 * (OPEN) and verdicts given (each distinct verdict once, where it first appears).
 */
import type { CommitResult } from '../mine/types.js';
import type { Verdict } from '../core/vocabulary.js';
import { DEFAULT_CALIBRATION, zeroCounts, type CalibrationSettings, type VerdictCounts } from '../record/rule-tally.js';
import { buildThreads, ruleTallies } from '../gate/threads.js';
import { statsMessages as m } from '../messages/stats.js';

export const INVESTIGATE_ABOVE = 0.3;
export const PERFORMING_BELOW = 0.1;

export type Counts = VerdictCounts;
export type Flag = 'investigate' | 'performing well' | 'too few verdicts' | null;

/** The verdict at which a rule crossed the calibration threshold. */
export interface CalibratedSince {
  commit: string | null;
  date: string | null;
  finding: string;
  verdict: Verdict;
}

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
  /** Demoted by calibration: its findings no longer block a review. */
  calibrated: boolean;
  /** When calibrated: the verdict at which it crossed the threshold. */
  calibrated_since: CalibratedSince | null;
  /**
   * Who answered its findings (docs/gate.md "Calibration"): each person (commit author e-mail)
   * with the threads whose latest human verdict they gave, per verdict.
   */
  answered_by: Array<{ person: string } & Record<'ACCEPT' | 'REJECT' | 'DEFER' | 'ACKNOWLEDGE', number>>;
  /** How many distinct people its REJECTs come from: a demotion needs gate.minAuthors of them. */
  rejecting_people: number;
}

/** One finding of a rule, for `stats --rule`: what people answered and where. */
export interface ThreadStats {
  id: string;
  file: string | null;
  line: string | null;
  state: Verdict;
  /** The commit holding the latest human verdict (null: none yet). */
  verdict_commit: string | null;
  rationale: string;
  occurrences: number;
}

export interface MonthStats {
  /** YYYY-MM of the committer date. */
  month: string;
  /** OPEN: findings raised that month; the others: verdicts given that month. */
  counts: Counts;
}

export interface StatsReport {
  commits: number;
  /** The calibration the `calibrated` fields were judged with (minAuthors: gate.minAuthors). */
  calibration: CalibrationSettings;
  rules: RuleStats[];
  total: Omit<
    RuleStats,
    'rule_source' | 'flag' | 'calibrated' | 'calibrated_since' | 'answered_by' | 'rejecting_people'
  >;
  timeline: MonthStats[];
  /** With `--rule`: that rule's findings, oldest first. */
  threads?: ThreadStats[];
}

export interface StatsOptions {
  calibration?: CalibrationSettings;
  /** Only this rule_source (its rules row, total, timeline and threads). */
  rule?: string;
}

const zero = zeroCounts;

export function rateOf(counts: Counts): { human: number; rate: number | null } {
  const human = counts.ACCEPT + counts.REJECT + counts.DEFER + counts.ACKNOWLEDGE;
  return { human, rate: human ? counts.REJECT / human : null };
}

/** `n` and `minVerdicts` given: fewer verdicts than that are too few to judge by. */
export function flagOf(rate: number | null, n = Infinity, minVerdicts = 0): Flag {
  if (rate === null) return null;
  if (n < minVerdicts) return m.tooFewVerdicts as 'too few verdicts';
  if (rate > INVESTIGATE_ABOVE) return m.investigate as 'investigate';
  if (rate < PERFORMING_BELOW) return m.performingWell as 'performing well';
  return null;
}

export function computeStats(commits: readonly CommitResult[], options: StatsOptions = {}): StatsReport {
  const settings = options.calibration ?? DEFAULT_CALIBRATION;
  const perMonth = new Map<string, Counts>();
  const total = zero();
  const threads = buildThreads(commits).filter((t) => options.rule === undefined || t.rule_source === options.rule);
  const month = (date: string) => {
    const key = date.slice(0, 7);
    let mc = perMonth.get(key);
    if (!mc) perMonth.set(key, (mc = zero()));
    return mc;
  };
  for (const t of threads) {
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
  const rules: RuleStats[] = ruleTallies(commits, settings)
    .filter((t) => options.rule === undefined || t.rule_source === options.rule)
    .map((t) => ({
      rule_source: t.rule_source,
      findings: t.findings,
      open: t.counts.OPEN,
      counts: t.counts,
      human_verdicts: t.verdicts,
      reject_rate: t.rate,
      flag: flagOf(t.rate, t.verdicts, settings.minVerdicts),
      calibrated: t.demoted,
      calibrated_since: t.since
        ? { commit: t.since.commit, date: t.since.date, finding: t.since.id, verdict: t.since.verdict }
        : null,
      answered_by: t.answerers.map((a) => ({ person: a.person, ...a.counts })),
      rejecting_people: t.agreeing,
    }));
  const { human, rate } = rateOf(total);
  // The answers' signers (gate.reviewers) are the tally's input, not a setting the report shows.
  const { signers: _signers, ...shown } = settings;
  const report: StatsReport = {
    commits: commits.length,
    calibration: shown,
    rules,
    total: { findings: threads.length, open: total.OPEN, counts: total, human_verdicts: human, reject_rate: rate },
    timeline: [...perMonth].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, counts]) => ({ month: key, counts })),
  };
  if (options.rule !== undefined) {
    report.threads = threads.map((t) => {
      let answered: (typeof t.occurrences)[number] | undefined;
      for (let i = t.occurrences.length - 1; i >= 0 && !answered; i--)
        if (t.occurrences[i]!.verdict !== 'OPEN') answered = t.occurrences[i];
      return {
        id: t.id,
        file: t.file,
        line: t.line,
        state: t.state,
        verdict_commit: answered?.commit ?? null,
        rationale: answered?.rationale ?? '',
        occurrences: t.occurrences.length,
      };
    });
  }
  return report;
}
