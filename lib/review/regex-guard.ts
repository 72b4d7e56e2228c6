/**
 * Bundle rules are regular expressions written by anyone; one with catastrophic backtracking
 * (`(a+)+$`) can hang on a 30-character line. Three bounds keep a review finite:
 *  1. V8's linear-time engine takes over from a pattern that backtracks excessively, for the
 *     patterns it supports (no i/u/v/d flags, no lookaround or backreferences).
 *  2. A pattern it does not support that looks super-linear (a quantified group holding a
 *     quantifier or an alternation, or more than two unbounded quantifiers) runs in a worker
 *     thread that is terminated when it overruns its time; the rule is then skipped.
 *  3. Lines over a length cap are not given to bundle rules at all (rules.ts).
 * Everything else runs inline: the worker costs ~40 ms to start, and only risky rules pay it.
 */
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';

let fallbackEnabled = false;

/** Turns on V8's fallback to its linear engine after excessive backtracking (process-wide, same results). */
export function enableBacktrackFallback(): void {
  if (fallbackEnabled) return;
  fallbackEnabled = true;
  try {
    setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  } catch {
    // An engine without the flag: the sandbox below still bounds the risky patterns.
  }
}

/** Whether V8's linear engine can run this regex (so the fallback protects it). */
export function linearEngineCan(regex: RegExp): boolean {
  if (/[iudv]/.test(regex.flags)) return false;
  return !/\(\?<?[=!]|\\[1-9]|\\k</.test(regex.source);
}

interface Shape {
  nested: boolean;
  unbounded: number;
}

/** A cheap reading of a pattern's quantifier structure (not a full parser; errs towards "risky"). */
export function patternShape(source: string): Shape {
  const groups: Array<{ quantified: boolean; alternation: boolean }> = [];
  let nested = false;
  let unbounded = 0;
  let lastGroup: { quantified: boolean; alternation: boolean } | null = null;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    let quantifierAt = -1;
    if (c === '\\') {
      i++;
      lastGroup = null;
      continue;
    }
    if (c === '[') {
      // Skip the class; `]` right after `[` or `[^` is literal.
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j;
      lastGroup = null;
      continue;
    }
    if (c === '(') {
      groups.push({ quantified: false, alternation: false });
      lastGroup = null;
      continue;
    }
    if (c === ')') {
      lastGroup = groups.pop() ?? null;
      if (lastGroup && groups.length) {
        const parent = groups[groups.length - 1]!;
        parent.quantified ||= lastGroup.quantified;
        parent.alternation ||= lastGroup.alternation;
      }
      continue;
    }
    if (c === '|') {
      if (groups.length) groups[groups.length - 1]!.alternation = true;
      lastGroup = null;
      continue;
    }
    if (c === '*' || c === '+') quantifierAt = i;
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (m && m[2] !== undefined && (m[3] === '' || Number(m[3]) > 16)) quantifierAt = i;
      if (m) i += m[0].length - 1;
    }
    if (quantifierAt !== -1) {
      unbounded++;
      if (lastGroup && (lastGroup.quantified || lastGroup.alternation)) nested = true;
      if (groups.length) groups[groups.length - 1]!.quantified = true;
    }
    lastGroup = null;
  }
  return { nested, unbounded };
}

/** Whether a rule's regex must run in the sandbox. */
export function needsSandbox(regex: RegExp): boolean {
  if (linearEngineCan(regex)) return false;
  const shape = patternShape(regex.source);
  return shape.nested || shape.unbounded > 2;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
parentPort.on('message', ({ id, source, flags, texts }) => {
  const key = flags + '/' + source;
  let re = cache.get(key);
  if (!re) { re = new RegExp(source, flags); cache.set(key, re); }
  const hits = [];
  for (let i = 0; i < texts.length; i++) { re.lastIndex = 0; if (re.test(texts[i])) hits.push(i); }
  parentPort.postMessage({ id, hits });
});
`;

/** A worker that runs risky regexes with a deadline. Started on first use; close() ends it. */
export class RegexSandbox {
  private worker: Worker | null = null;
  private nextId = 0;

  constructor(readonly timeoutMs: number) {}

  /** Indexes of `texts` the regex matches, or 'timeout' (the worker is then replaced). */
  test(regex: RegExp, texts: readonly string[]): Promise<number[] | 'timeout'> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve) => {
      const onMessage = (message: { id: number; hits: number[] }) => {
        if (message.id !== id) return;
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve(message.hits);
      };
      const timer = setTimeout(() => {
        worker.off('message', onMessage);
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
        resolve('timeout');
      }, this.timeoutMs);
      worker.on('message', onMessage);
      worker.postMessage({ id, source: regex.source, flags: regex.flags, texts });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref(); // never keeps the CLI alive
    worker.on('error', () => {
      if (this.worker === worker) this.worker = null;
    });
    return worker;
  }
}
