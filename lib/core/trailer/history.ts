/**
 * Review-Finding rows in the history of a commit, as git sees them
 * (`%(trailers:key=Review-Finding,valueonly,unfold)`). Used for verdict suppression and for
 * "already recorded on this branch"; mining (lib/mine) reads every line, not only git's view.
 */
import { gitRecords } from '../git/run.js';
import { TRAILER_KEY, parseRow, type TrailerRow } from './row.js';

export interface HistoryRow {
  commit: string;
  row: TrailerRow;
}

/** Rows newest commit first; unparseable values are skipped (mining reports them). */
export async function* historyRows(cwd: string, tip: string, extraArgs: string[] = []): AsyncGenerator<HistoryRow> {
  // -z ends each commit with a NUL, so the record is: hash NUL trailers NUL.
  const format = `%H%x00%(trailers:key=${TRAILER_KEY},valueonly,unfold,separator=%x01)`;
  const args = ['log', `--format=${format}`, '-z', `--grep=^${TRAILER_KEY}:`, '-i', ...extraArgs, tip, '--'];
  let commit: string | null = null;
  for await (const field of gitRecords(args, { cwd })) {
    if (commit === null) {
      commit = field.replace(/^\n+/, '');
      continue;
    }
    for (const value of field.split('\x01')) {
      if (!value.trim()) continue;
      const parsed = parseRow(value);
      if (parsed.ok) yield { commit, row: parsed.row };
    }
    commit = null;
  }
}

/** All rows reachable from `tip`, or none when `tip` does not resolve (an unborn branch). */
export async function readHistoryRows(cwd: string, tip = 'HEAD'): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  try {
    for await (const r of historyRows(cwd, tip)) rows.push(r);
  } catch {
    return [];
  }
  return rows;
}

/** Latest human verdict per finding id (history is read newest first). */
export function latestVerdicts(rows: readonly HistoryRow[]): Map<string, TrailerRow> {
  const latest = new Map<string, TrailerRow>();
  for (const { row } of rows) {
    if (row.verdict !== 'OPEN' && !latest.has(row.id)) latest.set(row.id, row);
  }
  return latest;
}
