/**
 * The promotion gate as a pure function of observed facts (SPEC §8). It answers "should a
 * human look at this?", never "is this true?". Each signal can say the fact it was decided on and,
 * when unmet, what would change it (written only for the threads explained: docs/mining.md).
 */
import type { MinedFinding } from '../mine/types.js';
import { latestAccept } from './threads.js';
import { intersects, lineRange, type LineRanges } from './facts.js';
import { outcomeOf } from '../ci/notes.js';
import type { GateReport, Mainline, RuleGate, Signal, SignalName, Thread, ThreadGate } from './types.js';
import { SIGNALS } from './types.js';
import { gateMessages as m } from '../messages/gate.js';

export interface GateFacts {
  mainline: Mainline | null;
  mainlineProblem: string | null;
  /** Commits (those carrying findings) reachable from the mainline. */
  reachable: Set<string>;
  /** Files each ACCEPT commit's first-parent diff touches. */
  touched: Map<string, Set<string>>;
  /** Thread files that exist at the mainline tip. */
  present: Set<string>;
  /** CI note text per commit. */
  ci: Map<string, string>;
  /** Lines each commit changed, per file; read only for the threads in evidenceScope. */
  changed: Map<string, Map<string, LineRanges>>;
  evidenceScope: Set<string>;
}

/**
 * One way a signal can come out, with the texts that say so: the fact, and what would change an
 * unmet signal. Cases are made once, with the registry; deciding a signal picks one and builds
 * nothing, so every thread of a long history is decided cheaply, and the texts are written only
 * when someone reads them (`--explain`).
 */
export interface Case {
  met: boolean;
  texts(ctx: ThreadContext): [fact: string, change: string | null];
}

const met = (fact: (ctx: ThreadContext) => string): Case => ({ met: true, texts: (ctx) => [fact(ctx), null] });
const unmet = (texts: (ctx: ThreadContext) => [fact: string, change: string]): Case => ({ met: false, texts });

/** What a thread signal decides on: the thread, the facts, and (for the texts) the signals decided before it. */
export interface ThreadContext {
  thread: Thread;
  facts: GateFacts;
  accept: MinedFinding | null;
  latest: MinedFinding;
  mainlineName: string;
  /** The signals decided before this one, in registry order. */
  before: ReadonlyArray<{ name: SignalName; case: Case }>;
}

/**
 * One gate signal (docs/gate.md). `needs` says what deciding it costs: `history` signals are
 * decided from the mined history and a few batched git facts; `diffs` needs each commit's changed
 * lines, read only for threads that meet every `history` signal; `rule` needs the rule's other
 * threads. A new signal is one entry here plus its messages (lib/messages/gate.ts) and a test.
 */
interface ThreadSignal {
  name: SignalName;
  needs: 'history' | 'diffs';
  decide(ctx: ThreadContext): Case;
}

// The accept of a case that is only decided when there is one.
const fixOf = (ctx: ThreadContext) => ctx.accept!.commit;
const noAcceptCase = unmet(({ thread, mainlineName }) => [m.noAccept, m.recordAccept(thread.id, mainlineName)]);
const noFixCommitCase = unmet(({ thread, mainlineName }) => [m.noFixCommit, m.recordAccept(thread.id, mainlineName)]);
const noFileCase = unmet(() => [m.noFile, m.noFileChange]);

const mergedCases = {
  noMainline: unmet(({ facts }) => [m.noMainline(facts.mainlineProblem ?? ''), m.setMainline]),
  reachable: met((ctx) => m.mergedMet(fixOf(ctx), ctx.mainlineName)),
  unreachable: unmet((ctx) => [m.mergedUnmet(fixOf(ctx), ctx.mainlineName), m.mergeIt(fixOf(ctx), ctx.mainlineName)]),
};
const merged: ThreadSignal = {
  name: 'merged',
  needs: 'history',
  decide: ({ facts, accept }) => {
    if (!accept) return noAcceptCase;
    if (!facts.mainline) return mergedCases.noMainline;
    return facts.reachable.has(accept.commit) ? mergedCases.reachable : mergedCases.unreachable;
  },
};

const resolvedCases = {
  accepted: met(({ latest }) => m.resolvedMet(latest.commit)),
  other: unmet(({ thread, latest }) => [m.resolvedUnmet(thread.state, latest.commit), m.resolveIt(thread.id)]),
};
const resolved: ThreadSignal = {
  name: 'resolved',
  needs: 'history',
  decide: ({ thread }) => (thread.state === 'ACCEPT' ? resolvedCases.accepted : resolvedCases.other),
};

