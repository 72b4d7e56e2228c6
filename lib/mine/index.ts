/**
 * Mining (docs/mining.md): Review-Finding occurrences from local history, one CommitResult per commit
 * that has any, in `git log` order (newest first), streamed. Uses the cache when allowed; the
 * output is the same either way.
 */
import { GitError } from '../core/git/errors.js';
import { InputError } from '../core/errors.js';
import { readCommitBatches } from './log.js';
import { MinedCommit, StringPool } from './record.js';
import type { FileHandle } from 'node:fs/promises';
import {
  MineCache,
  cacheDir,
  planIncremental,
  incrementalRevs,
  sameSignature,
  signatureOf,
  type CacheMeta,
  type CacheWriter,
  type Signature,
} from './cache.js';
import type { CommitResult, RawCommit } from './types.js';
import { mineMessages as m } from '../messages/mine.js';

export { MinedCommit } from './record.js';
export type { CommitResult, MinedFinding, RejectedRecord, MineWarning, Placement, Grammar } from './types.js';

export interface MineOptions {
  /** Any folder of the work tree (git runs here). */
  cwd: string;
  /** The git common dir: where the cache lives. */
  commonDir: string;
  /** Revision arguments as git log takes them; none means HEAD. */
  revs?: readonly string[];
  /** Every ref (`git log --all`). */
  all?: boolean;
  /** Use and refresh the cache (default true). */
  cache?: boolean;
  /**
   * The output lines of signatureQuestion(mineArgs(options)), when the caller knows them already
   * (signatureAnswerOf): the cache's signature then runs no git process.
   */
  signatureAnswer?: readonly string[];
  /**
   * Takes the cached commits of an incremental run as the bytes of their JSONL lines (the default
   * output, unredacted) instead of as records: after the new commits, `start` gets the cached
   * run's meta (its commits, records, first notices and their count), then `write` its bytes in
   * order. Without it they are read back into records. Why: docs/mining.md "At history scale".
   */
  cachedTail?: { start(meta: CacheMeta): void; write(bytes: Buffer): Promise<void> };
  /** The signature of this run, when the caller asked it already (cachedRun). */
  signature?: Signature;
  /** How the run was answered (for REVTRAIL_DEBUG and tests). */
  onPlan?: (plan: 'empty' | 'full' | 'replay' | 'incremental', detail?: string) => void;
}

export { mineArgs, cachedRunAnswered } from './replay.js';
import { mineArgs } from './replay.js';

export async function* mine(options: MineOptions): AsyncGenerator<MinedCommit> {
  for await (const batch of mineBatches(options)) yield* batch;
}

/**
 * mine() a batch at a time (as many commits as one read of git's output or of the cache
 * brings): history-sized callers pay one await per batch instead of one per commit. With a
 * pool, the records are made to be held (mineAll keeps a whole history).
 */
export async function* mineBatches(options: MineOptions, pool?: StringPool): AsyncGenerator<MinedCommit[]> {
  const { cwd, commonDir } = options;
  const args = mineArgs(options);
  const signature = options.signature ?? (await signatureOf(cwd, commonDir, args, options.signatureAnswer));
  // HEAD by default, and HEAD does not resolve: an empty repository or an unborn branch.
  if (!options.all && !options.revs?.length && signature.tips.length === 0) {
    options.onPlan?.('empty');
    return;
  }
  if (options.cache === false) {
    options.onPlan?.('full');
    yield* full(cwd, args, null, pool);
    return;
  }
  const cache = new MineCache(cacheDir(commonDir));
  const previous = await cache.lookup(args);
  if (previous && sameSignature(previous, signature)) {
    const replay = await cache.open(previous, pool);
    if (replay) {
      options.onPlan?.('replay', `${previous.commits} commits`);
      yield* replay;
      return;
    }
  }
  // Something will be parsed from here on: the parser's modules load while git answers.
  import('./parse.js').catch(() => {});
  if (previous) {
    // The new commits' log, if git's checks allow it, starts beside them (one git process's
    // start less to wait for); it is stopped when they do not.
    const revs = incrementalRevs(previous, signature);
    const early = revs ? startEarly(readCommitBatches(cwd, [], revs.join('\n') + '\n')) : null;
    const stdin = revs ? await planIncremental(cwd, previous, signature) : null;
    const tail = stdin && options.cachedTail ? await cache.openFile(previous) : null;
    const replay = stdin && !tail ? await cache.open(previous, pool) : null;
    if (!(stdin && (tail || replay))) await early?.stop();
    if (stdin && (tail || replay)) {
      options.onPlan?.('incremental', tail ? 'cached commits copied' : undefined);
      const writer = cache.writer(signature, previous);
      let finished = false;
      try {
        for await (const batch of parsed(early!.batches, pool)) {
          await writer.add(batch);
          yield batch;
        }
        if (tail) {
          // The cached lines are the output as it is: copied into the new entry and out, never parsed.
          writer.addNotices(previous);
          options.cachedTail!.start(previous);
          for (;;) {
            const bytes = Buffer.allocUnsafe(1 << 20);
            const { bytesRead } = await tail.read(bytes, 0, bytes.length, null);
            if (!bytesRead) break;
            const chunk = bytes.subarray(0, bytesRead);
            await writer.addBytes(chunk);
            await options.cachedTail!.write(chunk);
          }
        } else {
          for await (const batch of replay!) {
            await writer.add(batch);
            yield batch;
          }
        }
        finished = true;
      } finally {
        await replay?.return(undefined);
        await tail?.close().catch(() => {});
        if (finished) await writer.commit();
        else await writer.abort();
      }
      return;
    }
    await replay?.return(undefined);
    await tail?.close().catch(() => {});
  }
  options.onPlan?.('full');
  yield* full(cwd, args, cache.writer(signature, previous), pool);
}

