/**
 * The embedded database (the official `@duckdb/node-api`, in-process, no server; docs/org.md
 * "Engine"), opened on demand. In the shared core because two stages read Parquet files with it:
 * the org commands (lib/org/) and pooled calibration (lib/review/findings/pooled.ts), which a
 * hook pays for only when it finds a pooled file it has not read yet. Its native module costs tens
 * of milliseconds to load, so nothing loads this module on a path that does not query.
 */
import { createRequire } from 'node:module';

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
