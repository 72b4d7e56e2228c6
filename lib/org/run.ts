/**
 * The org use cases the CLI calls (docs/org.md): mine a list of repositories into the folder,
 * answer statistics or a query over the folder's files with embedded DuckDB. One engine serves
 * a whole run. The CLI only parses arguments and prints what these return.
 */
import { basename } from 'node:path';
import { InputError } from '../core/errors.js';
import { attachFolder } from './engine.js';
import { openEngine, type Engine, type Row } from '../core/duckdb.js';
import { mineRepositories, type OrgMineOptions, type RepoOutcome } from './mine.js';
import { orgStats, type OrgStats } from './stats.js';
import { orgMessages as m } from '../messages/org.js';

export interface OrgRunOptions extends Omit<OrgMineOptions, 'engine'> {}

/** One engine for a whole run, opened on first use (a run that only mines unchanged repositories never loads it). */
async function withEngine<T>(work: (engine: () => Promise<Engine>) => Promise<T>): Promise<T> {
  let opened: Promise<Engine> | null = null;
  try {
    return await work(() => (opened ??= openEngine()));
  } finally {
    if (opened) (await (opened as Promise<Engine>).catch(() => null))?.close();
  }
}

/** Mines the entries (none: nothing) and then answers over the folder. */
async function refreshed(
  engine: () => Promise<Engine>,
  options: OrgRunOptions,
): Promise<{ outcomes: RepoOutcome[]; repositories: string[] }> {
  const outcomes = options.entries.length ? await mineRepositories({ ...options, engine }) : [];
  const parts = await attachFolder(await engine(), options.dir);
  return { outcomes, repositories: parts.map((p) => basename(p).slice('repo='.length)) };
}

export async function runOrgMine(options: OrgRunOptions): Promise<RepoOutcome[]> {
  return withEngine((engine) => mineRepositories({ ...options, engine }));
}

export async function runOrgStats(options: OrgRunOptions): Promise<{ outcomes: RepoOutcome[]; stats: OrgStats }> {
  return withEngine(async (engine) => {
    const { outcomes, repositories } = await refreshed(engine, options);
    return { outcomes, stats: await orgStats(await engine(), repositories) };
  });
}

export async function runOrgQuery(
  options: OrgRunOptions & { sql: string },
): Promise<{ outcomes: RepoOutcome[]; columns: string[]; rows: Row[] }> {
  return withEngine(async (engine) => {
    const { outcomes } = await refreshed(engine, options);
    try {
      return { outcomes, ...(await (await engine()).rows(options.sql)) };
    } catch (error) {
      throw new InputError(m.querySql((error as Error).message), { remedy: m.querySqlRemedy });
    }
  });
}
