/**
 * The organisation files' schema (docs/org.md "Schema"): three Parquet tables per repository,
 * `repo=<name>/{records,threads,rules}.parquet`, each column typed here once. The types are
 * DuckDB's names for plain Parquet types that Spark, Trino and DuckDB read alike. A change that
 * renames, removes or retypes a column raises SCHEMA_VERSION (a `schema_version` column and the
 * files' key-value metadata carry it).
 */

import { INVESTIGATE_ABOVE } from '../stats/compute.js';
import { DEFAULT_CALIBRATION } from '../record/rule-tally.js';

export const SCHEMA_VERSION = 1;

export type Column = readonly [name: string, type: string];

/** The JSONL record's fields (docs/mining.md), in its order, then where it comes from and when. */
export const RECORD_COLUMNS: readonly Column[] = [
  ['commit', 'VARCHAR'],
  ['date', 'VARCHAR'],
  ['author', 'VARCHAR'],
  ['id', 'VARCHAR'],
  ['file', 'VARCHAR'],
  ['line', 'VARCHAR'],
  ['rule_source', 'VARCHAR'],
  ['category', 'VARCHAR'],
  ['severity', 'VARCHAR'],
  ['issue', 'VARCHAR'],
  ['verdict', 'VARCHAR'],
  ['rationale', 'VARCHAR'],
  ['placement', 'VARCHAR'],
  ['grammar', 'VARCHAR'],
  ['raw_severity', 'VARCHAR'],
];

/** One finding thread (docs/gate.md "Threads count findings"). */
export const THREAD_COLUMNS: readonly Column[] = [
  ['id', 'VARCHAR'],
  ['rule_source', 'VARCHAR'],
  ['state', 'VARCHAR'],
  ['file', 'VARCHAR'],
  ['line', 'VARCHAR'],
  ['issue', 'VARCHAR'],
  ['category', 'VARCHAR'],
  ['severity', 'VARCHAR'],
  ['occurrences', 'INTEGER'],
  ['first_commit', 'VARCHAR'],
  ['first_date', 'VARCHAR'],
  ['last_commit', 'VARCHAR'],
  ['last_date', 'VARCHAR'],
  ['verdict_commit', 'VARCHAR'],
  ['authors', 'INTEGER'],
];

/** One rule's tally in one repository (lib/record/rule-tally.ts, the numbers `revtrail stats` shows). */
export const RULE_COLUMNS: readonly Column[] = [
  ['rule_source', 'VARCHAR'],
  ['findings', 'INTEGER'],
  ['open_findings', 'INTEGER'],
  ['accepted', 'INTEGER'],
  ['rejected', 'INTEGER'],
  ['deferred', 'INTEGER'],
  ['acknowledged', 'INTEGER'],
  ['human_verdicts', 'INTEGER'],
  ['reject_rate', 'DOUBLE'],
  ['exempt', 'BOOLEAN'],
  ['demoted', 'BOOLEAN'],
];

/** Columns every table adds after its own: the repository, its remote as configured, and the schema. */
export const SOURCE_COLUMNS: readonly Column[] = [
  ['repository', 'VARCHAR'],
  ['remote', 'VARCHAR'],
  ['schema_version', 'INTEGER'],
];

/** A table's columns as its files hold them: its own, the records' commit time, then the source columns. */
export function columnsOf(table: TableName): Column[] {
  return [...TABLES[table], ...(table === 'records' ? [COMMIT_TIME] : []), ...SOURCE_COLUMNS];
}

/** The committer date as a timestamp (UTC in the file; `date` keeps the committer's offset as text). */
export const COMMIT_TIME: Column = ['commit_time', 'TIMESTAMPTZ'];

export const TABLES = {
  records: RECORD_COLUMNS,
  threads: THREAD_COLUMNS,
  rules: RULE_COLUMNS,
} as const;
export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** Where a repository's files sit in the folder: Hive-style, so every engine sees a `repo` column. */
export const partitionName = (repository: string) => `repo=${repository}`;

/**
 * The shared thresholds of `revtrail stats` (lib/stats/compute.ts): noisy above 30% rejected,
 * judged only from calibration.minVerdicts (default 5) answered findings. Written into the views
 * as numbers, so the same text runs on every engine.
 */
export const NOISY_ABOVE = INVESTIGATE_ABOVE;
export const MIN_VERDICTS = DEFAULT_CALIBRATION.minVerdicts;

/**
 * The views, as SQL that DuckDB and Spark SQL both run unchanged (docs/org.md "Views"; the test
 * test/org/views.test.ts checks that the page holds exactly this text). They read tables named
 * `records`, `threads` and `rules`, however each engine maps them onto the files.
 */
export const VIEWS_SQL = `CREATE OR REPLACE TEMPORARY VIEW rule_repository AS
SELECT
  rule_source,
  repository,
  findings,
  open_findings,
  human_verdicts,
  rejected,
  reject_rate,
  CASE WHEN human_verdicts >= ${MIN_VERDICTS} AND reject_rate > ${NOISY_ABOVE} THEN TRUE ELSE FALSE END AS noisy
FROM rules;

CREATE OR REPLACE TEMPORARY VIEW rule_org AS
SELECT
  rule_source,
  COUNT(*) AS repositories,
  SUM(findings) AS findings,
  SUM(open_findings) AS open_findings,
  SUM(accepted) AS accepted,
  SUM(rejected) AS rejected,
  SUM(deferred) AS deferred,
  SUM(acknowledged) AS acknowledged,
  SUM(human_verdicts) AS human_verdicts,
  CASE WHEN SUM(human_verdicts) > 0 THEN CAST(SUM(rejected) AS DOUBLE) / SUM(human_verdicts) END AS reject_rate,
  SUM(CASE WHEN human_verdicts >= ${MIN_VERDICTS} AND reject_rate > ${NOISY_ABOVE} THEN 1 ELSE 0 END) AS noisy_repositories
FROM rules
GROUP BY rule_source;

CREATE OR REPLACE TEMPORARY VIEW finding_repositories AS
SELECT
  rule_source,
  COUNT(DISTINCT repository) AS repositories,
  COUNT(*) AS findings,
  SUM(CASE WHEN state = 'ACCEPT' THEN 1 ELSE 0 END) AS accepted
FROM threads
GROUP BY rule_source;
`;

/** VIEWS_SQL one statement at a time (engines that take one per call). */
export const VIEW_STATEMENTS = VIEWS_SQL.split(/;\s*\n/)
  .map((s) => s.trim().replace(/;$/, ''))
  .filter(Boolean);
