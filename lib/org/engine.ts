/**
 * Embedded DuckDB (the official `@duckdb/node-api`, in-process, no server; docs/org.md "Engine").
 * Loaded only here, by the org commands and `mine --format parquet`: its native module costs
 * tens of milliseconds to load, which a hook pays only when pooled calibration finds a pooled
 * file it has not read yet (lib/review/findings/pooled.ts). The folder's files become the views
 * `records`, `threads` and `rules`, and the shared views (./schema.ts) go on top.
 */
import { createRequire } from 'node:module';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../core/errors.js';
import { TABLE_NAMES, VIEW_STATEMENTS, columnsOf, type TableName } from './schema.js';
import { orgMessages as m } from '../messages/org.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Row = Record<string, Json>;

export interface Engine {
  run(sql: string): Promise<void>;
  /** The rows of a query, as JSON values (integers as numbers, timestamps as ISO text). */
  rows(sql: string): Promise<{ columns: string[]; rows: Row[] }>;
  close(): void;
}

const WIDE_INTEGERS = new Set(['BIGINT', 'UBIGINT', 'HUGEINT', 'UHUGEINT']);

/** A SQL string literal. */
export const literal = (text: string | null) => (text === null ? 'NULL' : `'${text.replace(/'/g, "''")}'`);

/**
 * One in-memory database. DuckDB takes most of the machine's memory and every core by default;
 * the org run keeps it to a bounded share (docs/org.md "Bench": the run's peak is measured).
 */
export async function openEngine(options: { threads?: number; memoryLimit?: string } = {}): Promise<Engine> {
  // require(), not import(): the package is CommonJS, and the ES module loader's scan of its
  // files for exports took 450-600 ms of a 700-800 ms load here (require: 200-280 ms).
  const { DuckDBInstance } = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(options.threads ?? 2),
    memory_limit: options.memoryLimit ?? '128MB',
    // Files are named by the caller; nothing is fetched (extensions ship inside the package).
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  return {
    async run(sql) {
      await connection.run(sql);
    },
    async rows(sql) {
      const reader = await connection.runAndReadAll(sql);
      const columns = reader.columnNames();
      const rows = reader.getRowObjectsJson() as Row[];
      // 64-bit and wider integers come as text (a double would round them): a count is a number
      // whenever it fits one exactly, as SQL users read it.
      const wide = columns.filter((_, i) => WIDE_INTEGERS.has(reader.columnTypes()[i]!.toString()));
      for (const r of rows)
        for (const c of wide) {
          const v = r[c];
          if (typeof v === 'string' && Number.isSafeInteger(Number(v))) r[c] = Number(v);
        }
      return { columns, rows };
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The partitions of a folder that hold every table (a partition half written by a killed run has no stamp yet and is skipped). */
export async function partitionsOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') throw new InputError(m.noFiles(dir), { remedy: m.noFilesRemedy });
    throw new InputError(m.dirUnreadable(dir, e.message));
  });
  const found: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !e.name.startsWith('repo=')) continue;
    const part = join(dir, e.name);
    const complete = await Promise.all(
      TABLE_NAMES.map((t) =>
        stat(join(part, `${t}.parquet`)).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (complete.every(Boolean)) found.push(part);
  }
  return found.sort();
}

/** An empty table of the right columns, for a folder with no partition yet. */
function emptyTable(table: TableName): string {
  const cols = columnsOf(table);
  return `SELECT ${cols.map(([n, t]) => `CAST(NULL AS ${t}) AS "${n}"`).join(', ')} WHERE FALSE`;
}

/**
 * The three tables over the folder's partitions, then the shared views. The `repository` column is
 * in the files themselves, so the path's `repo=` is not read as a column: every engine sees the
 * same columns (docs/org.md "Views").
 */
export async function attachFolder(engine: Engine, dir: string): Promise<string[]> {
  const parts = await partitionsOf(dir);
  for (const table of TABLE_NAMES) {
    const source = parts.length
      ? `SELECT * FROM read_parquet([${parts.map((p) => literal(join(p, `${table}.parquet`))).join(', ')}], union_by_name = true, hive_partitioning = false)`
      : emptyTable(table);
    await engine.run(`CREATE OR REPLACE TEMPORARY VIEW ${table} AS ${source}`);
  }
  for (const statement of VIEW_STATEMENTS) await engine.run(statement);
  return parts;
}
