/** `revtrail stats` as text, JSON or CSV. */
import { stringify } from 'csv-stringify/sync';
import { escapeControl, jsonForTerminal, type Paint } from '../core/output.js';
import { VERDICTS } from '../core/vocabulary.js';
import type { RuleStats, StatsReport } from './compute.js';
import type { ShownReport } from './present.js';
import { statsMessages as m } from '../messages/stats.js';

export const STATS_FORMATS = ['text', 'json', 'csv'] as const;
export type StatsFormat = (typeof STATS_FORMATS)[number];
export const STATS_CSV_HEADER = [
  'rule_source',
  'findings',
  'open',
  'accept',
  'reject',
  'defer',
  'acknowledge',
  'human_verdicts',
  'reject_rate',
  'flag',
  'calibrated',
  'calibrated_since',
];

export function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

/**
 * The calibration cell of a rule: since which verdict it no longer blocks; for a credential rule
 * whose numbers would demote it, that it never is; else empty.
 */
export function calibrationCell(r: RuleStats, report: Pick<StatsReport, 'calibration'>): string {
  if (r.calibrated_since)
    return m.calibratedSince(r.calibrated_since.commit, r.calibrated_since.verdict, r.calibrated_since.finding);
  const { enabled, minVerdicts, demoteAbove, minAuthors = 1 } = report.calibration;
  const wouldBe = enabled && r.reject_rate !== null && r.human_verdicts >= minVerdicts && r.reject_rate > demoteAbove;
  if (wouldBe && report.calibration.exempt?.(r.rule_source)) return m.neverCalibrated;
  // The numbers would demote it, but one person's view is not the team's (docs/gate.md "Calibration").
  return wouldBe && r.rejecting_people < minAuthors ? m.needsAgreement(r.rejecting_people, minAuthors) : '';
}

/** A rate with the number of verdicts it rests on: "50.0% of 8". */
export function rateWithN(rate: number | null, n: number): string {
  return rate === null ? '-' : m.rateOf(percent(rate), n);
}

export function formatStats(report: ShownReport, format: StatsFormat, paint: Paint): string {
  if (format === 'json') return jsonForTerminal(JSON.stringify(report, null, 2)) + '\n';
  if (format === 'csv') {
    const rows = report.rules.map((r) => [
      r.rule_source,
      r.findings,
      ...VERDICTS.map((v) => r.counts[v]),
      r.human_verdicts,
      r.reject_rate === null ? '' : r.reject_rate.toFixed(4),
      r.flag ?? '',
      r.calibrated,
      r.calibrated_since?.commit ?? '',
    ]);
    return stringify([STATS_CSV_HEADER, ...rows.map((r) => r.map(String))]);
  }
  if (report.rules.length === 0) return m.noFindings + '\n' + signedSection(report, paint);
  const header = ['rule_source', 'findings', ...VERDICTS, 'reject rate', '', m.calibratedHeader];
  const flagAt = header.length - 2;
  const body = report.rules.map((r) => [
    escapeControl(r.rule_source),
    String(r.findings),
    ...VERDICTS.map((v) => String(r.counts[v])),
    rateWithN(r.reject_rate, r.human_verdicts),
    r.flag ?? '',
    calibrationCell(r, report),
  ]);
  const t = report.total;
  const totalRow = [
    m.total,
    String(t.findings),
    ...VERDICTS.map((v) => String(t.counts[v])),
    rateWithN(t.reject_rate, t.human_verdicts),
    '',
    '',
  ];
  const table = [header, ...body, totalRow];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 || i >= flagAt ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = table.map((row, i) => {
    const text = line(row);
    if (i === 0) return paint.bold(text);
    const flag = row[flagAt];
    return flag === m.investigate ? paint.red(text) : flag === m.performingWell ? paint.green(text) : text;
  });
  if (report.threads) {
    out.push(
      '',
      paint.bold(m.threadsHeading(escapeControl(report.rules[0]?.rule_source ?? ''), report.threads.length)),
    );
    for (const th of report.threads) {
      const where = th.file ? `${th.file}${th.line ? `:${th.line}` : ''}` : '-';
      const commit = th.verdict_commit ? th.verdict_commit.slice(0, 12) : '';
      out.push(escapeControl(`  ${th.id}  ${th.state.padEnd(11)}  ${where}  ${commit}  ${th.rationale}`.trimEnd()));
    }
  }
  return out.join('\n') + '\n' + answeredSection(report, paint) + signedSection(report, paint);
}

/** Who answered each rule's findings, and how many people its REJECTs come from (docs/stats.md). */
function answeredSection(report: ShownReport, paint: Paint): string {
  const rules = report.rules.filter((r) => r.answered_by.length > 0);
  if (rules.length === 0) return '';
  const min = report.calibration.minAuthors ?? 1;
  const out = ['', paint.bold(m.answeredHeading)];
  for (const r of rules) {
    const people = r.answered_by.map(({ person, ...counts }) => m.answeredPerson(person, counts)).join(', ');
    out.push(escapeControl(m.answeredLine(r.rule_source, people, r.rejecting_people, min)));
  }
  return out.join('\n') + '\n';
}

/** The audit of signed answers (docs/gate.md "Signed answers"), one line per answer. */
function signedSection(report: ShownReport, paint: Paint): string {
  const audit = report.signed_answers;
  if (!audit) return '';
  const out = ['', paint.bold(m.signedHeading(audit.file, audit.kinds, audit.answers.length))];
  for (const a of audit.answers)
    out.push(
      escapeControl(
        m.signedLine(
          `${a.id} ${a.file ?? '-'} (${a.rule_source})`,
          `${a.added_in.slice(0, 12)} by ${m.addedBy(a.added_by, a.added_verified)}`,
          `${a.answer} "${a.rationale}"`,
          `${a.answered_in.slice(0, 12)} ${a.answered_at}`,
          a.counts ? m.signedBy(a.signer ?? '', a.key ?? '', a.second_signer) : null,
          a.why,
        ),
      ),
    );
  const changes = audit.policy_changes ?? [];
  if (changes.length) {
    out.push('', paint.bold(m.policyChangesHeading(changes.length)));
    for (const c of changes)
      out.push(
        escapeControl(
          m.policyChangeLine(
            c.commit.slice(0, 12),
            `${c.kind === 'reviewers' ? c.path : `gate.* in ${c.path}`}`,
            c.author,
            c.date,
            c.id,
            c.answer,
            c.signer,
          ),
        ),
      );
  }
  return out.join('\n') + '\n';
}
