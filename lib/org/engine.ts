/**
 * The org folder in the embedded database (lib/core/duckdb.ts; docs/org.md "Engine"): the
 * folder's files become the views `records`, `threads` and `rules`, and the shared views
 * (./schema.ts) go on top.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../core/errors.js';
import { literal, type Engine } from '../core/duckdb.js';
import { TABLE_NAMES, VIEW_STATEMENTS, columnsOf, type TableName } from './schema.js';
import { orgMessages as m } from '../messages/org.js';

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
