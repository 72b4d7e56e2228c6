/**
 * What pre-push shows while it works on a long push (docs/hooks.md "Push"): one line on stderr,
 * on a terminal only (core/output.ts progress), naming the ref, what is being read (the chunk of
 * the combined diff under review, how many pushed commits were checked for credentials) and the
 * time so far. Both run at once, so the line holds both; it is redrawn at most ten times a second.
 */
import { escapeControl, progress } from '../core/output.js';
import { hookMessages as m } from '../messages/hooks.js';

const REDRAW_MS = 100;

export interface PushProgress {
  reviewing(ref: string, done: number, total: number, path: string): void;
  checking(ref: string, done: number, total: number): void;
  /** Takes the line away before anything else is written (and forgets what it showed). */
  clear(): void;
}

export function pushProgress(stream: NodeJS.WriteStream): PushProgress {
  if (!stream.isTTY) return { reviewing() {}, checking() {}, clear() {} };
  const bar = progress(stream);
  const started = performance.now();
  let drawn = -Infinity;
  let ref = '';
  let review: string | null = null;
  let check: string | null = null;
  // A line longer than the terminal wraps, and only its last row would be redrawn.
  const fit = (text: string) =>
    stream.columns && text.length >= stream.columns ? `${text.slice(0, stream.columns - 2)}…` : text;
  const draw = (last: boolean) => {
    const now = performance.now();
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
