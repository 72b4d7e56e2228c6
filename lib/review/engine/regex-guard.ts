/**
 * Bundle rules are regular expressions written by anyone; one with catastrophic backtracking
 * (`(a+)+$`) can hang on a 30-character line. Each rule gets a plan (docs/bundle.md "Time"):
 *  1. 'linear': V8's linear-time engine accepts the pattern (asked directly, with its `l`
 *     flag), so its fallback to that engine after excessive backtracking bounds the pattern.
 *     The rule itself still runs on the fast backtracking engine. Under `i`, an ASCII pattern
 *     is first written without the flag (./regex-fold.ts), which that engine does take.
 *  2. 'bounded': the engine does not take it (lookaround, a backreference, `u`), but it has at
 *     most one quantifier that can backtrack and none nested: polynomial per line, and the rule
 *     runner checks its clock between lines.
 *  3. 'sandbox': anything else runs in a worker thread terminated when it overruns its time;
 *     the rule is then skipped.
 * Lines over a length cap are not given to bundle rules at all (rules.ts).
 */
import type { Worker } from 'node:worker_threads';
import { REGEX_FALLBACK_FLAGS, setV8Flags, workerThreads } from '../../core/node-module.js';
import { foldCase } from './regex-fold.js';

let enginesSet = false;
let probeWorks = false;

/**
 * Turns on V8's fallback to its linear engine after excessive backtracking, and the `l` flag
 * that asks that engine whether it can run a pattern (process-wide; results unchanged).
 */
export function enableBacktrackFallback(): void {
  if (enginesSet) return;
  enginesSet = true;
  try {
    setV8Flags(REGEX_FALLBACK_FLAGS);
    // biome-ignore lint/complexity/useRegexLiterals: the l flag parses only once the V8 flags above are set
    new RegExp('a', 'l');
    probeWorks = true;
  } catch {
    // An engine without the flags: every pattern that is not plainly simple goes to the sandbox.
  }
}

/** Whether V8's linear engine can run this pattern (so the fallback protects it). */
export function linearEngineTakes(source: string, flags: string): boolean {
  enableBacktrackFallback();
  if (!probeWorks) return false;
  try {
    new RegExp(source, `${flags.replace(/[gyl]/g, '')}l`);
    return true;
  } catch {
    return false;
  }
}

/** Whether V8's linear engine can run this regex (so the fallback protects it). */
export function linearEngineCan(regex: RegExp): boolean {
  return linearEngineTakes(regex.source, regex.flags);
}

interface Shape {
  /** A repeated group holds a quantifier or an alternation: `(a+)+`, `(a|aa){2,}`. */
  nested: boolean;
  /** `*`, `+`, `{n,}` and `{n,m}` with m > 16. */
  unbounded: number;
  /** Quantifiers that can match different lengths (`?` and `{n,m}` too) and backreferences. */
  variable: number;
}

/** A cheap reading of a pattern's quantifier structure (not a full parser; errs towards "risky"). */
export function patternShape(source: string): Shape {
  interface Group {
    quantified: boolean;
    alternation: boolean;
  }
  const groups: Group[] = [];
  let nested = false;
  let unbounded = 0;
  let variable = 0;
  let lastGroup: Group | null = null;
  // Whether the previous token can take a quantifier (a `?` after a quantifier makes it lazy).
  let afterQuantifier = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const d = source[i + 1] ?? '';
      if (/[1-9]/.test(d) || (d === 'k' && source[i + 2] === '<')) variable++;
      i++;
      lastGroup = null;
      afterQuantifier = false;
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
      afterQuantifier = false;
      continue;
    }
    if (c === '(') {
      groups.push({ quantified: false, alternation: false });
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the `?` is no quantifier.
      const prefix = /^\(\?(?:[:=!]|<[=!]|<[^>]*>)?/.exec(source.slice(i, i + 64));
      if (prefix) i += prefix[0].length - 1;
      lastGroup = null;
      afterQuantifier = false;
      continue;
    }
    if (c === ')') {
      lastGroup = groups.pop() ?? null;
      if (lastGroup && groups.length) {
        const parent = groups[groups.length - 1]!;
        parent.quantified ||= lastGroup.quantified;
        parent.alternation ||= lastGroup.alternation;
      }
      afterQuantifier = false;
      continue;
    }
    if (c === '|') {
      if (groups.length) groups[groups.length - 1]!.alternation = true;
      lastGroup = null;
      afterQuantifier = false;
      continue;
    }
    let repeats = false; // can match its operand more than once
    let varies = false; // can match different lengths
    let endless = false;
    if (c === '*' || c === '+') [repeats, varies, endless] = [true, true, true];
    else if (c === '?') {
      if (afterQuantifier) {
        afterQuantifier = false;
        continue; // lazy marker
      }
      varies = true;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (m) {
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        repeats = max > 1;
        varies = max > min;
        endless = max > 16;
        i += m[0].length - 1;
      }
    }
    if (repeats || varies) {
      if (endless) unbounded++;
      if (varies) variable++;
      if (repeats && lastGroup && (lastGroup.quantified || lastGroup.alternation)) nested = true;
      if (groups.length) groups[groups.length - 1]!.quantified = true;
      afterQuantifier = true;
    } else afterQuantifier = false;
    lastGroup = null;
  }
  return { nested, unbounded, variable };
}

