/**
 * One repository's partition of the organisation folder (docs/org.md "Schema"):
 * `repo=<name>/records.parquet`, `threads.parquet`, `rules.parquet` and the stamp
 * `_revtrail.json` (a leading `_` is a file Spark, Trino and DuckDB's Hive readers skip). The
 * rows are the ones `revtrail mine` and `revtrail stats` compute; DuckDB turns them into Parquet
 * (`COPY … TO … (FORMAT parquet)`) from a JSONL scratch file, with every column typed.
 */
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempBeside, writeFileAtomic } from '../core/fs/atomic.js';
import { jsonForTerminal } from '../core/output.js';
import type { CommitResult } from '../mine/types.js';
import { outputRecord } from '../mine/record.js';
import { buildThreads } from '../gate/threads.js';
import type { Thread } from '../gate/types.js';
import type { RuleTally } from '../record/rule-tally.js';
import { literal, type Engine } from '../core/duckdb.js';
import { COMMIT_TIME, SCHEMA_VERSION, TABLES, partitionName, type TableName } from './schema.js';
import type { RepoSource } from './repos.js';

export const STAMP_FILE = '_revtrail.json';

/** What a partition was made from: equal stamps, equal files (so an unchanged repository is not rewritten). */
export interface Stamp {
  schema_version: number;
  repository: string;
  remote: string | null;
  /** A hash of HEAD and every branch and remote-tracking ref (./repos.ts refsNow): the mainline is among them. */
  refs: string;
  /** config.mainline, when the repository's config names one. */
  mainline: string | null;
  redact: boolean;
  commits: number;
  records: number;
}

export type StampKey = Omit<Stamp, 'commits' | 'records'>;

export const sameStamp = (a: Stamp | null, b: StampKey) =>
  a !== null &&
  a.schema_version === b.schema_version &&
  a.repository === b.repository &&
  a.remote === b.remote &&
  a.refs === b.refs &&
  a.mainline === b.mainline &&
  a.redact === b.redact;