const fixCases = {
  changes: met((ctx) => m.fixMet(fixOf(ctx), ctx.thread.file!)),
  elsewhere: unmet((ctx) => [m.fixUnmet(fixOf(ctx), ctx.thread.file!, ctx.facts.touched.get(fixOf(ctx))?.size ?? 0), m.fixIt(ctx.thread.file!)]),
};
const fixCommit: ThreadSignal = {
  name: 'fix_commit',
  needs: 'history',
  decide: ({ thread, facts, accept }) => {
    if (!accept) return noFixCommitCase;
    if (!thread.file) return noFileCase;
    return facts.touched.get(accept.commit)?.has(thread.file) ? fixCases.changes : fixCases.elsewhere;
  },
};

function lastReject(thread: Thread): MinedFinding | undefined {
  for (let i = thread.occurrences.length - 1; i >= 0; i--) if (thread.occurrences[i]!.verdict === 'REJECT') return thread.occurrences[i];
  return undefined;
}
const dismissedCases = {
  rejected: unmet(({ thread }) => {
    const reject = lastReject(thread)!;
    return [m.rejected(reject.commit, reject.rationale), m.rejectedChange];
  }),
  noMainline: unmet(({ thread }) => [m.noMainlineForFile(thread.file!), m.setMainline]),
  gone: unmet(({ thread, mainlineName }) => [m.fileGone(thread.file!, mainlineName), m.fileGoneChange(thread.file!, mainlineName)]),
  present: met(({ thread, mainlineName }) => m.notDismissedMet(thread.file!, mainlineName)),
};
const notDismissed: ThreadSignal = {
  name: 'not_dismissed',
  needs: 'history',
  decide: ({ thread, facts }) => {
    if (lastReject(thread)) return dismissedCases.rejected;
    if (!thread.file) return noFileCase;
    if (!facts.mainline) return dismissedCases.noMainline;
    return facts.present.has(thread.file) ? dismissedCases.present : dismissedCases.gone;
  },
};

const ciCases = {
  pass: met((ctx) => m.ciPass(fixOf(ctx))),
  fail: unmet((ctx) => [m.ciFail(fixOf(ctx)), m.ciFailChange(fixOf(ctx))]),
  none: unmet((ctx) => [m.ciNone(fixOf(ctx)), m.ciNoneChange(fixOf(ctx))]),
  other: unmet((ctx) => [m.ciOther(fixOf(ctx), ctx.facts.ci.get(fixOf(ctx)) ?? ''), m.ciOtherChange(fixOf(ctx))]),
};
const ciSuccessful: ThreadSignal = {
  name: 'ci_successful',
  needs: 'history',
  decide: ({ facts, accept }) => (accept ? ciCases[outcomeOf(facts.ci.get(accept.commit))] : noFixCommitCase),
};

const located = (o: MinedFinding) => !!o.file && lineRange(o.line) !== null;

/** The occurrence whose file:line lies in lines its commit changed: the evidence, if any. */
export function evidenceHit(thread: Thread, facts: GateFacts): MinedFinding | null {
  for (const o of thread.occurrences) if (located(o) && intersects(lineRange(o.line)!, facts.changed.get(o.commit)?.get(o.file!))) return o;
  return null;
}

const evidenceCases = {
  noLocation: unmet(() => [m.evidenceNoLocation, m.evidenceNoLocationChange]),
  // Outside the scope only when an earlier signal already rules the thread out.
  notChecked: unmet((ctx) => {
    const first = ctx.before.find((s) => !s.case.met);
    return [m.notChecked(first?.name ?? 'the gate'), (first && first.case.texts(ctx)[1]) ?? m.evidenceChange];
  }),
  hit: met((ctx) => {
    const hit = evidenceHit(ctx.thread, ctx.facts)!;
    return m.evidenceMet(hit.file!, hit.line!, hit.commit);
  }),
  miss: unmet(({ thread }) => [m.evidenceUnmet(thread.occurrences.filter(located).length), m.evidenceChange]),
};
const evidence: ThreadSignal = {
  name: 'evidence',
  needs: 'diffs',
  decide: ({ thread, facts }) => {
    if (!thread.occurrences.some(located)) return evidenceCases.noLocation;
    if (!facts.evidenceScope.has(thread.id)) return evidenceCases.notChecked;
    return evidenceHit(thread, facts) ? evidenceCases.hit : evidenceCases.miss;
  },
};

