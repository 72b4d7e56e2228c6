/**
 * parseRow (lib/trailers/row.ts) for many values at once, with the same results and reasons.
 *
 * Why: csv-parse's sync parser costs about a tenth of a millisecond per call, seconds at 20,000
 * trailers. So the values of a batch of commits are read together:
 * - one-line values whose quotes are balanced field by field (each is then exactly one record
 *   and cannot run into the next line) go to csv-parse in a single call, and are validated
 *   with row.ts's own schema (test/mine/rows.test.ts holds this equal to parseRow);
 * - everything else, and every value that does not come out as nine valid fields, goes through
 *   parseRow itself, which gives the reason a row is refused.
 */
import { parse } from 'csv-parse/sync';
import { ROW_FIELDS, parseRow, trailerRowSchema, type RowResult } from '../core/trailer/row.js';
import { decodePath } from '../core/trailer/path-escape.js';

// Fields either bare (no quote, no comma) or wholly quoted with "" escapes. Linear: the
// alternatives never overlap.
const WELL_FORMED = /^(?:[^",\r\n]*|"(?:[^"]|"")*")(?:,(?:[^",\r\n]*|"(?:[^"]|"")*"))*$/;

function validate(fields: readonly string[]): RowResult | null {
  if (fields.length !== ROW_FIELDS.length) return null;
  const candidate: Record<string, string> = {};
  for (let f = 0; f < ROW_FIELDS.length; f++) candidate[ROW_FIELDS[f]!] = fields[f]!;
  if (candidate.file!.charCodeAt(0) === 47) candidate.file = decodePath(candidate.file!); // an escaped path (lib/core/trailer/path-escape.ts)
  const checked = trailerRowSchema.safeParse(candidate);
  return checked.success ? { ok: true, row: checked.data } : null;
}

export function parseRows(values: readonly string[]): RowResult[] {
  const results: RowResult[] = new Array(values.length);
  const quoted: number[] = [];
  const texts: string[] = [];
  values.forEach((value, i) => {
    const text = value.trim();
    if (!text || /[\r\n]/.test(text)) results[i] = parseRow(value);
    else if (WELL_FORMED.test(text)) {
      quoted.push(i);
      texts.push(text);
    } else results[i] = parseRow(value);
  });
  if (quoted.length === 0) return results;
  let records: string[][] | null;
  try {
    records = parse(texts.join('\n'), { relax_column_count: true, record_delimiter: '\n' }) as string[][];
    if (records.length !== quoted.length) records = null;
  } catch {
    records = null;
  }
  quoted.forEach((i, k) => {
    results[i] = (records && validate(records[k]!)) || parseRow(values[i]!);
  });
  return results;
}