/** What identifies a rule's pattern for the "overran before" memory: a changed pattern is tried again. */
export function ruleTimeKey(rule: { ruleSource: string; pattern: string; flags: string }): string {
  return `${rule.ruleSource}\u0000${rule.flags}\u0000${rule.pattern}`;
}

export type RegexPlan =
  | { kind: 'linear'; regex: RegExp }
  | { kind: 'bounded'; regex: RegExp }
  | { kind: 'sandbox'; regex: RegExp; why: string };

/** How a rule's regex runs (see the top of this file). */
export function planRegex(regex: RegExp): RegexPlan {
  if (linearEngineTakes(regex.source, regex.flags)) return { kind: 'linear', regex };
  if (regex.flags.includes('i') && !/[uv]/.test(regex.flags)) {
    const folded = foldCase(regex.source);
    const flags = regex.flags.replace('i', '');
    if (folded !== null && linearEngineTakes(folded, flags))
      return { kind: 'linear', regex: new RegExp(folded, flags) };
  }
  const shape = patternShape(regex.source);
  if (!shape.nested && shape.variable <= 1) return { kind: 'bounded', regex };
  const why = shape.nested
    ? 'a repeated group holds a quantifier or an alternation'
    : `${shape.variable} quantifiers or backreferences that can backtrack against one another`;
  return { kind: 'sandbox', regex, why };
}

/** Whether a rule's regex must run in the sandbox. */
export function needsSandbox(regex: RegExp): boolean {
  return planRegex(regex).kind === 'sandbox';
}

/** Why a pattern is at risk of super-linear matching (it would run in the sandbox), or null. */
export function superLinearRisk(pattern: string, flags: string): string | null {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, flags.replace(/[gy]/g, ''));
  } catch {
    return null;
  }
  const plan = planRegex(regex);
  return plan.kind === 'sandbox' ? plan.why : null;
}

/** Whether a pattern matches the empty string (then it matches at some place of any line). */
export function matchesEmpty(pattern: string, flags: string): boolean {
  try {
    return new RegExp(pattern, flags.replace(/[gy]/g, '')).test('');
  } catch {
    return false;
  }
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
parentPort.on('message', ({ id, source, flags, texts }) => {
  parentPort.postMessage({ id, started: true });
  const key = flags + '/' + source;
  let re = cache.get(key);
  if (!re) { re = new RegExp(source, flags); cache.set(key, re); }
  const hits = [];
  for (let i = 0; i < texts.length; i++) { re.lastIndex = 0; if (re.test(texts[i])) hits.push(i); }
  parentPort.postMessage({ id, hits });
});
`;

/** How long a worker may take to start and pick up a job (a loaded machine): not the rule's time. */
const START_LIMIT_MS = 10_000;

/**
 * A worker that runs risky regexes with a deadline. Started on first use; close() ends it. The
 * deadline runs from when the worker starts on the job, so a slow thread start on a busy
 * machine is never taken for a slow pattern.
 */
export class RegexSandbox {
  private worker: Worker | null = null;
  private nextId = 0;

  constructor(readonly timeoutMs: number) {}

  /**
   * Indexes of `texts` the regex matches; 'timeout' when it overran (the worker is then
   * replaced); 'failed' when the worker could not run it at all.
   */
  test(regex: RegExp, texts: readonly string[], timeoutMs = this.timeoutMs): Promise<number[] | 'timeout' | 'failed'> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve) => {
      let timer = setTimeout(() => finish('failed'), START_LIMIT_MS);
      const finish = (outcome: number[] | 'timeout' | 'failed') => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onFailure);
        if (outcome !== 'timeout' && outcome !== 'failed') return resolve(outcome);
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
        resolve(outcome);
      };
      const onMessage = (message: { id: number; started?: boolean; hits?: number[] }) => {
        if (message.id !== id) return;
        if (message.started) {
          clearTimeout(timer);
          timer = setTimeout(() => finish('timeout'), timeoutMs);
        } else finish(message.hits ?? []);
      };
      const onFailure = () => finish('failed');
      worker.on('message', onMessage);
      worker.on('error', onFailure);
      worker.on('exit', onFailure);
      worker.postMessage({ id, source: regex.source, flags: regex.flags, texts });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const { Worker } = workerThreads();
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref(); // never keeps the CLI alive
    worker.on('error', () => {
      if (this.worker === worker) this.worker = null;
    });
    return worker;
  }
}
