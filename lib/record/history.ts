/**
 * Review-Finding rows in the history of a commit, as git sees them
 * (`%(trailers:key=Review-Finding,valueonly)`, folded rows as written: parseRow removes exactly
 * older revtrail comma folds, where git's `unfold` would leave a space). Used for verdict suppression and for
 * "already recorded on this branch"; mining (lib/mine) reads every line, not only git's view.
 */
import { messagesOf, stream, trailerLog, trailersOf } from '../core/git/commands.js';
import { TRAILER_KEY, parseRow, type TrailerRow } from './row.js';

export interface HistoryRow {
  commit: string;
  row: TrailerRow;
  /** The commit's author e-mail (who answered, for calibration's agreement; docs/gate.md "Calibration"). */
  author?: string;
}

const TRAILERS = `%(trailers:key=${TRAILER_KEY},valueonly,separator=%x01)`;

// The history is read in fixed trailer settings, whatever the config says (core/git/commands/log.ts
// TRAILER_CONFIG, docs/record.md "Git's settings").

function rowsOfField(field: string): TrailerRow[] {
  const rows: TrailerRow[] = [];
  for (const value of field.split('\x01')) {
    if (!value.trim()) continue;
    const parsed = parseRow(value);
    if (parsed.ok) rows.push(parsed.row);
  }
  return rows;
}

/** Rows newest commit first; unparseable values are skipped (mining reports them). */
export async function* historyRows(cwd: string, tip: string, extraArgs: string[] = []): AsyncGenerator<HistoryRow> {
  // -z ends each commit with a NUL, so the record is: hash, 0x02, author e-mail NUL trailers NUL.
  const format = `%H%x02%ae%x00${TRAILERS}`;
  let commit: string | null = null;
  let author = '';
  for await (const field of stream(trailerLog(format, TRAILER_KEY, tip, extraArgs), { cwd })) {
    if (commit === null) {
      const head = field.replace(/^\n+/, '');
      const cut = head.indexOf('\x02');
      commit = cut === -1 ? head : head.slice(0, cut);
      author = cut === -1 ? '' : head.slice(cut + 1);
      continue;
    }
    for (const row of rowsOfField(field)) yield { commit, row, author };
    commit = null;
  }
}

/** All rows reachable from `tip`, or none when `tip` does not resolve (an unborn branch). */
export async function readHistoryRows(cwd: string, tip = 'HEAD'): Promise<HistoryRow[]> {
  return readHistoryOf(cwd, [tip]);
}

/** All rows reachable from any of `tips` (a merge's parents); none for no tips. */
export async function readHistoryOf(cwd: string, tips: readonly string[]): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  if (tips.length === 0) return rows;
  try {
    for await (const r of historyRows(cwd, tips[0]!, [...tips.slice(1)])) rows.push(r);
  } catch {
    return [];
  }
  return rows;
}

/** The rows git sees as trailers in each of `commits` (one git process). */
export async function commitTrailerRows(cwd: string, commits: readonly string[]): Promise<Map<string, TrailerRow[]>> {
  const result = new Map<string, TrailerRow[]>();
  if (commits.length === 0) return result;
  let commit: string | null = null;
  for await (const field of stream(trailersOf(`%H%x00${TRAILERS}`, commits), { cwd })) {
    if (commit === null) {
      commit = field.replace(/^\n+/, '');
      continue;
    }
    result.set(commit, rowsOfField(field));
    commit = null;
  }
  return result;
}

/** The full message of each of `commits` (one git process), by full commit ID. */
export async function commitMessages(cwd: string, commits: readonly string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (commits.length === 0) return result;
  let commit: string | null = null;
  for await (const field of stream(messagesOf(commits), { cwd })) {
    if (commit === null) {
      commit = field.replace(/^\n+/, '');
      continue;
    }
    result.set(commit, field);
    commit = null;
  }
  return result;
}

const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

/** One record: the same finding with the same verdict and rationale (copies are the same record). */
export function recordKey(row: Pick<TrailerRow, 'id' | 'verdict' | 'rationale'>): string {
  return `${row.id}\0${row.verdict}\0${squeeze(row.rationale)}`;
}

/** Latest human verdict per finding id (history is read newest first). */
export function latestVerdicts(rows: readonly HistoryRow[]): Map<string, TrailerRow> {
  const latest = new Map<string, TrailerRow>();
  for (const { row } of rows) {
    if (row.verdict !== 'OPEN' && !latest.has(row.id)) latest.set(row.id, row);
  }
  return latest;
}
