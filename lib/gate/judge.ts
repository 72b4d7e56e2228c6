/**
 * The promotion gate as a pure function of observed facts (docs/gate.md). It answers "should a
 * human look at this?", never "is this true?". The signals themselves are one registry
 * (lib/gate/signals/); this runs them: the thread signals per thread, then the rule signals per
 * rule_source over the threads that meet every thread signal. Each signal can say the fact it
 * was decided on and, when unmet, what would change it (written only for the threads explained).
 */
import type { MinedFinding } from '../mine/types.js';
import { latestAccept } from './threads.js';
import type { Case, GateFacts, Qualifying, RuleContext, ThreadContext } from './signals/define.js';
import { evidenceHit } from './signals/evidence.js';
import { RULE_SIGNALS, SIGNALS, THREAD_SIGNALS, type SignalName } from './signals/index.js';
import type { GateReport, RuleGate, Signal, Thread, ThreadGate } from './types.js';

export type { GateFacts } from './signals/define.js';

function context(thread: Thread, facts: GateFacts): ThreadContext {
  return {
    thread,
    facts,
    accept: latestAccept(thread, facts),
    latest: thread.occurrences[thread.occurrences.length - 1]!,
    mainlineName: facts.mainline?.name ?? 'the mainline',
    before: [],
  };
}

/** Whether every `history` signal holds: decides whose diffs are read for the `diffs` signals. */
export function mayQualify(thread: Thread, facts: GateFacts): boolean {
  const ctx = context(thread, facts);
  return THREAD_SIGNALS.every((s) => s.needs !== 'history' || s.decide(ctx).met);
}

/** Every signal of an explained thread, with its texts, in registry order; the rule signals are the rule's. */
function signalsOf(
  ctx: ThreadContext,
  cases: readonly Case<ThreadContext>[],
  ruleSignals: readonly Signal[],
): Record<SignalName, Signal> {
  const signals = {} as Record<SignalName, Signal>;
  for (const n of SIGNALS) {
    const i = THREAD_SIGNALS.findIndex((s) => s.name === n);
    if (i < 0) {
      signals[n] = ruleSignals.find((s) => s.name === n)!;
      continue;
    }
    const before = THREAD_SIGNALS.slice(0, i).map((s, j) => ({ name: s.name, case: cases[j]! }));
    const [fact, change] = cases[i]!.texts({ ...ctx, before });
    signals[n] = { name: n, met: cases[i]!.met, fact, change };
  }
  return signals;
}

/** Which signals hold, as a record shared by every thread with the same outcome (at most 2^SIGNALS.length). */
const metRecords = new Map<number, Readonly<Record<SignalName, boolean>>>();
function metRecord(bits: number): Readonly<Record<SignalName, boolean>> {
  let record = metRecords.get(bits);
  if (!record)
    metRecords.set(
      bits,
      (record = Object.freeze(
        Object.fromEntries(SIGNALS.map((n) => [n, (bits & bit(n)) !== 0])) as Record<SignalName, boolean>,
      )),
    );
  return record;
}
const bit = (name: SignalName) => 1 << SIGNALS.indexOf(name);
const THREAD_BITS = THREAD_SIGNALS.reduce((bits, s) => bits | bit(s.name), 0);

/** A thread's signals as decided: which hold (a bit per SIGNALS entry), and the context and cases only when explained. */
interface Decided {
  thread: Thread;
  bits: number;
  explained: { ctx: ThreadContext; cases: Case<ThreadContext>[] } | null;
  accept: MinedFinding | null;
  hit: MinedFinding | null;
}

/** Every thread signal, decided in registry order, with the ACCEPT and evidence occurrences. */
function decideThread(thread: Thread, facts: GateFacts, keep: boolean): Decided {
  const ctx = context(thread, facts);
  const cases: Case<ThreadContext>[] | null = keep ? [] : null;
  let bits = 0;
  for (const def of THREAD_SIGNALS) {
    const c = def.decide(ctx);
    if (c.met) bits |= bit(def.name);
    cases?.push(c);
  }
  const hit = bits & bit('evidence') ? evidenceHit(thread, facts) : null;
  return { thread, bits, explained: cases ? { ctx, cases } : null, accept: ctx.accept, hit };
}

/**
 * The rule signals of one rule_source over its qualifying threads (those meeting every thread
 * signal) and their files: judge() runs it per rule of one history, and `revtrail org
 * candidates` over the qualifying threads of several repositories (docs/org.md "Candidates").
 */
export function decideRule(
  rule: string,
  qualifying: readonly Qualifying[],
  files: readonly string[],
  limits: { minRecurrence: number; minAuthors: number },
): { signals: Signal[]; bits: number; passed: boolean } {
  const ruleCtx: RuleContext = {
    rule,
    qualifying,
    files,
    minRecurrence: limits.minRecurrence,
    minAuthors: limits.minAuthors,
    threadSignals: THREAD_SIGNALS.length,
  };
  let bits = 0;
  const signals: Signal[] = RULE_SIGNALS.map((def) => {
    const c = def.decide(ruleCtx);
    if (c.met) bits |= bit(def.name);
    const [fact, change] = c.texts(ruleCtx);
    return { name: def.name, met: c.met, fact, change };
  });
  return { signals, bits, passed: signals.every((s) => s.met) };
}

/**
 * Signals of every thread, then the rule signals per rule_source. Facts and changes are written
 * for the threads `explain` names (and every rule's rule signals); the others say only which
 * signals hold.
 */
export function judge(
  threads: readonly Thread[],
  facts: GateFacts,
  limits: { minRecurrence: number; minAuthors: number },
  explain?: (thread: Thread) => boolean,
): GateReport {
  const { minRecurrence } = limits;
  const byRule = new Map<string, Decided[]>();
  for (const thread of threads) {
    const d = decideThread(thread, facts, explain?.(thread) ?? false);
    const list = byRule.get(thread.rule_source);
    if (list) list.push(d);
    else byRule.set(thread.rule_source, [d]);
  }
  const gateOf = new Map<Thread, ThreadGate>();
  const rules: RuleGate[] = [];
  for (const [rule, list] of [...byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const qualifyingDecided = list.filter((d) => d.bits === THREAD_BITS);
    const files = [...new Set(qualifyingDecided.map((d) => d.thread.file!))].sort();
    const { signals: ruleSignals, bits: ruleBits, passed } = decideRule(rule, qualifyingDecided, files, limits);
    const gates: ThreadGate[] = [];
    const qualifying: ThreadGate[] = [];
    for (const d of list) {
      const signals = d.explained ? signalsOf(d.explained.ctx, d.explained.cases, ruleSignals) : null;
      const gate: ThreadGate = {
        thread: d.thread,
        accept: d.accept,
        evidence: d.hit,
        met: metRecord(d.bits | ruleBits),
        signals,
        passed: d.bits === THREAD_BITS && passed,
      };
      gates.push(gate);
      if (d.bits === THREAD_BITS) qualifying.push(gate);
      gateOf.set(d.thread, gate);
    }
    rules.push({ rule_source: rule, threads: gates, qualifying, files, minRecurrence, passed, signals: ruleSignals });
  }
  return {
    mainline: facts.mainline,
    mainlineProblem: facts.mainlineProblem,
    threads: threads.map((t) => gateOf.get(t)!),
    rules,
  };
}
