/**
 * Per-rule numbers from finding threads (docs/gate.md "Statistics" and "Calibration"): the one
 * computation behind `stats`, `candidates --explain` and the review's calibration, so the three
 * never disagree. A thread is every occurrence of one finding id; its rule is the one its latest
 * occurrence names and its state its latest human verdict (OPEN while it has none: a copied OPEN
 * row after a verdict does not reopen it). Copies of a record are occurrences of one thread, so
 * every count here is of findings, never of trailer copies.
 *
 * Pure and incremental: the occurrences are walked once, oldest first, and after each one the
 * rules it touched are judged again, which also tells the occurrence at which a rule crossed the
 * calibration threshold ("since").
 *
 * Calibration needs agreement (docs/gate.md "Calibration"): a thread's answer is the person who
 * gave its latest human verdict (the author of the commit carrying it), and a rule is demoted
 * only when its REJECTs come from at least `minAuthors` distinct people: one teammate's REJECTs,
 * however many, are that person's view, not the team's. Where the policy names reviewers
 * (`signers`), the person is the verified signer of the commit carrying the verdict instead, and
 * a REJECT no listed key signed counts for no one and not as a rejection (docs/gate.md "Calibration").
 */
import type { Verdict } from '../core/vocabulary.js';
import type { HistoryRow } from './history.js';

/** One occurrence of a finding, as history records it. */
export interface Occurrence {
  id: string;
  rule_source: string;
  verdict: Verdict;
  commit?: string;
  date?: string;
  /** Who recorded it: the commit author's e-mail, case-folded (personOf); absent where unknown. */
  author?: string;
}

/** A commit author (`Name <email>` or an e-mail) as one person: the e-mail, case-folded. */
export function personOf(author: string): string {
  const email = /<([^<>]*)>\s*$/.exec(author);
  return (email ? email[1]! : author).trim().toLowerCase();
}

export interface CalibrationSettings {
  enabled: boolean;
  /** Answered findings (threads with a human verdict) a rule needs before it can be demoted. */
  minVerdicts: number;
  /** A reject rate strictly above this demotes the rule. */
  demoteAbove: number;
  /**
   * Distinct people whose REJECTs a demotion needs (config gate.minAuthors; docs/gate.md
   * "Calibration"). Absent: 1, any one person's.
   */
  minAuthors?: number;
  /**
   * Rules never demoted: the built-in credential rules. The review's rule registry knows them;
   * whoever tallies passes the predicate in (a leaked key is never a false positive to learn from).
   */
  exempt?: (ruleSource: string) => boolean;
  /**
   * Where the policy names reviewers (gate.reviewers): commit → the verified signer of its
   * answers (./answer-signers.ts). An answer's person is then its commit's signer, never its
   * author, and a REJECT whose commit is absent counts for no one and not among the rejections:
   * it stays an answer (n of the rate), so unsigned REJECTs only ever make a demotion harder.
   */
  signers?: ReadonlyMap<string, string>;
}

export const DEFAULT_CALIBRATION: CalibrationSettings = { enabled: true, minVerdicts: 5, demoteAbove: 0.3 };

export type VerdictCounts = Record<Verdict, number>;

/** One person's answers to a rule: the threads whose latest human verdict they gave, per verdict. */
export interface Answerer {
  person: string;
  counts: Record<Exclude<Verdict, 'OPEN'>, number>;
}

/** The occurrence after which a rule became (and stayed) demoted. */
export interface Crossing {
  commit: string | null;
  date: string | null;
  /** The finding whose occurrence tipped the rate. */
  id: string;
  verdict: Verdict;
}

