/**
 * One `revtrail mine` run (docs/mining.md): replays the cache when it holds exactly this run,
 * else streams history through the record writer; the output file, if any, appears whole or not
 * at all. The CLI only parses arguments and prints what this returns.
 */
import { openAtomicStream, type AtomicStream } from '../core/fs/atomic.js';
import { InputError } from '../core/errors.js';
import { mineBatches, cachedRun, type MineOptions } from './index.js';
import { recordWriter, streamSink, copyInto, type MineFormat, type Sink } from './output.js';
import { KEPT_NOTICES, type Notice } from './cache.js';
import { ownCopy } from './record.js';
import { mineMessages as m } from '../messages/mine.js';
import { setV8Flags } from '../core/node-module.js';

export interface MineRunOptions {
  cwd: string;
  commonDir: string;
  revs: string[];
  all: boolean;
  cache: boolean;
  format: MineFormat;
  includeOpen: boolean;
  redact: boolean;
  /** Absolute output file; stdout when absent. */
  out?: string;
  stdout: NodeJS.WritableStream;
  onProgress?: (commits: number, records: number) => void;
  onPlan?: (plan: string, detail?: string) => void;
}

export interface MineRunResult {
  /** The first KEPT_NOTICES warnings and rejected lines. */
  notices: Notice[];
  /** How many there were in all. */
  noticeCount: number;
}

export async function runMine(options: MineRunOptions): Promise<MineRunResult> {
  let file: AtomicStream | null = null;
  if (options.out) {
    const out = options.out;
    file = await openAtomicStream(out).catch((e: Error) => {
      throw new InputError(m.outUnwritable(out, e.message), { remedy: m.outUnwritableRemedy });
    });
  }
  const sink: Sink = file ? streamSink(file.stream, { close: true }) : streamSink(options.stdout);
  const notices: Notice[] = [];
  let noticeCount = 0;
  const note = (n: Notice) => {
    if (notices.length < KEPT_NOTICES) notices.push(n);
    noticeCount += 1;
  };
  try {
    // The cache holds exactly this run and the default output is wanted: copy it.
    // (Its signature, asked of git, serves the run below when the cache does not hold this one.)
    const { hit: cached, signature } =
      options.format === 'jsonl' && !options.redact ? await cachedRun(options) : { hit: null, signature: undefined };
    if (cached) {
      try {
        options.onPlan?.('replay', `${cached.meta.commits} commits, copied`);
        await copyInto(sink, cached.file);
      } finally {
        await cached.file.close().catch(() => {});
      }
      await sink.end();
      cached.meta.notices.forEach(note);
      noticeCount = cached.meta.noticeCount;
    } else {
      // CSV to a terminal escapes control characters; a file or a pipe gets the exact data.
      const terminal = !file && Boolean((options.stdout as NodeJS.WriteStream).isTTY);
      const writer = recordWriter(sink, {
        format: options.format,
        includeOpen: options.includeOpen,
        redact: options.redact,
        terminal,
      });
      holdYoungGeneration();
      let commits = 0;
      let records = 0;
      let shown = 0;
      // Unredacted JSONL: the cached commits of an incremental run are copied out as they are.
      let counting = false;
      const cachedTail: MineOptions['cachedTail'] =
        options.format === 'jsonl' && !options.redact
          ? {
              start: (meta) => {
                commits += meta.commits;
                meta.notices.forEach(note);
                noticeCount += meta.noticeCount - meta.notices.length;
                // An entry written before it kept its records' count: its lines are counted.
                if (typeof meta.records === 'number') {
                  records += meta.records;
                  options.onProgress?.(commits, records);
                } else counting = true;
              },
              write: async (bytes) => {
                if (counting) records += countLines(bytes);
                await sink.writeBytes(bytes);
              },
            }
          : undefined;
      for await (const batch of mineBatches({ ...options, cachedTail, signature })) {
        for (const commit of batch) {
          commits += 1;
          records += commit.lines.length;
          const { warnings, rejected } = commit.notices();
          // Copies: a text cut from git's output keeps the whole read it came from alive.
          for (const w of warnings) note({ kind: 'warning', commit: ownCopy(w.commit), text: ownCopy(w.message) });
          for (const r of rejected) note({ kind: 'rejected', commit: ownCopy(r.commit), text: ownCopy(r.reason) });
          await writer.add(commit);
        }
        if (commits - shown >= 500) {
          shown = commits;
          options.onProgress?.(commits, records);
        }
      }
      await writer.finish();
    }
    await file?.commit();
  } catch (error) {
    await file?.abort();
    throw error;
  }
  return { notices, noticeCount };
}

/** How many lines (newlines) a piece of JSONL holds. */
function countLines(bytes: Buffer): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) n += 1;
  return n;
}

/**
 * Keeps V8's young generation at the size start-up left it: a streamed history holds nothing, but
 * V8 doubles the young generation whenever what survived its scavenges adds up to its size, and
 * over a long history that sum always gets there, up to two 16 MiB halves whose pages are all
 * touched (docs/mining.md "At history scale"). Only for the streamed run: nothing else runs after it.
 */
function holdYoungGeneration(): void {
  setV8Flags(['--semi-space-growth-factor=1']);
}
