/**
 * The Review-Finding trailer value: one CSV record of nine fields (docs/trailers.md). csv-stringify
 * writes it and csv-parse reads it (a clean one-line value is cut by oneLineFields, as csv-parse
 * would); zod validates every field.
 */
import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import * as z from 'zod/mini';
import { CATEGORIES, SEVERITIES, VERDICTS } from '../core/vocabulary.js';
import { RULE_SOURCE_PATTERN, RULE_SOURCE_SHAPE } from '../core/rule-source.js';
import { decodePath, encodePath } from './path-escape.js';
import { rowMessages as m } from '../messages/trailers.js';

export const TRAILER_KEY = 'Review-Finding';
export const ROW_FIELDS = [
  'id',
  'file',
  'line',
  'rule_source',
  'category',
  'severity',
  'issue',
  'verdict',
  'rationale',
] as const;

/**
 * Any path git can hold in a tree: relative, no empty, `.` or `..` part, nothing under `.git`.
 * Backslashes, quotes, commas, colons and non-ASCII are ordinary characters of a name here
 * (a file `b\ack.js` is recorded and answered like any other).
 */
export function isRepoPath(path: string): boolean {
  if (!path || path.includes('\0')) return false;
  // Part by part without splitting (mining checks every row's path).
  for (let start = 0; ; ) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    if (end === start) return false;
    if (end - start <= 4 && path.charCodeAt(start) === 46) {
      const part = path.slice(start, end);
      if (part === '.' || part === '..' || part.toLowerCase() === '.git') return false;
    }
    if (slash === -1) return true;
    start = slash + 1;
  }
}

/** N >= 1, and N <= M in N-M (the text already matched the line pattern). */
function lineInOrder(l: string): boolean {
  const dash = l.indexOf('-');
  const a = Number(dash === -1 ? l : l.slice(0, dash));
  return a >= 1 && (dash === -1 || a <= Number(l.slice(dash + 1)));
}

export const trailerRowSchema = z.strictObject({
  id: z.string().check(z.regex(/^rf-[0-9a-f]{6,40}$/, m.id)),
  file: z.string().check(z.minLength(1, m.fileEmpty), z.refine(isRepoPath, m.fileOutside)),
  line: z.string().check(z.regex(/^\d+(-\d+)?$/, m.lineShape), z.refine(lineInOrder, m.lineOrder)),
  rule_source: z.string().check(z.regex(RULE_SOURCE_PATTERN, m.ruleSource(RULE_SOURCE_SHAPE))),
  category: z.enum(CATEGORIES, m.notOneOf('category', CATEGORIES)),
  severity: z.enum(SEVERITIES, m.notOneOf('severity', SEVERITIES)),
  issue: z.string().check(z.minLength(1, m.issueEmpty), z.maxLength(80, m.issueLong)),
  verdict: z.enum(VERDICTS, m.notOneOf('verdict', VERDICTS)),
  rationale: z.string(),
});

export type TrailerRow = z.output<typeof trailerRowSchema>;

/** One line, nine fields; newlines inside a field become spaces so the record stays one line, and every field reads back as written. */
export function formatRow(row: TrailerRow): string {
  // A path with control characters is escaped (./path-escape.ts), so it reads back exactly.
  const fields = ROW_FIELDS.map((k) =>
    k === 'file' ? encodePath(row.file) : String(row[k]).replace(/\r\n|\r|\n/g, ' '),
  );
  // A field with whitespace at an edge is quoted: the reader trims the value, and git the line.
  return stringify([fields], { record_delimiter: '', quoted_match: /^\s|\s$/ });
}

