/**
 * The promotion gate as a pure function of observed facts (SPEC §8). It answers "should a
 * human look at this?", never "is this true?". Each signal keeps the fact it was decided on and,
 * when unmet, what would change it.
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
 * A signal's decision. Its texts (the fact, and what would change an unmet signal) are written
 * only when someone reads them (`--explain`): a history has thousands of threads, and the gate
 * otherwise needs only whether each signal holds.
 */
export interface Decision {
  met: boolean;
  texts: () => { fact: string; change: string | null };
  /** evidence only: the occurrence that is the evidence (null when there is none). */
  hit?: MinedFinding | null;
}

const met = (fact: () => string): Decision => ({ met: true, texts: () => ({ fact: fact(), change: null }) });
const unmet = (texts: () => [fact: string, change: string]): Decision => ({
  met: false,
  texts: () => {
    const [fact, change] = texts();
    return { fact, change };
  },
});

/** What a thread signal decides on: the thread, the facts, and the signals decided before it. */
interface ThreadContext {
  thread: Thread;
  facts: GateFacts;
  accept: MinedFinding | null;
  latest: MinedFinding;
  mainlineName: string;
  /** The signals decided so far, in registry order. */
  before: ReadonlyArray<{ name: SignalName; decision: Decision }>;
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
  decide(ctx: ThreadContext): Decision;
}

const merged: ThreadSignal = {
  name: 'merged',
  needs: 'history',
  decide: ({ thread, facts, accept, mainlineName }) => {
    if (!accept) return unmet(() => [m.noAccept, m.recordAccept(thread.id, mainlineName)]);
    if (!facts.mainline) return unmet(() => [m.noMainline(facts.mainlineProblem ?? ''), m.setMainline]);
    if (facts.reachable.has(accept.commit)) return met(() => m.mergedMet(accept.commit, mainlineName));
    return unmet(() => [m.mergedUnmet(accept.commit, mainlineName), m.mergeIt(accept.commit, mainlineName)]);
  },
};

const resolved: ThreadSignal = {
  name: 'resolved',
  needs: 'history',
  decide: ({ thread, latest }) =>
    thread.state === 'ACCEPT'
      ? met(() => m.resolvedMet(latest.commit))
      : unmet(() => [m.resolvedUnmet(thread.state, latest.commit), m.resolveIt(thread.id)]),
};

const fixCommit: ThreadSignal = {
  name: 'fix_commit',
  needs: 'history',
  decide: ({ thread, facts, accept, mainlineName }) => {
    if (!accept) return unmet(() => [m.noFixCommit, m.recordAccept(thread.id, mainlineName)]);
    const file = thread.file;
    if (!file) return unmet(() => [m.noFile, m.noFileChange]);
    const files = facts.touched.get(accept.commit);
    return files?.has(file)
      ? met(() => m.fixMet(accept.commit, file))
      : unmet(() => [m.fixUnmet(accept.commit, file, files?.size ?? 0), m.fixIt(file)]);
  },
};

const notDismissed: ThreadSignal = {
  name: 'not_dismissed',
  needs: 'history',
  decide: ({ thread, facts, mainlineName }) => {
    let reject: MinedFinding | undefined;
    for (let i = thread.occurrences.length - 1; i >= 0 && !reject; i--) if (thread.occurrences[i]!.verdict === 'REJECT') reject = thread.occurrences[i];
    if (reject) {
      const { commit, rationale } = reject;
      return unmet(() => [m.rejected(commit, rationale), m.rejectedChange]);
    }
    const file = thread.file;
    if (!file) return unmet(() => [m.noFile, m.noFileChange]);
    if (!facts.mainline) return unmet(() => [m.noMainlineForFile(file), m.setMainline]);
    if (!facts.present.has(file)) return unmet(() => [m.fileGone(file, mainlineName), m.fileGoneChange(file, mainlineName)]);
    return met(() => m.notDismissedMet(file, mainlineName));
  },
};

