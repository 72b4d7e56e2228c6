/**
 * Pooled calibration (docs/org.md "Pooled calibration", config `calibration.pooled`): the verdict
 * tallies of other repositories, read from the `repo=<name>/rules.parquet` files `revtrail org
 * mine` writes, for the review's calibration to add to this repository's own.
 *
 * A commit must stay fast, so DuckDB is not loaded on every review: each file's tallies are kept
 * in the derived cache (lib/core/derived-cache.ts) under the file's stat signature (path, size,
 * modification time, inode), and DuckDB is loaded only for a file that is new or changed since,
 * once per such file. A warm review with findings stats the partitions and reads nothing else.
 *
 * Never an error: a folder that cannot be read, or a file DuckDB cannot read, is one warning
 * naming it and no pooled numbers at all (the repository's own calibration, as without the
 * setting).
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { keepDerived, peekDerived } from '../../core/derived-cache.js';
import { reviewMessages as m } from '../../messages/review.js';
import type { PooledRule } from './calibrate.js';

const TABLE = 'pooled-rules-v1';

/** One file's rows: [rule_source, answered findings, rejected, exempt]. */
export type RuleRows = Array<[string, number, number, boolean]>;
/** One file's rows, or why it could not be read. */
type FileTallies = { rules: RuleRows } | { error: string };

const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function validTallies(value: unknown): value is FileTallies {
  if (!value || typeof value !== 'object') return false;
  const v = value as { rules?: unknown; error?: unknown };
  if (typeof v.error === 'string') return true;
  return (
    Array.isArray(v.rules) &&
    v.rules.every(
      (r) =>
        Array.isArray(r) &&
        r.length === 4 &&
        typeof r[0] === 'string' &&
        count(r[1]) &&
        count(r[2]) &&
        r[2] <= r[1] &&
        typeof r[3] === 'boolean',
    )
  );
}

/** This repository's name in the folder, as `org mine` names it: its folder's name without `.git`. */
export function ownRepositoryName(top: string): string {
  return basename(top).replace(/\.git$/, '') || basename(top);
}

/**
 * The rows of one file's tallies summed into `into` (a pure step, tested without DuckDB).
 * A rule counts as one repository where it has an answered finding.
 */
export function addTallies(into: Map<string, PooledRule>, rules: RuleRows): void {
  for (const [rule, verdicts, rejected, exempt] of rules) {
    const p = into.get(rule) ?? { verdicts: 0, rejected: 0, exempt: false, repositories: 0 };
    p.verdicts += verdicts;
    p.rejected += rejected;
    p.exempt ||= exempt;
    if (verdicts > 0) p.repositories += 1;
    into.set(rule, p);
  }
}

/**
 * The other repositories' numbers per rule_source, from `dir` (relative to `top`), leaving out
 * the partition named `own`. Empty, with one warning in `warnings`, when anything cannot be read.
 */
export async function readPooled(
  top: string,
  setting: { dir: string; repository?: string },
  warnings: string[],
): Promise<Map<string, PooledRule>> {
  const dir = resolve(top, setting.dir);
  const own = setting.repository ?? ownRepositoryName(top);
  const pooled = new Map<string, PooledRule>();
  let entries: string[];
  try {
    entries = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && e.name.startsWith('repo=') && e.name !== `repo=${own}`)
      .map((e) => e.name)
      .sort();
  } catch (error) {
    warnings.push(m.pooledUnread(dir, reason(error)));
    return pooled;
  }
  // Each partition's file and its signature; a partition without rules.parquet (half written by a killed run) is skipped.
  const files: Array<{ file: string; key: string }> = [];
  for (const name of entries) {
    const file = join(dir, name, 'rules.parquet');
    try {
      const s = await stat(file);
      if (!s.isFile()) throw new Error('not a regular file');
      files.push({ file, key: `${file}\0${s.size}\0${s.mtimeMs}\0${s.ino}` });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      warnings.push(m.pooledUnread(file, reason(error)));
      return new Map();
    }
  }
  const tallies = files.map(({ key }) => peekDerived(TABLE, key, validTallies));
  const missing = files.filter((_, i) => tallies[i] === undefined);
  if (missing.length) {
    const read = await readFiles(missing.map((f) => f.file));
    for (const [i, f] of files.entries())
      if (tallies[i] === undefined) keepDerived(TABLE, f.key, (tallies[i] = read.get(f.file)!));
  }
  for (const [i, t] of tallies.entries()) {
    if (!t || 'error' in t) {
      warnings.push(m.pooledUnread(files[i]!.file, t?.error ?? 'not read'));
      return new Map();
    }
    addTallies(pooled, t.rules);
  }
  return pooled;
}

const reason = (error: unknown) =>
  ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').slice(0, 300);

/** Each file's tallies through embedded DuckDB, loaded here only (a cache miss). */
async function readFiles(files: readonly string[]): Promise<Map<string, FileTallies>> {
  const out = new Map<string, FileTallies>();
  let engine: import('../../core/duckdb.js').Engine;
  let literal: (text: string) => string;
  try {
    const e = await import('../../core/duckdb.js');
    literal = e.literal;
    engine = await e.openEngine({ threads: 1, memoryLimit: '64MB' });
  } catch (error) {
    const why = `DuckDB: ${reason(error)}`;
    for (const f of files) out.set(f, { error: why });
    return out;
  }
  try {
    for (const file of files) {
      // DuckDB reads a path with * ? [ as a pattern: such a name is not read as another file.
      if (/[*?[\]{}]/.test(file)) {
        out.set(file, { error: 'a path with a pattern character' });
        continue;
      }
      try {
        const { rows } = await engine.rows(
          `SELECT rule_source, CAST(human_verdicts AS BIGINT) AS verdicts, CAST(rejected AS BIGINT) AS rejected, exempt FROM read_parquet(${literal(file)})`,
        );
        const rules: RuleRows = [];
        for (const r of rows) {
          const entry: [string, number, number, boolean] = [
            String(r.rule_source),
            Number(r.verdicts),
            Number(r.rejected),
            r.exempt === true,
          ];
          if (typeof r.rule_source !== 'string' || !count(entry[1]) || !count(entry[2]) || entry[2] > entry[1])
            throw new Error('a row without a rule_source or with counts out of range');
          rules.push(entry);
        }
        out.set(file, { rules });
      } catch (error) {
        out.set(file, { error: reason(error) });
      }
    }
  } finally {
    engine.close();
  }
  return out;
}