async function* full(
  cwd: string,
  args: readonly string[],
  writer: CacheWriter | null,
  pool?: StringPool,
): AsyncGenerator<MinedCommit[]> {
  let finished = false;
  try {
    for await (const batch of parsed(readCommitBatches(cwd, args), pool)) {
      await writer?.add(batch);
      yield batch;
    }
    finished = true;
  } catch (error) {
    if (error instanceof GitError) {
      const said =
        error.stderr
          .trim()
          .split('\n')[0]
          ?.replace(/^fatal: /, '') || error.message;
      throw new InputError(m.badRevision(said), { remedy: m.badRevisionRemedy, cause: error });
    }
    throw error;
  } finally {
    if (writer) {
      if (finished) await writer.commit();
      else await writer.abort();
    }
  }
}

/**
 * A generator started now (its first step runs at once: git starts) and handed on from its first
 * step; `stop` ends it when it is not wanted after all.
 */
function startEarly<T>(gen: AsyncGenerator<T>): { batches: AsyncGenerator<T>; stop: () => Promise<void> } {
  const first = gen.next();
  first.catch(() => {}); // thrown to the reader, or not wanted
  return {
    batches: (async function* () {
      try {
        for (let step = await first; !step.done; step = await gen.next()) yield step.value;
      } finally {
        await gen.return(undefined);
      }
    })(),
    stop: async () => {
      await first.catch(() => {});
      await gen.return(undefined);
    },
  };
}

/**
 * Commits parsed and handed on this many at a time (a read of git's output brings about a
 * hundred): what one group makes is written and dropped before V8's next scavenge, instead of
 * living through two and being promoted to its old generation (docs/mining.md "At history scale").
 */
const PARSED_GROUP = 24;

/** Parses each batch of commits; skips commits the grep let through for nothing. */
async function* parsed(raws: AsyncIterable<RawCommit[]>, pool?: StringPool): AsyncGenerator<MinedCommit[]> {
  // Loaded only when something is parsed: a cached run needs neither csv-parse nor zod.
  const { parseCommits } = await import('./parse.js');
  for await (const raw of raws) {
    for (let at = 0; at < raw.length; at += PARSED_GROUP) {
      const batch: MinedCommit[] = [];
      for (const result of parseCommits(raw.length > PARSED_GROUP ? raw.slice(at, at + PARSED_GROUP) : raw)) {
        if (!result.findings.length && !result.rejected.length) continue;
        pool?.hold(result);
        batch.push(new MinedCommit(result.commit, { result }));
      }
      if (batch.length) yield batch;
      // Between groups, a turn of the event loop reads what git wrote meanwhile: otherwise the
      // pipe fills while a read is parsed and git waits, and the two take turns instead of
      // working side by side (docs/mining.md "At history scale").
      if (at + PARSED_GROUP < raw.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * When the cache holds exactly this run, its data file (already open: deleting the cache now
 * changes nothing) and its meta. Its bytes are the default output (unredacted JSONL), so the
 * CLI can copy them without reading a record.
 */
export async function cachedRun(
  options: MineOptions,
): Promise<{ hit: { file: FileHandle; meta: CacheMeta } | null; signature?: Signature }> {
  if (options.cache === false) return { hit: null };
  const args = mineArgs(options);
  const cache = new MineCache(cacheDir(options.commonDir));
  const [signature, meta] = await Promise.all([signatureOf(options.cwd, options.commonDir, args), cache.lookup(args)]);
  if (!meta || !sameSignature(meta, signature)) return { hit: null, signature };
  const file = await cache.openFile(meta);
  return { hit: file ? { file, meta } : null, signature };
}

/** The whole mined history in memory (candidates and statistics work on all of it). */
export async function mineAll(options: MineOptions): Promise<CommitResult[]> {
  const results: CommitResult[] = [];
  const pool = new StringPool();
  for await (const batch of mineBatches(options, pool)) for (const c of batch) results.push(c.result);
  return results;
}

export { cacheDir, type CacheMeta, type Notice } from './cache.js';
