/**
 * The process that feeds git's output to our parsers, and the only one in lib/ that starts git
 * (docs/architecture.md "The git runner"; test/architecture/git-layer.test.ts keeps it so).
 * Every git call is a named command (./commands/) run through one of three entry shapes: `run`
 * (to completion, parsed), `stream` (chunks, records or batches of records as they arrive) and
 * `spawnGit` (a process kept open: ./versions.ts). Hot paths (hooks, mining) use this
 * directly: spawning git costs a few milliseconds, loading a wrapper library costs more.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { GitError, GitNotFoundError } from './errors.js';

/** Where and how a command runs: the caller's side. */
export interface GitOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Reads of stdout (up to 64 KiB each) held before git is paused, for a streamed command
   * (default 16): more lets git run ahead of a reader that starts late (docs/hooks.md "Merges
   * in the credential pass").
   */
  readAhead?: number;
}

/** A git invocation as data: what every named command is (./commands/). */
export interface GitInvocation {
  /** The argv after `git`. */
  readonly args: readonly string[];
  /**
   * Written to git's stdin (none: stdin is /dev/null). A promise: git starts now and reads it
   * once it is known (a process kept open for questions that come later, ./versions.ts); a
   * rejected one is no input.
   */
  readonly input?: string | Buffer | Promise<string | Buffer>;
  /** Exit codes that are answers, not failures (for example 1 from `git diff --quiet`). */
  readonly okCodes?: readonly number[];
  /** Killed (SIGKILL) after this long and reported as a GitError: for a git that can spin (interpret-trailers). */
  readonly timeoutMs?: number;
  /** Set for this command on top of the caller's (GIT_LITERAL_PATHSPECS for paths from a tree). */
  readonly env?: NodeJS.ProcessEnv;
}

/** What git answered: the exit code and stdout, as bytes or (decoded on first use) as text. */
export interface GitAnswer {
  readonly status: number;
  readonly bytes: Buffer;
  readonly text: string;
}

/** A command run to completion: its output format is its parse (text, bytes, lines, status). */
export interface GitCommand<T> extends GitInvocation {
  readonly parse: (answer: GitAnswer) => T;
}

/**
 * A command whose output is read as it arrives: `chunks` (raw Buffers), `records` (strings cut
 * at `separator`, a NUL by default; `\n` for lines) or `batches` (the records one read completes).
 */
export type StreamFormat = 'chunks' | 'records' | 'batches';
export interface StreamCommand<F extends StreamFormat = StreamFormat> extends GitInvocation {
  readonly stream: F;
  readonly separator?: string;
}
export type Streamed<F extends StreamFormat> = F extends 'chunks' ? Buffer : F extends 'records' ? string : string[];

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

/** Exit 0, or a code the command takes as an answer (`okCodes`). */
function accepted(code: number | null, command: GitInvocation): boolean {
  return code === 0 || (code !== null && (command.okCodes?.includes(code) ?? false));
}

/**
 * A git process with the fixed environment, left to the caller: for a session that keeps it
 * open and writes its questions as they come (./versions.ts).
 */
export function spawnGit(command: GitInvocation, options: GitOptions): ReturnType<typeof spawn> {
  const env = command.env ? { ...options.env, ...command.env } : options.env;
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: { ...process.env, ...env, ...FIXED_ENV },
    // No input: stdin is /dev/null, one pipe and stream fewer for each of the hook's git calls.
    stdio: [command.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  };
  const child = spawn('git', command.args as string[], spawnOptions);
  if (child.stdin) {
    const stdin = child.stdin;
    stdin.on('error', () => {}); // git may exit before reading all input
    if (command.input instanceof Promise)
      command.input.then(
        (input) => stdin.end(input),
        () => stdin.end(),
      );
    else stdin.end(command.input);
  }
  return child;
}

/** Runs a named command to completion and returns its parsed answer; a failing exit code throws GitError. */
export function run<T>(command: GitCommand<T>, options: GitOptions): Promise<T> {
  return new Promise<{ stdout: Buffer; status: number }>((resolve, reject) => {
    const child = spawnGit(command, options);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer =
      command.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), command.timeoutMs);
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? new GitNotFoundError() : e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (accepted(code, command)) resolve({ stdout: Buffer.concat(out), status: code ?? -1 });
      else reject(new GitError(command.args, code, stderr || (signal ? `killed by ${signal}` : '')));
    });
  }).then((result) => {
    let text: string | undefined;
    return command.parse({
      status: result.status,
      bytes: result.stdout,
      get text() {
        return (text ??= result.stdout.toString('utf8'));
      },
    });
  });
}

/**
 * A named command's stdout as it arrives, in the command's format: raw chunks, or records cut
 * at its separator, one at a time or a read at a time. History of any length is parsed as it
 * arrives and never held whole in memory; a failing exit code throws once the output is read.
 */
export function stream<F extends StreamFormat>(
  command: StreamCommand<F>,
  options: GitOptions,
): AsyncGenerator<Streamed<F>> {
  if (command.stream === 'chunks') return chunks(command, options) as AsyncGenerator<Streamed<F>>;
  const batches = recordBatches(command, options);
  return (command.stream === 'batches' ? batches : flatten(batches)) as AsyncGenerator<Streamed<F>>;
}

async function* flatten(batches: AsyncGenerator<string[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield* batch;
}

/**
 * Records a read at a time: every record completed by one chunk of output, in order. For
 * history-sized output, where one await per record costs more than the parsing.
 */
async function* recordBatches(command: StreamCommand, options: GitOptions): AsyncGenerator<string[]> {
  const separator = command.separator ?? '\0';
  // A character split across two reads is joined by the decoder, as setEncoding would.
  const decoder = new StringDecoder('utf8');
  // The unfinished record's pieces: a record longer than many reads is joined once, not
  // copied again on every read.
  let parts: string[] = [];
  for await (const bytes of chunks(command, options)) {
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
 * under recordBatches.
 *
 * Read through 'data' events and a short queue, not the stream's async iterator: that iterator
 * loads Node's stream operators, compose and pipeline modules on first use, milliseconds on
 * every commit's staged diff (docs/hooks.md "Start-up"). git is paused while the queue is full.
 */
async function* chunks(command: GitInvocation, options: GitOptions): AsyncGenerator<Buffer> {
  const child = spawnGit(command, options);
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
    if (!accepted(code, command)) throw new GitError(command.args, code, Buffer.concat(err).toString('utf8'));
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/** Reads of git's stdout held before git is paused (each up to 64 KiB). */
const QUEUED_READS = 16;