export interface RuleTally {
  rule_source: string;
  /** Threads whose rule this is. */
  findings: number;
  /** Threads per state (latest verdict; OPEN: none yet). */
  counts: VerdictCounts;
  /** Threads with a human verdict: the n of the reject rate. */
  verdicts: number;
  /** Threads whose latest verdict is REJECT (with `signers`: a verified signer's REJECT). */
  rejected: number;
  /** rejected / verdicts; null with no human verdict. */
  rate: number | null;
  /**
   * Who answered its findings (people by e-mail, or by verified signer with `signers`, in order),
   * and how many distinct people gave its REJECTs.
   */
  answerers: Answerer[];
  agreeing: number;
  /** A credential rule: never demoted. */
  exempt: boolean;
  /** Its findings no longer block (calibration on, n ≥ minVerdicts, rate > demoteAbove, REJECTs from minAuthors people, not exempt). */
  demoted: boolean;
  /** When demoted: the occurrence at which it crossed the threshold; null otherwise. */
  since: Crossing | null;
}

/** What a demoted rule's findings carry (the review's `calibration` field). */
export interface FindingCalibration {
  rejected: number;
  verdicts: number;
  rate: number;
  /** With pooled calibration (docs/org.md): the other repositories whose answers the numbers include. */
  repositories?: number;
}

export const zeroCounts = (): VerdictCounts => ({ OPEN: 0, ACCEPT: 0, REJECT: 0, DEFER: 0, ACKNOWLEDGE: 0 });

/**
 * Whether numbers like these demote a rule. Division, not multiplication: 3/10 equals 0.3 exactly
 * as git users mean it. `people`: the distinct people behind the REJECTs (settings.minAuthors).
 */
export function isDemoted(
  rejected: number,
  verdicts: number,
  settings: CalibrationSettings,
  exempt = false,
  people = 0,
): boolean {
  return (
    settings.enabled &&
    !exempt &&
    verdicts > 0 &&
    verdicts >= settings.minVerdicts &&
    rejected / verdicts > settings.demoteAbove &&
    ((settings.minAuthors ?? 1) <= 1 || people >= settings.minAuthors!)
  );
}

const UNKNOWN = '';

