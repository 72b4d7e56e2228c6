/**
 * Mining's output formats (docs/mining.md): JSONL (default; findings, then the commit's rejected
 * lines, one JSON object a line), JSON (`{records, rejected, warnings}`), and the feedback-log
 * CSV (header `date,file,line,rule_source,category,severity,issue,verdict,rationale`, one row per
 * human verdict, OPEN rows only when asked). Everything streams; nothing waits for the end
 * except JSON's rejected and warnings lists.
 */
import type { MineWarning, RejectedRecord } from './types.js';
import { type MinedCommit, outputRecord, rejectedRecord } from './record.js';
import { escapeControl, jsonForTerminal } from '../core/output.js';

export const MINE_FORMATS = ['jsonl', 'json', 'csv'] as const;
export type MineFormat = (typeof MINE_FORMATS)[number];
export const CSV_HEADER = [
  'date',
  'file',
  'line',
  'rule_source',
  'category',
  'severity',
  'issue',
  'verdict',
  'rationale',
] as const;

export { streamSink, copyInto, type Sink } from './sink.js';
import type { Sink } from './sink.js';

export interface WriterOptions {
  format: MineFormat;
  includeOpen: boolean;
  redact: boolean;
  /** Output is a terminal: CSV fields get their control characters escaped (JSON is always safe). */
  terminal?: boolean;
}

export interface RecordWriter {
  add(commit: MinedCommit): Promise<void>;
  finish(): Promise<void>;
}

export function recordWriter(sink: Sink, options: WriterOptions): RecordWriter {
  if (options.format === 'csv') return csvWriter(sink, options);
  if (options.format === 'json') return jsonWriter(sink, options);
  return {
    async add(commit) {
      // Unredacted JSONL is the canonical line itself (a cached run is copied, not re-encoded).
      if (!options.redact) return sink.writeLines(commit.lines);
      const result = commit.result;
      let text = '';
      for (const f of result.findings) text += jsonForTerminal(JSON.stringify(outputRecord(f, true))) + '\n';
      for (const r of result.rejected) text += jsonForTerminal(JSON.stringify(rejectedRecord(r))) + '\n';
      if (text) await sink.write(text);
    },
    finish: () => sink.end(),
  };
}

function jsonWriter(sink: Sink, options: WriterOptions): RecordWriter {
  const rejected: RejectedRecord[] = [];
  const warnings: MineWarning[] = [];
  let first = true;
  return {
    async add(commit) {
      const result = commit.result;
      let text = '';
      for (const f of result.findings) {
        text += (first ? '{"records":[\n' : ',\n') + jsonForTerminal(JSON.stringify(outputRecord(f, options.redact)));
        first = false;
      }
      rejected.push(...result.rejected.map(rejectedRecord));
      warnings.push(...result.warnings);
      if (text) await sink.write(text);
    },
    async finish() {
      const head = first ? '{"records":[' : '\n';
      await sink.write(
        `${head}],\n"rejected":${jsonForTerminal(JSON.stringify(rejected))},\n"warnings":${jsonForTerminal(JSON.stringify(warnings))}}\n`,
      );
      await sink.end();
    },
  };
}

function csvWriter(sink: Sink, options: WriterOptions): RecordWriter {
  // Loaded for CSV output only: a cached run copied out as JSONL never needs it.
  let stringify: typeof import('csv-stringify/sync').stringify | null = null;
  let headerWritten = false;
  const header = async () => {
    if (headerWritten) return;
    headerWritten = true;
    await sink.write(CSV_HEADER.join(',') + '\n');
  };
  return {
    async add(commit) {
      const result = commit.result;
      await header();
      const rows: string[][] = [];
      for (const f of result.findings) {
        if (f.verdict === 'OPEN' && !options.includeOpen) continue;
        const row = [
          f.date.slice(0, 10),
          f.file ?? '',
          f.line ?? '',
          f.rule_source,
          f.category,
          f.severity,
          f.issue,
          f.verdict,
          f.rationale,
        ];
        rows.push(options.terminal ? row.map((field) => escapeControl(field)) : row);
      }
      if (!rows.length) return;
      stringify ??= (await import('csv-stringify/sync')).stringify;
      await sink.write(stringify(rows, { record_delimiter: '\n' }));
    },
    async finish() {
      await header();
      await sink.end();
    },
  };
}
