/**
 * The process that feeds git's output to our parsers. Hot paths (hooks, mining) use this
 * directly: spawning git costs a few milliseconds, loading a wrapper library costs more.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { GitError, GitNotFoundError } from './errors.js';

export interface GitOptions {
  cwd: string;
  /**
   * Written to git's stdin. A promise: git starts now and reads it once it is known (a process
   * started ahead of its question: commands.ts catFileAhead); a rejected one is no input.
   */
  input?: string | Buffer | Promise<string | Buffer>;
  env?: NodeJS.ProcessEnv;
  /** Exit codes that are answers, not failures (for example 1 from `git diff --quiet`). */
  okCodes?: readonly number[];
  /** Killed (SIGKILL) after this long and reported as a GitError: for a git that can spin (interpret-trailers). */
  timeoutMs?: number;
  /**
   * Reads of stdout (up to 64 KiB each) held before git is paused, for gitChunks (default 16):
   * more lets git run ahead of a reader that starts late (docs/hooks.md "Merges in the
   * credential pass").
   */
  readAhead?: number;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  status: number;
}

// Output we parse must not depend on the user's locale, pager or colour settings. Replace
// objects are off: git pushes and commits the original objects, so a `git replace` must not
// show revtrail other diffs, commits or trailers than those (docs/hooks.md "Push").
const FIXED_ENV = {
  LC_ALL: 'C',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
};

/** Exit 0, or a code the caller takes as an answer (`okCodes`). */
function accepted(code: number | null, options: GitOptions): boolean {
  return code === 0 || (code !== null && (options.okCodes?.includes(code) ?? false));
}

/** A git process with the fixed environment; for a caller that keeps it open (./versions.ts). */
export function spawnGit(args: readonly string[], options: GitOptions): ReturnType<typeof spawn> {
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, ...FIXED_ENV },
    // No input: stdin is /dev/null, one pipe and stream fewer for each of the hook's git calls.
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  };
  const child = spawn('git', args as string[], spawnOptions);
  if (child.stdin) {
    const stdin = child.stdin;
    stdin.on('error', () => {}); // git may exit before reading all input
    if (options.input instanceof Promise)
      options.input.then(
        (input) => stdin.end(input),
        () => stdin.end(),
      );
    else stdin.end(options.input);
  }
  return child;
}

/** Runs git to completion and returns its output; throws GitError on a failing exit code. */
export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await gitBytes(args, options);
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, status: result.status };
}

/** git with its stdout undecoded: for bytes that must survive as they are (a message in another encoding, blobs). */
export function gitBytes(
  args: readonly string[],
  options: GitOptions,
): Promise<{ stdout: Buffer; stderr: string; status: number }> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, options);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? new GitNotFoundError() : e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), status: code ?? -1 };
      if (accepted(code, options)) resolve(result);
      else reject(new GitError(args, code, result.stderr || (signal ? `killed by ${signal}` : '')));
    });
  });
}

/** Convenience: stdout of a git command. */
export async function gitOut(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).stdout;
}

/**
 * Streams git's stdout split on `separator` (a NUL by default), so that history of any
 * length is parsed as it arrives and never held whole in memory.
 */
export async function* gitRecords(
  args: readonly string[],
  options: GitOptions & { separator?: string },
): AsyncGenerator<string> {
  for await (const batch of gitRecordBatches(args, options)) yield* batch;
}

/**
 * gitRecords a read at a time: every record completed by one chunk of output, in order. For
 * history-sized output, where one await per record costs more than the parsing.
 */
export async function* gitRecordBatches(
  args: readonly string[],
  options: GitOptions & { separator?: string },
): AsyncGenerator<string[]> {
  const separator = options.separator ?? '\0';
  // A character split across two reads is joined by the decoder, as setEncoding would.
  const decoder = new StringDecoder('utf8');
  // The unfinished record's pieces: a record longer than many reads is joined once, not
  // copied again on every read.
  let parts: string[] = [];
  for await (const bytes of gitChunks(args, options)) {
    const chunk = decoder.write(bytes);
    // A separator of several characters may straddle two reads: look from the last record's end.
    const piece = separator.length > 1 && parts.length ? parts.splice(0).join('') + chunk : chunk;
    let at = piece.indexOf(separator);
    if (at === -1) {
      if (piece) parts.push(piece);
      continue;
    }
    const batch = [parts.length ? parts.join('') + piece.slice(0, at) : piece.slice(0, at)];
    parts = [];
    let start = at + separator.length;
    while ((at = piece.indexOf(separator, start)) !== -1) {
      batch.push(piece.slice(start, at));
      start = at + separator.length;
    }
    if (start < piece.length) parts.push(piece.slice(start));
    yield batch;
  }
  const rest = parts.join('') + decoder.end();
  if (rest) yield [rest];
}

/**
 * git's stdout as it arrives, in raw pieces: for callers that look at bytes before decoding
 * any (the pre-push credential screen reads tens of megabytes and decodes almost none), and
 * under gitRecordBatches. A failing exit code throws once the output has been read.
 *
 * Read through 'data' events and a short queue, not the stream's async iterator: that iterator
 * loads Node's stream operators, compose and pipeline modules on first use, milliseconds on
 * every commit's staged diff (docs/hooks.md "Start-up"). git is paused while the queue is full.
 */
export async function* gitChunks(args: readonly string[], options: GitOptions): AsyncGenerator<Buffer> {
  const child = spawnGit(args, options);
  const stdout = child.stdout!;
  const err: Buffer[] = [];
  child.stderr!.on('data', (b: Buffer) => err.push(b));
  const queue: Buffer[] = [];
  let ended = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const woken = wake;
    wake = null;
    woken?.();
  };
  const held = options.readAhead ?? QUEUED_READS;
  stdout.on('data', (b: Buffer) => {
    queue.push(b);
    if (queue.length >= held) stdout.pause();
    notify();
  });
  const end = () => {
    ended = true;
    notify();
  };
  stdout.on('end', end);
  stdout.on('close', end);
  stdout.on('error', (e: Error) => {
    failure = e;
    notify();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (e: NodeJS.ErrnoException) => {
      failure = e.code === 'ENOENT' ? new GitNotFoundError() : e;
      notify();
      reject(failure);
    });
    child.on('close', (code) => resolve(code));
  });
  exited.catch(() => {}); // thrown from the loop, or awaited below
  try {
    for (;;) {
      const piece = queue.shift();
      if (piece) {
        if (stdout.isPaused() && queue.length < held / 2) stdout.resume();
        yield piece;
        continue;
      }
      if (failure) throw failure;
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const code = await exited;
    if (!accepted(code, options)) throw new GitError(args, code, Buffer.concat(err).toString('utf8'));
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/** Reads of git's stdout held before git is paused (each up to 64 KiB). */
const QUEUED_READS = 16;

/** Lines of a git command's output, streamed. */
export function gitLines(args: readonly string[], options: GitOptions): AsyncGenerator<string> {
  return gitRecords(args, { ...options, separator: '\n' });
}