/**
 * Folds a formatted row in git's continuation form so that no line is longer than `width`
 * (the key and `: ` included), where a place to fold exists (docs/trailers.md "Folding").
 * A fold is a newline and one space inserted before a single space inside the row: git's own
 * unfolding (`%(trailers:unfold)`, which turns a newline and the whitespace after it into one
 * space) and unfoldValue both give the row back exactly. Where no such space keeps a line within
 * the width (a long path before the issue text), the fold goes right after a comma between
 * fields: unfoldValue removes it exactly, git shows one extra space there (display only, SPEC
 * §5). A line never ends in whitespace (git's message cleanup would strip it), and a stretch with
 * neither stays long. `width` 0 never folds.
 */
export function foldRow(value: string, width: number, lead = TRAILER_KEY.length + 2): string {
  if (width <= 0 || lead + value.length <= width || /[\r\n]/.test(value)) return value;
  const { spaces, commas } = foldPlaces(value);
  const lines: string[] = [];
  let start = 0;
  let used = lead;
  while (used + (value.length - start) > width) {
    const fits = (at: number) => at > start && used + (at - start) <= width;
    // The last place that keeps this line within the width, a space before a comma; else the
    // first place after the line's start (it stays long).
    const at =
      lastOf(spaces, fits) ??
      lastOf(commas, fits) ??
      Math.min(spaces.find((p) => p > start) ?? Infinity, commas.find((p) => p > start) ?? Infinity);
    if (at === Infinity) break;
    lines.push(value.slice(start, at));
    start = at;
    used = 1;
  }
  lines.push(value.slice(start));
  return lines.join('\n ');
}

/**
 * Where a continuation line may start in a formatted row: at a lone space (non-space on each
 * side), or right after a comma between fields (outside quotes, not the row's last character).
 */
export function foldPlaces(value: string): { spaces: number[]; commas: number[] } {
  const spaces: number[] = [];
  const commas: number[] = [];
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"')
      quoted = !quoted; // "" inside a quoted field toggles twice
    else if (c === ' ' && i > 0 && i + 1 < value.length && !/\s/.test(value[i - 1]!) && !/\s/.test(value[i + 1]!))
      spaces.push(i);
    else if (c === ',' && !quoted && i + 1 < value.length && !/\s/.test(value[i + 1]!)) commas.push(i + 1);
  }
  return { spaces, commas };
}

function lastOf(places: readonly number[], fits: (at: number) => boolean): number | undefined {
  let found: number | undefined;
  for (const p of places) if (fits(p)) found = p;
  return found;
}

/**
 * Undoes foldRow exactly: a fold (a newline and one space or tab) after a comma or before more
 * whitespace is removed. Any other continuation (a person's or another tool's, where the fold
 * took the place of a space) reads as one space, as git reads it.
 */
export function unfoldValue(value: string): string {
  if (!value.includes('\n')) return value;
  return value.replace(/\r?\n[ \t]/g, (fold, at: number) => {
    const next = value[at + fold.length];
    return value[at - 1] === ',' || next === ' ' || next === '\t' ? '' : ' ';
  });
}

export type RowResult = { ok: true; row: TrailerRow } | { ok: false; reason: string };

