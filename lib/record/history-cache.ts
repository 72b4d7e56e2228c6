/**
 * The history rows of one commit, kept between runs (docs/record.md "The history cache"): an
 * editor's cold start reads the rows of HEAD's history before its first review, and on a long
 * history (vue core's 6,000 commits) that `git log` is the longest step of the start. The rows
 * of a commit's history are a function of the commit and what else shapes the walk: the shallow
 * boundary and grafts (replace objects are off for every git call revtrail makes, core/git/run.ts).
 * So the last read is kept with those, and a start at the same commit takes it without a git
 * process. Derived and deletable: a missing, damaged or other build's file is a read from git.
 */
import { join } from 'node:path';
import { readDerivedFile, writeDerivedFile } from '../core/derived-cache.js';
import { readRegularFile } from '../core/fs/read.js';
import { historyCacheFile } from '../core/state.js';
import { historyRows, type HistoryRow } from './history.js';

/** The most of the shallow or graft file that is compared; a larger one is never cached. */
const MAX_SHAPE_BYTES = 64 * 1024;

/**
 * The most rows kept: about 10 MB of JSON (300 bytes a row), under the most of a derived file
 * that is read back (core/derived-cache.ts), so that a file no start would take is not written
 * after each one.
 */
const MAX_ROWS = 30_000;

/** What the rows were read for: the commit, and the files that change its history's shape. */
interface HistoryKey {
  commit: string;
  shallow: string;
  grafts: string;
}

export interface CachedHistory {
  /** The rows of `commit`'s history, newest commit first (as readHistoryRows). */
  rows: Promise<HistoryRow[]>;
  /** Keeps rows read from git for the next start (never an error); nothing when they came from the cache. */
  keep(): Promise<void>;
}

/** A small file's text, '' when there is none; null when it cannot be compared (too big, not a file). */
function shapeFile(file: string): string | null {
  try {
    return readRegularFile(file, { maxBytes: MAX_SHAPE_BYTES }).bytes.toString('utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '' : null;
  }
}

function keyOf(commonDir: string, commit: string): HistoryKey | null {
  const shallow = shapeFile(join(commonDir, 'shallow'));
  const grafts = shapeFile(process.env.GIT_GRAFT_FILE || join(commonDir, 'info', 'grafts'));
  return shallow === null || grafts === null ? null : { commit, shallow, grafts };
}

/** Rows as this build wrote them (a file edited by hand is read from git again). */
const isRows = (rows: unknown): rows is HistoryRow[] =>
  Array.isArray(rows) &&
  rows.every(
    (r: Partial<HistoryRow> | null) =>
      typeof r?.commit === 'string' &&
      // Rows kept before they carried their author are read again (calibration counts people).
      typeof r.author === 'string' &&
      typeof r.row === 'object' &&
      r.row !== null &&
      typeof r.row.id === 'string',
  );

const sameKey = (a: HistoryKey, b: Partial<HistoryKey>) =>
  a.commit === b.commit && a.shallow === b.shallow && a.grafts === b.grafts;

/**
 * The rows of `commit`'s history (a full object name, as git printed it), from the cache when
 * the last read was of the same commit and shape, else from git. A failed read is [] and is not kept.
 */
export function cachedHistoryRows(top: string, commonDir: string, commit: string): CachedHistory {
  const file = historyCacheFile(commonDir);
  const key = keyOf(commonDir, commit);
  const stored = key && readDerivedFile(file);
  if (key && stored && sameKey(key, stored) && isRows(stored.rows))
    return { rows: Promise.resolve(stored.rows), keep: async () => {} };
  let read: HistoryRow[] | null = null;
  const rows = (async () => {
    const found: HistoryRow[] = [];
    try {
      for await (const row of historyRows(top, commit)) found.push(row);
    } catch {
      return []; // as readHistoryRows: the review goes on without answers
    }
    read = found;
    return found;
  })();
  return {
    rows,
    keep: async () => {
      await rows;
      if (key && read && read.length <= MAX_ROWS) await writeDerivedFile(file, { ...key, rows: read });
    },
  };
}
