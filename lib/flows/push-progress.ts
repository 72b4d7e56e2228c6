/**
 * What pre-push shows while it works on a long push (docs/hooks.md "Push"): a line on stderr
 * naming the ref, what is being read (the chunk of the combined diff under review, how many
 * pushed commits were checked for credentials) and the time so far. Both run at once, so the
 * line holds both. On a terminal it is one live line (core/output.ts progress), redrawn at most
 * ten times a second; anywhere else (a CI log, a pipe) it is a plain line at most every
 * few seconds (core/output.ts plainLineEvery), the first only once a push has taken that long, so a short push prints nothing.
 */
import { escapeControl, plainLineEvery, progress } from '../core/output.js';
import { hookMessages as m } from '../messages/hooks.js';

const REDRAW_MS = 100;

// Milliseconds on a monotonic clock, without the `performance` global (its first use loads perf_hooks).
const clock = () => Number(process.hrtime.bigint() / 1000n) / 1000;

export interface PushProgress {
  reviewing(ref: string, done: number, total: number, path: string): void;
  checking(ref: string, done: number, total: number): void;
  /** Takes the line away before anything else is written (and forgets what it showed). */
  clear(): void;
}

export function pushProgress(stream: NodeJS.WriteStream): PushProgress {
  if (!stream.isTTY) return plainProgress(stream, plainLineEvery());
  const bar = progress(stream);
  const started = clock();
  let drawn = -Infinity;
  let ref = '';
  let review: string | null = null;
  let check: string | null = null;
  // A line longer than the terminal wraps, and only its last row would be redrawn.
  const fit = (text: string) =>
    stream.columns && text.length >= stream.columns ? `${text.slice(0, stream.columns - 2)}…` : text;
  const draw = (last: boolean) => {
    const now = clock();
    if (!last && now - drawn < REDRAW_MS) return;
    drawn = now;
    const parts = [review, check].filter((p): p is string => p !== null);
    bar.update(fit(m.pushProgress(ref, parts, ((now - started) / 1000).toFixed(1))));
  };
  return {
    reviewing(on, done, total, path) {
      ref = escapeControl(on);
      review = m.pushReviewing(done, total, escapeControl(path));
      draw(done === total);
    },
    checking(on, done, total) {
      ref = escapeControl(on);
      check = m.pushChecking(done, total);
      draw(done === total);
    },
    clear() {
      bar.done();
      review = check = null;
      drawn = -Infinity;
    },
  };
}

/** Plain lines, at most one per `every` ms, nothing to take away. */
function plainProgress(stream: NodeJS.WritableStream, every: number): PushProgress {
  const started = clock();
  let written = started;
  let ref = '';
  // What each phase said last, made into words only when a line is due (most calls write none).
  let review: (() => string) | null = null;
  let check: (() => string) | null = null;
  const write = () => {
    const now = clock();
    if (now - written < every) return;
    written = now;
    const parts = [review, check].filter((p): p is () => string => p !== null).map((p) => p());
    stream.write(`${m.pushProgress(escapeControl(ref), parts, ((now - started) / 1000).toFixed(0))}\n`);
  };
  return {
    reviewing(on, done, total, path) {
      ref = on;
      review = () => m.pushReviewing(done, total, escapeControl(path));
      write();
    },
    checking(on, done, total) {
      ref = on;
      check = () => m.pushChecking(done, total);
      write();
    },
    clear() {
      review = check = null;
    },
  };
}
