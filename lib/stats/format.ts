/** `revtrail stats` as text, JSON or CSV. */
import { stringify } from 'csv-stringify/sync';
import { escapeControl, type Paint } from '../core/output.js';
import { VERDICTS } from '../core/vocabulary.js';
import type { ShownReport } from './present.js';
import { statsMessages as m } from '../messages/stats.js';

export const STATS_FORMATS = ['text', 'json', 'csv'] as const;
export type StatsFormat = (typeof STATS_FORMATS)[number];
export const STATS_CSV_HEADER = ['rule_source', 'findings', 'open', 'accept', 'reject', 'defer', 'acknowledge', 'human_verdicts', 'reject_rate', 'flag'];

export function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

/** A rate with the number of verdicts it rests on: "50.0% of 8". */
export function rateWithN(rate: number | null, n: number): string {
  return rate === null ? '-' : m.rateOf(percent(rate), n);
}

export function formatStats(report: ShownReport, format: StatsFormat, paint: Paint): string {
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n';
  if (format === 'csv') {
    const rows = report.rules.map((r) => [
      r.rule_source, r.findings, ...VERDICTS.map((v) => r.counts[v]), r.human_verdicts,
      r.reject_rate === null ? '' : r.reject_rate.toFixed(4), r.flag ?? '',
    ]);
    return stringify([STATS_CSV_HEADER, ...rows.map((r) => r.map(String))]);
  }
  if (report.rules.length === 0) return m.noFindings + '\n';
  const header = ['rule_source', 'findings', ...VERDICTS, 'reject rate', ''];
  const body = report.rules.map((r) => [
    escapeControl(r.rule_source), String(r.findings), ...VERDICTS.map((v) => String(r.counts[v])), rateWithN(r.reject_rate, r.human_verdicts), r.flag ?? '',
  ]);
  const t = report.total;
  const totalRow = [m.total, String(t.findings), ...VERDICTS.map((v) => String(t.counts[v])), rateWithN(t.reject_rate, t.human_verdicts), ''];
  const table = [header, ...body, totalRow];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return (
    table
      .map((row, i) => {
        const text = line(row);
        if (i === 0) return paint.bold(text);
        const flag = row[row.length - 1];
        return flag === m.investigate ? paint.red(text) : flag === m.performingWell ? paint.green(text) : text;
      })
      .join('\n') + '\n'
  );
}