/** The per-thread signals, in the order they are decided (`generalizable` is the rule's). */
export const THREAD_SIGNALS: readonly ThreadSignal[] = [merged, resolved, fixCommit, notDismissed, ciSuccessful, evidence];

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

/** Whether every `history` signal holds: decides whose diffs are read for `evidence`. */
export function mayQualify(thread: Thread, facts: GateFacts): boolean {
  const ctx = context(thread, facts);
  return THREAD_SIGNALS.every((s) => s.needs !== 'history' || s.decide(ctx).met);
}

/** Every signal of an explained thread, with its texts; `generalizable` is the rule's. */
function signalsOf(ctx: ThreadContext, cases: readonly Case[], generalizable: Signal): Record<SignalName, Signal> {
  const signals = {} as Record<SignalName, Signal>;
  for (const n of SIGNALS) {
    const i = THREAD_SIGNALS.findIndex((s) => s.name === n);
    if (i < 0) {
      signals[n] = generalizable;
      continue;
    }
    const before = THREAD_SIGNALS.slice(0, i).map((s, j) => ({ name: s.name, case: cases[j]! }));
    const [fact, change] = cases[i]!.texts({ ...ctx, before });
    signals[n] = { name: n, met: cases[i]!.met, fact, change };
  }
  return signals;
}

/** Which signals hold, as a record shared by every thread with the same outcome (at most 2^7). */
const metRecords = new Map<number, Readonly<Record<SignalName, boolean>>>();
function metRecord(bits: number): Readonly<Record<SignalName, boolean>> {
  let record = metRecords.get(bits);
  if (!record) metRecords.set(bits, (record = Object.freeze(Object.fromEntries(SIGNALS.map((n, i) => [n, (bits & bit(n)) !== 0])) as Record<SignalName, boolean>)));
  return record;
}
const bit = (name: SignalName) => 1 << SIGNALS.indexOf(name);
const THREAD_BITS = THREAD_SIGNALS.reduce((bits, s) => bits | bit(s.name), 0);

/** A thread's signals as decided: which hold (a bit per SIGNALS entry), and the context and cases only when explained. */
interface Decided {
  thread: Thread;
  bits: number;
  explained: { ctx: ThreadContext; cases: Case[] } | null;
  accept: MinedFinding | null;
  hit: MinedFinding | null;
}

/** Every thread signal, decided in registry order, with the ACCEPT and evidence occurrences. */
function decideThread(thread: Thread, facts: GateFacts, keep: boolean): Decided {
  const ctx = context(thread, facts);
  const cases: Case[] | null = keep ? [] : null;
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
 * Signals of every thread, then `generalizable` per rule_source. Facts and changes are written
 * for the threads `explain` names (and every rule's `generalizable`); the others say only which
 * signals hold.
 */
export function judge(threads: readonly Thread[], facts: GateFacts, minRecurrence: number, explain?: (thread: Thread) => boolean): GateReport {
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
    const enough = qualifyingDecided.length >= minRecurrence && files.length >= 2;
    const fact = m.general(rule, qualifyingDecided.length, files.length, minRecurrence, THREAD_SIGNALS.length);
    const generalizable: Signal = enough
      ? { name: 'generalizable', met: true, fact, change: null }
      : { name: 'generalizable', met: false, fact, change: m.generalChange(rule, Math.max(0, minRecurrence - qualifyingDecided.length), files.length < 2) };
    const gates: ThreadGate[] = [];
    const qualifying: ThreadGate[] = [];
    for (const d of list) {
      const signals = d.explained ? signalsOf(d.explained.ctx, d.explained.cases, generalizable) : null;
      const bits = enough ? d.bits | bit('generalizable') : d.bits;
      const gate: ThreadGate = { thread: d.thread, accept: d.accept, evidence: d.hit, met: metRecord(bits), signals, passed: d.bits === THREAD_BITS && enough };
      gates.push(gate);
      if (d.bits === THREAD_BITS) qualifying.push(gate);
      gateOf.set(d.thread, gate);
    }
    rules.push({ rule_source: rule, threads: gates, qualifying, files, minRecurrence, passed: enough, generalizable });
  }
  return { mainline: facts.mainline, mainlineProblem: facts.mainlineProblem, threads: threads.map((t) => gateOf.get(t)!), rules };
}
