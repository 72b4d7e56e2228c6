/**
 * Mining many repositories into one folder (docs/org.md "Mining"): each through its own
 * per-repository cache (lib/mine/cache.ts), at most `jobs` at once (the number of cores by
 * default), each written as its partition. A repository whose HEAD and mainline are where its
 * stamp says is not read at all; one that cannot be read is named and skipped, and the others
 * still run.
 */
import { availableParallelism } from 'node:os';
import { isRevtrailError } from '../core/errors.js';
import { createHash } from 'node:crypto';
import { configCacheFile } from '../core/state.js';
import { loadConfig, parseConfig } from '../config/load.js';
import { loadHistory } from '../gate/history.js';
import { ruleTallies } from '../gate/threads.js';
import { securityExempt } from '../record/rule-tally.js';
import { openEngine, type Engine } from '../core/duckdb.js';
import {
  discardStaged,
  finishPartition,
  readStamp,
  sameStamp,
  stagePartition,
  type StagedPartition,
  type StampKey,
} from './partition.js';
import { knownRefs, locate, refsText, type RepoEntry } from './repos.js';
import { SCHEMA_VERSION, TABLE_NAMES, partitionName } from './schema.js';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

export type RepoOutcome =
  | { name: string; path: string; state: 'mined' | 'unchanged'; commits: number; records: number }
  | { name: string; path: string; state: 'skipped'; problem: string };

export interface OrgMineOptions {
  /** The folder of partitions. */
  dir: string;
  entries: readonly RepoEntry[];
  /** At most this many repositories at once (default: the number of cores). */
  jobs?: number;
  redact?: boolean;
  /** Rules calibration never demotes (the built-in credential rules: the CLI passes the review's registry). */
  exempt?: (ruleSource: string) => boolean;
  /** Use the per-repository mining cache (default true). */
  cache?: boolean;
  /** The caller's engine, opened on first use (the org commands answer with the same one); else one of its own. */
  engine?: () => Promise<Engine>;
  /** After each repository, in the order they finish. */
  onRepo?: (outcome: RepoOutcome, done: number, total: number) => void;
}

export const defaultJobs = () => Math.max(1, availableParallelism());

/**
 * Every entry's outcome, in the entries' order. Two steps: every repository's git work first,
 * its rows staged in scratch files, then DuckDB loaded once to turn them into Parquet. A git
 * process starts from a process of Node's size, not one with DuckDB in it (a start costs about
 * twice as much from there: docs/org.md "Bench"), and a run where nothing changed never loads
 * DuckDB at all.
 */
export async function mineRepositories(options: OrgMineOptions): Promise<RepoOutcome[]> {
  const outcomes: RepoOutcome[] = new Array(options.entries.length);
  const staged: Array<{ i: number; staged: StagedPartition }> = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < options.entries.length) {
      const i = next++;
      const entry = options.entries[i]!;
      const mined = await mineOne(entry, options).catch((error: unknown): { outcome: RepoOutcome } => ({
        outcome: { name: entry.name, path: entry.path, state: 'skipped', problem: problemOf(error) },
      }));
      outcomes[i] = mined.outcome;
      if ('staged' in mined) staged.push({ i, staged: mined.staged });
      done += 1;
      options.onRepo?.(outcomes[i]!, done, options.entries.length);
    }
  };
  let owned: Engine | null = null;
  try {
    const jobs = Math.max(1, Math.min(options.jobs ?? defaultJobs(), options.entries.length));
    await Promise.all(Array.from({ length: jobs }, worker));
    if (staged.length) {
      const engine = options.engine ? await options.engine() : (owned = await openEngine());
      for (const { i, staged: s } of staged.splice(0).sort((a, b) => a.i - b.i)) {
        await finishPartition(engine, s).catch((error: unknown) => {
          const { name, path } = outcomes[i]!;
          outcomes[i] = { name, path, state: 'skipped', problem: problemOf(error) };
        });
      }
    }
  } finally {
    // Whatever was staged and not finished (a failure above) leaves no scratch behind.
    await Promise.all(staged.map((s) => discardStaged(s.staged)));
    owned?.close();
  }
  return outcomes;
}

/** A skipped repository's reason: our own words for what we know, git's first line for the rest. */
function problemOf(error: unknown): string {
  if (isRevtrailError(error)) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!;
}

async function mineOne(
  entry: RepoEntry,
  options: OrgMineOptions,
): Promise<{ outcome: RepoOutcome } | { outcome: RepoOutcome; staged: StagedPartition }> {
  const source = await locate(entry);
  // A work tree's own config says its mainline and calibration; a bare clone has none (the
  // defaults), and a config that cannot be used leaves the defaults, as in a review.
  const { config } = await loadConfig(source.top, { cacheFile: configCacheFile(source.commonDir) }).catch(async () => ({
    config: await parseConfig({}, null),
  }));
  const refs = refsText(source.refs);
  const redact = options.redact === true || config.privacy.redactAuthors;
  const stamp: StampKey = {
    schema_version: SCHEMA_VERSION,
    repository: source.name,
    remote: source.remote,
    refs: createHash('sha256').update(refs).digest('hex'),
    mainline: config.mainline ?? null,
    redact,
  };
  const before = await readStamp(options.dir, source.name);
  if (before && sameStamp(before, stamp) && (await complete(options.dir, source.name)))
    return {
      outcome: {
        name: source.name,
        path: entry.path,
        state: 'unchanged',
        commits: before.commits,
        records: before.records,
      },
    };
  // The listing locate() made serves the mainline, HEAD and the mining cache's signature: only `git log` runs here.
  const history = await loadHistory({
    cwd: source.top,
    commonDir: source.commonDir,
    mainline: config.mainline,
    cache: options.cache,
    known: knownRefs(source.refs),
  });
  const security = securityExempt(
    history.commits.flatMap((c) => c.findings),
    config.calibration.security,
  );
  const exempt = (s: string) => (options.exempt?.(s) ?? false) || security(s);
  const tallies = ruleTallies(history.commits, { ...config.calibration, exempt });
  const staged = await stagePartition(options.dir, { source, commits: history.commits, tallies, redact, stamp });
  const { commits, records } = staged.stamp;
  return { outcome: { name: source.name, path: entry.path, state: 'mined', commits, records }, staged };
}

/** Whether the partition still holds every table (someone may have deleted one). */
async function complete(dir: string, name: string): Promise<boolean> {
  const part = join(dir, partitionName(name));
  const found = await Promise.all(
    TABLE_NAMES.map((t) =>
      stat(join(part, `${t}.parquet`)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.every(Boolean);
}