/** Parses a trailer value (without the key; folded or not). Never throws: a bad row comes back with its reason. */
export function parseRow(value: string): RowResult {
  let records: string[][];
  try {
    records = parse(unfoldValue(value).trim(), { relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    return { ok: false, reason: m.notCsv((error as Error).message.split('\n')[0]!) };
  }
  if (records.length !== 1) return { ok: false, reason: records.length ? m.manyRecords : m.emptyValue };
  return rowOf(records[0]!);
}

/** The row that one CSV record's fields make, or why they make none. */
function rowOf(fields: readonly string[]): RowResult {
  if (fields.length !== ROW_FIELDS.length) {
    // One field: no comma at all, so it was never meant as a row of nine.
    if (fields.length === 1) return { ok: false, reason: m.neitherGrammar(ROW_FIELDS) };
    return { ok: false, reason: m.fieldCount(fields.length, ROW_FIELDS) };
  }
  const candidate: Record<string, string> = {};
  for (let f = 0; f < ROW_FIELDS.length; f++) candidate[ROW_FIELDS[f]!] = fields[f]!;
  if (candidate.file!.charCodeAt(0) === 47) candidate.file = decodePath(candidate.file!); // an escaped path (./path-escape.ts)
  const result = trailerRowSchema.safeParse(candidate);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    return { ok: false, reason: m.fieldIssue(issue.path.join('.'), issue.message) };
  }
  return { ok: true, row: result.data };
}

// Fields either bare (no quote, no comma) or wholly quoted with "" escapes. Linear: the
// alternatives never overlap.
const ONE_LINE_RECORD = /^(?:[^",\r\n]*|"(?:[^"]|"")*")(?:,(?:[^",\r\n]*|"(?:[^"]|"")*"))*$/;

/**
 * parseRow for many values at once, with the same answers: a value that is exactly one clean
 * one-line record (quotes balanced field by field: none can run into the next line) is cut into
 * its fields here (oneLineFields), every other value goes to csv-parse alone. csv-parse's set-up
 * per call costs more than a short row (docs/mining.md "At history scale").
 */
export function parseRows(values: readonly string[]): RowResult[] {
  const results: RowResult[] = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const text = value.trim();
    results[i] =
      text && !/[\r\n]/.test(text) && ONE_LINE_RECORD.test(text) ? rowOf(oneLineFields(text)) : parseRow(value);
  }
  return results;
}

/**
 * The fields of a text ONE_LINE_RECORD matched, exactly as csv-parse reads it (a bare field as
 * it is, a quoted one without its quotes and with each "" one "): the pattern has already read
 * the record, so cutting it is all that is left. csv-parse cost a third of a large mining run,
 * most of it allocation (docs/mining.md "At history scale"); every other value still goes to it.
 */
export function oneLineFields(text: string): string[] {
  const fields: string[] = [];
  for (let at = 0; ; at += 1) {
    if (text.charCodeAt(at) === 34) {
      let value = '';
      for (let from = at + 1; ; ) {
        const quote = text.indexOf('"', from);
        if (text.charCodeAt(quote + 1) === 34) {
          value += text.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        fields.push(value + text.slice(from, quote));
        at = quote + 1;
        break;
      }
    } else {
      const comma = text.indexOf(',', at);
      const end = comma === -1 ? text.length : comma;
      fields.push(text.slice(at, end));
      at = end;
    }
    if (at >= text.length) return fields;
  }
}

export interface GateProblem {
  level: 'error' | 'warning';
  message: string;
}

// Something another person can check: a URL, quoted or fenced code, a command with its output,
// a commit or a file:line reference.
const CHECKABLE =
  /(https?:\/\/\S+)|(`[^`]+`)|("[^"]{3,}")|('[^']{3,}')|(\$ \S+)|(\b[0-9a-f]{7,40}\b)|([\w./-]+\.\w+:\d+)/;
// A tracker reference, a time line or a documented intent.
const TRACKED =
  /(#\d+)|([A-Z][A-Z0-9]+-\d+)|(https?:\/\/\S+)|(\b(ADR|adr)[- ]?\d+)|(\b(until|by|before|after|next|sprint|release|Q[1-4]|v?\d+\.\d+|\d{4}-\d{2}(-\d{2})?)\b)|(\b(documented|intended|intentional|by design|per|see)\b)/i;

/** The feedback-log gates on a human verdict's rationale (docs/trailers.md). */
export function checkRationale(verdict: string, rationale: string): GateProblem[] {
  const text = rationale.trim();
  if (verdict === 'OPEN') return [];
  if (!text) return [{ level: 'error', message: m.rationaleMissing(verdict) }];
  if (verdict === 'REJECT' && !CHECKABLE.test(text)) {
    return [{ level: 'warning', message: m.rejectUncheckable }];
  }
  if ((verdict === 'DEFER' || verdict === 'ACKNOWLEDGE') && !TRACKED.test(text)) {
    return [{ level: 'warning', message: m.deferUnplanned(verdict) }];
  }
  return [];
}
