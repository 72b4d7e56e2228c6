/**
 * Lint of the Review-Finding trailers in a message (docs/trailers.md): every `Review-Finding:` line, key
 * case-insensitive, must hold a valid row, and a human verdict a rationale that passes the
 * feedback-log gates. Errors block (a hand-written trailer that mining would reject); warnings
 * inform (a REJECT that cites nothing checkable, a row git will not see as a trailer).
 */
import { TRAILER_KEY, checkRationale, foldRow, parseRow, unfoldValue, type TrailerRow } from './row.js';
import { parseAdr0029 } from './adr0029.js';
import { keptLines } from './message.js';
import { trailerMessages as m } from '../messages/trailers.js';

export interface LintProblem {
  /** 1-based line in the message file. */
  line: number;
  level: 'error' | 'warning';
  reason: string;
  /** The line as written (continuations unfolded). */
  text: string;
}

export interface LintResult {
  rows: Array<{ line: number; row: TrailerRow }>;
  problems: LintProblem[];
  errors: number;
  warnings: number;
}

/**
 * The longest line a commit-message linter takes in a footer (commitlint's config-conventional
 * footer-max-line-length); revtrail folds to it where the row has a place to fold at.
 */
const LINE_LIMIT = 100;

export interface LintOptions {
  commentChar?: string;
  /**
   * Values git sees as Review-Finding trailers (`git interpret-trailers --parse`); when given,
   * a row outside git's trailer block earns a warning.
   */
  trailerValues?: ReadonlySet<string>;
}

const KEY_LINE = new RegExp(`^${TRAILER_KEY}[ \\t]*:(.*)$`, 'i');

/**
 * The same value however it was folded: git's own unfolding leaves a space after a folded comma
 * where revtrail's leaves none (docs/trailers.md "Folding").
 */
export const normalizeValue = (v: string) => v.replace(/,\s+/g, ',').replace(/\s+/g, ' ').trim();

/** The folded row as git's unfolding reads it, a writer's comma fold (see foldRow) read as revtrail does. */
function gitView(folded: string): string {
  const lines = folded.split('\n');
  let view = lines[0]!;
  for (let n = 1; n < lines.length; n++) {
    const before = n === 1 ? lines[0]!.slice(lines[0]!.indexOf(':') + 1) : lines[n - 1]!;
    const writers = before.endsWith(',') && /^[ \t]\S/.test(lines[n]!) && !/\S \S/.test(before);
    view += (writers ? '' : ' ') + lines[n]!.replace(/^\s+/, '');
  }
  return view;
}

/** A line's text (after `lead` columns) that no fold at LINE_LIMIT brings within the limit. */
function staysLong(text: string, lead: number): boolean {
  return foldRow(text, LINE_LIMIT, lead)
    .split('\n')
    .some((l, n) => (n === 0 ? lead : 0) + l.length > LINE_LIMIT);
}

export function lintMessage(text: string, options: LintOptions = {}): LintResult {
  const lines = keptLines(text, options.commentChar ?? '#');
  const result: LintResult = { rows: [], problems: [], errors: 0, warnings: 0 };
  const report = (line: number, level: LintProblem['level'], reason: string, raw: string) => {
    result.problems.push({ line, level, reason, text: raw });
    if (level === 'error') result.errors++;
    else result.warnings++;
  };
  for (let i = 0; i < lines.length; i++) {
    const { number, text: first } = lines[i]!;
    const match = KEY_LINE.exec(first);
    if (!match) continue;
    // Continuation lines (leading whitespace, the next line of the file) are unfolded: exactly
    // the newline and one space of each fold go (docs/trailers.md "Folding").
    let folded = first;
    while (
      i + 1 < lines.length &&
      lines[i + 1]!.number === lines[i]!.number + 1 &&
      /^[ \t]+\S/.test(lines[i + 1]!.text)
    ) {
      i++;
      folded += '\n' + lines[i]!.text;
    }
    const raw = unfoldValue(folded);
    // The key matched on the first line, so its colon is the first one (a value may hold CR or NUL, which `.` does not match).
    const value = raw.slice(raw.indexOf(':') + 1);
    // adr-0029 lines other tools write: readable, but not what revtrail writes; a near miss
    // of that grammar is an error that says so.
    const legacy = parseAdr0029(value.trim());
    if (legacy) {
      if (legacy.ok) report(number, 'warning', m.legacyGrammar, raw);
      else report(number, 'error', legacy.reason, raw);
      continue;
    }
    const parsed = parseRow(value);
    if (!parsed.ok) {
      report(number, 'error', parsed.reason, raw);
      continue;
    }
    result.rows.push({ line: number, row: parsed.row });
    // git unfolds a continuation into one space (`%(trailers:unfold)`): a fold after a comma or
    // before a space, as older revtrail wrote, reads differently there. A fold after a comma on a
    // line with no lone space is the writer's own fallback (no space could serve): git shows one
    // extra space there, display only (docs/trailers.md "Folding").
    if (folded.includes('\n') && gitView(folded) !== raw) report(number, 'warning', m.gitReadsOtherwise, raw);
    // A long line that a fold could bring within the limit is the writer's choice (trailers.foldAt);
    // one that stays long however it is folded is named, for linters that cap footers.
    const long = folded
      .split('\n')
      .find(
        (l, n) =>
          l.length > LINE_LIMIT &&
          (n === 0 ? staysLong(l.slice(l.indexOf(':') + 1).trim(), TRAILER_KEY.length + 2) : staysLong(l.trim(), 1)),
      );
    if (long) report(number, 'warning', m.lineTooLong(long.length, LINE_LIMIT), raw);
    for (const problem of checkRationale(parsed.row.verdict, parsed.row.rationale))
      report(number, problem.level, problem.message, raw);
    if (options.trailerValues && !options.trailerValues.has(normalizeValue(value)))
      report(number, 'warning', m.notInTrailerBlock, raw);
  }
  return result;
}

/** Review-Finding values in git's own trailer view of `--parse` output (`Key: value` lines). */
export function trailerValuesFromParse(parsed: string): Set<string> {
  const values = new Set<string>();
  for (const line of parsed.split('\n')) {
    const match = KEY_LINE.exec(line);
    if (match) values.add(normalizeValue(match[1]!));
  }
  return values;
}