/** Per rule_source, in rule_source order; `occurrences` oldest first. */
export function tallyRules(
  occurrences: Iterable<Occurrence>,
  settings: CalibrationSettings = DEFAULT_CALIBRATION,
): RuleTally[] {
  // by: the answer's person; null: no one (an unverified answer where answers must be signed).
  const signers = settings.signers;
  const threads = new Map<string, { rule: string; state: Verdict; by: string | null }>();
  const rules = new Map<string, RuleTally>();
  // Per rule, per person: the threads whose latest human verdict that person gave, per verdict.
  const people = new Map<RuleTally, Map<string | null, Answerer['counts']>>();
  const answer = (r: RuleTally, by: string | null, state: Verdict, step: 1 | -1) => {
    if (state === 'OPEN') return;
    let byPerson = people.get(r);
    if (!byPerson) people.set(r, (byPerson = new Map()));
    let counts = byPerson.get(by);
    if (!counts) byPerson.set(by, (counts = { ACCEPT: 0, REJECT: 0, DEFER: 0, ACKNOWLEDGE: 0 }));
    counts[state] += step;
  };
  const agreeing = (r: RuleTally) => {
    let n = 0;
    for (const [by, counts] of people.get(r) ?? []) if (by !== null && counts.REJECT > 0) n++;
    return n;
  };
  const ruleOf = (source: string): RuleTally => {
    let r = rules.get(source);
    if (!r) {
      const exempt = settings.exempt?.(source) ?? false;
      rules.set(
        source,
        (r = {
          rule_source: source,
          findings: 0,
          counts: zeroCounts(),
          verdicts: 0,
          rejected: 0,
          rate: null,
          answerers: [],
          agreeing: 0,
          exempt,
          demoted: false,
          since: null,
        }),
      );
    }
    return r;
  };
  const judge = (r: RuleTally, at: Occurrence) => {
    r.rejected = r.counts.REJECT - (people.get(r)?.get(null)?.REJECT ?? 0);
    r.verdicts = r.counts.ACCEPT + r.counts.REJECT + r.counts.DEFER + r.counts.ACKNOWLEDGE;
    r.rate = r.verdicts ? r.rejected / r.verdicts : null;
    r.agreeing = agreeing(r);
    const demoted = isDemoted(r.rejected, r.verdicts, settings, r.exempt, r.agreeing);
    if (demoted && !r.demoted)
      r.since = { commit: at.commit ?? null, date: at.date ?? null, id: at.id, verdict: at.verdict };
    if (!demoted) r.since = null;
    r.demoted = demoted;
  };
  for (const o of occurrences) {
    const before = threads.get(o.id);
    const state: Verdict = o.verdict !== 'OPEN' ? o.verdict : (before?.state ?? 'OPEN');
    // The answer's person: who gave this verdict, or, for a copied OPEN row, who gave the state it keeps.
    // (A kept state's null stays null: `??` would make it someone.)
    const by =
      o.verdict === 'OPEN'
        ? before
          ? before.by
          : UNKNOWN
        : signers
          ? (signers.get(o.commit ?? '') ?? null)
          : (o.author ?? UNKNOWN);
    if (before) {
      const old = rules.get(before.rule)!;
      old.counts[before.state] -= 1;
      old.findings -= 1;
      answer(old, before.by, before.state, -1);
      // The thread moved to another rule (its latest occurrence names another): the old one is judged again.
      if (before.rule !== o.rule_source) judge(old, o);
    }
    const r = ruleOf(o.rule_source);
    r.counts[state] += 1;
    r.findings += 1;
    answer(r, by, state, 1);
    threads.set(o.id, { rule: o.rule_source, state, by });
    judge(r, o);
  }
  // Unverified answers have no person to list (they are in the rule's counts).
  for (const [r, byPerson] of people)
    r.answerers = [...byPerson]
      .filter((e): e is [string, Answerer['counts']] => e[0] !== null)
      .filter(([, c]) => c.ACCEPT + c.REJECT + c.DEFER + c.ACKNOWLEDGE > 0)
      .map(([person, counts]) => ({ person, counts }))
      .sort((a, b) => (a.person < b.person ? -1 : a.person > b.person ? 1 : 0));
  return [...rules.values()]
    .filter((r) => r.findings > 0)
    .sort((a, b) => (a.rule_source < b.rule_source ? -1 : a.rule_source > b.rule_source ? 1 : 0));
}

/**
 * Rules whose recorded findings are `security` and that `named` (config `calibration.security`)
 * does not name: calibration never demotes them (docs/gate.md "Calibration"). `stats`,
 * `candidates --explain` and the review combine it with the credential rules.
 */
export function securityExempt(
  records: Iterable<{ rule_source: string; severity: string }>,
  named: readonly string[] = [],
): (ruleSource: string) => boolean {
  const rules = new Set<string>();
  for (const r of records) if (r.severity === 'security' && !named.includes(r.rule_source)) rules.add(r.rule_source);
  return (s) => rules.has(s);
}

/** The numbers a demoted rule's findings carry; null when the rule is not demoted. */
export function findingCalibration(t: RuleTally | undefined): FindingCalibration | null {
  return t?.demoted && t.rate !== null ? { rejected: t.rejected, verdicts: t.verdicts, rate: t.rate } : null;
}

/**
 * History rows (git log order: newest commit first, rows in message order) as occurrences
 * oldest first, each commit's rows kept in message order.
 */
export function occurrencesOfRows(rows: readonly HistoryRow[]): Occurrence[] {
  const out: Occurrence[] = [];
  let end = rows.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && rows[start - 1]!.commit === rows[end - 1]!.commit) start--;
    for (let i = start; i < end; i++) {
      const { commit, row, author } = rows[i]!;
      out.push({
        id: row.id,
        rule_source: row.rule_source,
        verdict: row.verdict,
        commit,
        ...(author !== undefined ? { author: personOf(author) } : {}),
      });
    }
    end = start;
  }
  return out;
}