const ciSuccessful: ThreadSignal = {
  name: 'ci_successful',
  needs: 'history',
  decide: ({ thread, facts, accept, mainlineName }) => {
    if (!accept) return unmet(() => [m.noFixCommit, m.recordAccept(thread.id, mainlineName)]);
    const fix = accept.commit;
    const note = facts.ci.get(fix);
    const outcome = outcomeOf(note);
    if (outcome === 'pass') return met(() => m.ciPass(fix));
    if (outcome === 'fail') return unmet(() => [m.ciFail(fix), m.ciFailChange(fix)]);
    if (outcome === 'none') return unmet(() => [m.ciNone(fix), m.ciNoneChange(fix)]);
    return unmet(() => [m.ciOther(fix, note ?? ''), m.ciOtherChange(fix)]);
  },
};

const located = (o: MinedFinding) => !!o.file && lineRange(o.line) !== null;

const evidence: ThreadSignal = {
  name: 'evidence',
  needs: 'diffs',
  decide: ({ thread, facts, before }) => {
    if (!facts.evidenceScope.has(thread.id)) {
      // Outside the scope only when an earlier signal already rules the thread out (or it has no location).
      return {
        ...unmet(() => {
          if (!thread.occurrences.some(located)) return [m.evidenceNoLocation, m.evidenceNoLocationChange];
          const first = before.find((s) => !s.decision.met);
          return [m.notChecked(first?.name ?? 'the gate'), (first && first.decision.texts().change) ?? m.evidenceChange];
        }),
        hit: null,
      };
    }
    const candidates = thread.occurrences.filter(located);
    if (candidates.length === 0) return { ...unmet(() => [m.evidenceNoLocation, m.evidenceNoLocationChange]), hit: null };
    const hit = candidates.find((o) => intersects(lineRange(o.line)!, facts.changed.get(o.commit)?.get(o.file!))) ?? null;
    return hit
      ? { ...met(() => m.evidenceMet(hit.file!, hit.line!, hit.commit)), hit }
      : { ...unmet(() => [m.evidenceUnmet(candidates.length), m.evidenceChange]), hit: null };
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

const signalOf = (name: SignalName, d: Decision): Signal => ({ name, met: d.met, ...d.texts() });

/** Which signals hold, as a record shared by every thread with the same outcome (at most 2^7). */
const metRecords = new Map<number, Readonly<Record<SignalName, boolean>>>();
function metRecord(bits: number): Readonly<Record<SignalName, boolean>> {
  let record = metRecords.get(bits);
  if (!record) metRecords.set(bits, (record = Object.freeze(Object.fromEntries(SIGNALS.map((n, i) => [n, (bits & bit(n)) !== 0])) as Record<SignalName, boolean>)));
  return record;
}
const bit = (name: SignalName) => 1 << SIGNALS.indexOf(name);
const THREAD_BITS = THREAD_SIGNALS.reduce((bits, s) => bits | bit(s.name), 0);

/** A thread's signals as decided: which hold (a bit per SIGNALS entry), and the decisions themselves only when explained. */
interface Decided {
  thread: Thread;
  bits: number;
  decisions: Map<SignalName, Decision> | null;
  accept: MinedFinding | null;
  hit: MinedFinding | null;
}

/** Every thread signal, decided in registry order, with the ACCEPT and evidence occurrences. */
function decideThread(thread: Thread, facts: GateFacts, keep: boolean): Decided {
  const ctx = context(thread, facts);
  const before: Array<{ name: SignalName; decision: Decision }> = [];
  const decisions = keep ? new Map<SignalName, Decision>() : null;
  let hit: MinedFinding | null = null;
  let bits = 0;
  for (const def of THREAD_SIGNALS) {
    const decision = def.decide({ ...ctx, before });
    if (decision.hit !== undefined) hit = decision.hit;
    if (decision.met) bits |= bit(def.name);
    before.push({ name: def.name, decision });
    decisions?.set(def.name, decision);
  }
  return { thread, bits, decisions, accept: ctx.accept, hit };
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
      const decisions = d.decisions;
      const signals = decisions
        ? (Object.fromEntries(SIGNALS.map((n) => [n, n === 'generalizable' ? generalizable : signalOf(n, decisions.get(n)!)])) as Record<SignalName, Signal>)
        : null;
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