export async function readStamp(dir: string, repository: string): Promise<Stamp | null> {
  try {
    return JSON.parse(await readFile(join(dir, partitionName(repository), STAMP_FILE), 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

/** A thread as a `threads` row (./schema.ts THREAD_COLUMNS). */
export function threadRow(t: Thread): Record<string, string | number | null> {
  const first = t.occurrences[0]!;
  const last = t.occurrences[t.occurrences.length - 1]!;
  let answered: string | null = null;
  for (let i = t.occurrences.length - 1; i >= 0 && answered === null; i--)
    if (t.occurrences[i]!.verdict !== 'OPEN') answered = t.occurrences[i]!.commit;
  const people = new Set(t.occurrences.map((o) => (/<([^<>]*)>\s*$/.exec(o.author)?.[1] ?? o.author).toLowerCase()));
  return {
    id: t.id,
    rule_source: t.rule_source,
    state: t.state,
    file: t.file,
    line: t.line,
    issue: t.issue,
    category: t.category,
    severity: last.severity,
    occurrences: t.occurrences.length,
    first_commit: first.commit,
    first_date: first.date,
    last_commit: last.commit,
    last_date: last.date,
    verdict_commit: answered,
    authors: people.size,
  };
}

/** A rule's tally as a `rules` row (./schema.ts RULE_COLUMNS). */
export function ruleRow(r: RuleTally): Record<string, string | number | boolean | null> {
  return {
    rule_source: r.rule_source,
    findings: r.findings,
    open_findings: r.counts.OPEN,
    accepted: r.counts.ACCEPT,
    rejected: r.counts.REJECT,
    deferred: r.counts.DEFER,
    acknowledged: r.counts.ACKNOWLEDGE,
    human_verdicts: r.verdicts,
    reject_rate: r.rate,
    exempt: r.exempt,
    demoted: r.demoted,
  };
}

export interface PartitionInput {
  source: Pick<RepoSource, 'name' | 'remote'>;
  /** The counted history, newest commit first (gate/history.ts). */
  commits: readonly CommitResult[];
  tallies: readonly RuleTally[];
  redact: boolean;
  stamp: StampKey;
}

/**
 * A partition's rows written to scratch JSONL files, not yet turned into Parquet: the first half
 * of writePartition. An org run stages every repository before it loads DuckDB, so that its git
 * processes start from a small process (docs/org.md "Bench").
 */
export interface StagedPartition {
  part: string;
  scratch: string;
  source: Pick<RepoSource, 'name' | 'remote'>;
  stamp: Stamp;
}

export async function stagePartition(dir: string, input: PartitionInput): Promise<StagedPartition> {
  const part = join(dir, partitionName(input.source.name));
  const scratch = await mkdtemp(join(tmpdir(), 'revtrail-org-'));
  try {
    let records = 0;
    let text = '';
    for (const c of input.commits)
      for (const f of c.findings) {
        text += jsonForTerminal(JSON.stringify(outputRecord(f, input.redact))) + '\n';
        records += 1;
      }
    const rows: Record<TableName, string> = {
      records: text,
      threads: buildThreads(input.commits)
        .map((t) => JSON.stringify(threadRow(t)) + '\n')
        .join(''),
      rules: input.tallies.map((r) => JSON.stringify(ruleRow(r)) + '\n').join(''),
    };
    for (const table of Object.keys(TABLES) as TableName[])
      await writeFileAtomic(join(scratch, `${table}.jsonl`), rows[table], { durable: false });
    return { part, scratch, source: input.source, stamp: { ...input.stamp, commits: input.commits.length, records } };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The staged files turned into the repository's three Parquet files and then its stamp; the
 * scratch goes either way. Each file is written beside its target and renamed over it, so a
 * reader sees a whole old file or a whole new one; a run killed between the renames leaves the
 * old stamp, and the next run writes the partition again.
 */
export async function finishPartition(engine: Engine, staged: StagedPartition): Promise<Stamp> {
  try {
    await mkdir(staged.part, { recursive: true });
    for (const table of Object.keys(TABLES) as TableName[]) {
      const target = join(staged.part, `${table}.parquet`);
      const temp = tempBeside(target);
      await engine.run(copyStatement(table, join(staged.scratch, `${table}.jsonl`), temp, staged.source));
      // DuckDB wrote the temp name (core/fs/atomic.ts knows it); the rename is the atomic step.
      await rename(temp, target);
    }
    await writeFileAtomic(join(staged.part, STAMP_FILE), JSON.stringify(staged.stamp, null, 2) + '\n');
    return staged.stamp;
  } finally {
    await discardStaged(staged);
  }
}

export function discardStaged(staged: StagedPartition): Promise<void> {
  return rm(staged.scratch, { recursive: true, force: true });
}

/** One repository's partition, staged and finished at once (`revtrail mine --format parquet`, tests). */
export async function writePartition(engine: Engine, dir: string, input: PartitionInput): Promise<Stamp> {
  return finishPartition(engine, await stagePartition(dir, input));
}

/** The COPY of one table: its typed columns from the JSONL, the source columns, the schema version in the file's metadata. */
export function copyStatement(
  table: TableName,
  jsonl: string,
  target: string,
  source: Pick<RepoSource, 'name' | 'remote'>,
): string {
  const columns = TABLES[table];
  const struct = columns.map(([n, t]) => `"${n}": '${t}'`).join(', ');
  const select = [
    ...columns.map(([n]) => `"${n}"`),
    ...(table === 'records' ? [`CAST("date" AS ${COMMIT_TIME[1]}) AS "${COMMIT_TIME[0]}"`] : []),
    `${literal(source.name)} AS repository`,
    `CAST(${literal(source.remote)} AS VARCHAR) AS remote`,
    `CAST(${SCHEMA_VERSION} AS INTEGER) AS schema_version`,
  ];
  return (
    `COPY (SELECT ${select.join(', ')} FROM read_json(${literal(jsonl)}, format = 'newline_delimited', ` +
    `columns = {${struct}})) TO ${literal(target)} (FORMAT parquet, COMPRESSION zstd, ` +
    `KV_METADATA {revtrail_schema_version: '${SCHEMA_VERSION}', revtrail_table: '${table}'})`
  );
}
