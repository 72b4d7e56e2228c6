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

const met = (name: SignalName, fact: string): Signal => ({ name, met: true, fact, change: null });
const unmet = (name: SignalName, fact: string, change: string): Signal => ({ name, met: false, fact, change });

/** What a thread signal decides on: the thread, the facts, and the signals decided before it. */
interface ThreadContext {
  thread: Thread;
  facts: GateFacts;
  accept: MinedFinding | null;
  latest: MinedFinding;
  mainlineName: string;
  /** The signals decided so far, in registry order. */
  before: readonly Signal[];
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
  decide(ctx: ThreadContext): Signal & { hit?: MinedFinding | null };
}

const merged: ThreadSignal = {
  name: 'merged',
  needs: 'history',
  decide: ({ thread, facts, accept, mainlineName }) => {
    if (!accept) return unmet('merged', m.noAccept, m.recordAccept(thread.id, mainlineName));
    if (!facts.mainline) return unmet('merged', m.noMainline(facts.mainlineProblem ?? ''), m.setMainline);
    if (facts.reachable.has(accept.commit)) return met('merged', m.mergedMet(accept.commit, mainlineName));
    return unmet('merged', m.mergedUnmet(accept.commit, mainlineName), m.mergeIt(accept.commit, mainlineName));
  },
};

const resolved: ThreadSignal = {
  name: 'resolved',
  needs: 'history',
  decide: ({ thread, latest }) =>
    thread.state === 'ACCEPT'
      ? met('resolved', m.resolvedMet(latest.commit))
      : unmet('resolved', m.resolvedUnmet(thread.state, latest.commit), m.resolveIt(thread.id)),
};

const fixCommit: ThreadSignal = {
  name: 'fix_commit',
  needs: 'history',
  decide: ({ thread, facts, accept, mainlineName }) => {
    if (!accept) return unmet('fix_commit', m.noFixCommit, m.recordAccept(thread.id, mainlineName));
    if (!thread.file) return unmet('fix_commit', m.noFile, m.noFileChange);
    const files = facts.touched.get(accept.commit) ?? new Set<string>();
    return files.has(thread.file)
      ? met('fix_commit', m.fixMet(accept.commit, thread.file))
      : unmet('fix_commit', m.fixUnmet(accept.commit, thread.file, files.size), m.fixIt(thread.file));
  },
};

const notDismissed: ThreadSignal = {
  name: 'not_dismissed',
  needs: 'history',
  decide: ({ thread, facts, mainlineName }) => {
    const reject = [...thread.occurrences].reverse().find((o) => o.verdict === 'REJECT');
    if (reject) return unmet('not_dismissed', m.rejected(reject.commit, reject.rationale), m.rejectedChange);
    if (!thread.file) return unmet('not_dismissed', m.noFile, m.noFileChange);
    if (!facts.mainline) return unmet('not_dismissed', m.noMainlineForFile(thread.file), m.setMainline);
    if (!facts.present.has(thread.file)) return unmet('not_dismissed', m.fileGone(thread.file, mainlineName), m.fileGoneChange(thread.file, mainlineName));
    return met('not_dismissed', m.notDismissedMet(thread.file, mainlineName));
  },
};

const ciSuccessful: ThreadSignal = {
  name: 'ci_successful',
  needs: 'history',
  decide: ({ thread, facts, accept, mainlineName }) => {
    if (!accept) return unmet('ci_successful', m.noFixCommit, m.recordAccept(thread.id, mainlineName));
    const note = facts.ci.get(accept.commit);
    const outcome = outcomeOf(note);
    if (outcome === 'pass') return met('ci_successful', m.ciPass(accept.commit));
    if (outcome === 'fail') return unmet('ci_successful', m.ciFail(accept.commit), m.ciFailChange(accept.commit));
    if (outcome === 'none') return unmet('ci_successful', m.ciNone(accept.commit), m.ciNoneChange(accept.commit));
    return unmet('ci_successful', m.ciOther(accept.commit, note ?? ''), m.ciOtherChange(accept.commit));
  },
};

const evidence: ThreadSignal = {
  name: 'evidence',
  needs: 'diffs',
  decide: ({ thread, facts, before }) => {
    const located = thread.occurrences.filter((o) => o.file && lineRange(o.line));
    if (located.length === 0) return unmet('evidence', m.evidenceNoLocation, m.evidenceNoLocationChange);
    if (!facts.evidenceScope.has(thread.id)) {
      // Outside the scope only when an earlier signal already rules the thread out.
      const first = before.find((s) => !s.met);
      return unmet('evidence', m.notChecked(first?.name ?? 'the gate'), first?.change ?? m.evidenceChange);
    }
    const hit = located.find((o) => intersects(lineRange(o.line)!, facts.changed.get(o.commit)?.get(o.file!))) ?? null;
    return hit
      ? { ...met('evidence', m.evidenceMet(hit.file!, hit.line!, hit.commit)), hit }
      : { ...unmet('evidence', m.evidenceUnmet(located.length), m.evidenceChange), hit: null };
  },
};

/** The per-thread signals, in the order they are decided (`generalizable` is the rule's). */
export const THREAD_SIGNALS: readonly ThreadSignal[] = [merged, resolved, fixCommit, notDismissed, ciSuccessful, evidence];

function context(thread: Thread, facts: GateFacts): ThreadContext {
  return {
    thread,
    facts,
    accept: latestAccept(thread),
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

type ThreadSignals = Partial<Record<SignalName, Signal>>;

/** Every thread signal, decided in registry order, with the ACCEPT and evidence occurrences. */
export function threadSignals(thread: Thread, facts: GateFacts): { signals: ThreadSignals; accept: MinedFinding | null; hit: MinedFinding | null } {
  const ctx = context(thread, facts);
  const decided: Signal[] = [];
  const signals: ThreadSignals = {};
  let hit: MinedFinding | null = null;
  for (const def of THREAD_SIGNALS) {
    const { hit: found, ...signal } = def.decide({ ...ctx, before: decided });
    if (found !== undefined) hit = found;
    decided.push(signal);
    signals[def.name] = signal;
  }
  return { signals, accept: ctx.accept, hit };
}

/** Signals of every thread, then `generalizable` per rule_source. */
export function judge(threads: readonly Thread[], facts: GateFacts, minRecurrence: number): GateReport {
  const partial = threads.map((thread) => ({ thread, ...threadSignals(thread, facts) }));
  const byRule = new Map<string, typeof partial>();
  for (const p of partial) {
    const list = byRule.get(p.thread.rule_source);
    if (list) list.push(p);
    else byRule.set(p.thread.rule_source, [p]);
  }
  const all: ThreadGate[] = [];
  const rules: RuleGate[] = [];
  for (const [rule, list] of [...byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const qualifyingPartial = list.filter((p) => THREAD_SIGNALS.every((def) => p.signals[def.name]?.met));
    const files = [...new Set(qualifyingPartial.map((p) => p.thread.file!))].sort();
    const enough = qualifyingPartial.length >= minRecurrence && files.length >= 2;
    const fact = m.general(rule, qualifyingPartial.length, files.length, minRecurrence, THREAD_SIGNALS.length);
    const generalizable = enough
      ? met('generalizable', fact)
      : unmet('generalizable', fact, m.generalChange(rule, Math.max(0, minRecurrence - qualifyingPartial.length), files.length < 2));
    const gates: ThreadGate[] = list.map((p) => {
      const signals = Object.fromEntries(SIGNALS.map((n) => [n, n === 'generalizable' ? generalizable : p.signals[n]!])) as Record<SignalName, Signal>;
      return { thread: p.thread, accept: p.accept, evidence: p.hit, signals, passed: SIGNALS.every((n) => signals[n].met) };
    });
    all.push(...gates);
    rules.push({
      rule_source: rule,
      threads: gates,
      qualifying: gates.filter((g) => qualifyingPartial.some((p) => p.thread === g.thread)),
      files,
      minRecurrence,
      passed: enough,
      generalizable,
    });
  }
  const order = new Map(threads.map((t, i) => [t, i]));
  all.sort((a, b) => order.get(a.thread)! - order.get(b.thread)!);
  return { mainline: facts.mainline, mainlineProblem: facts.mainlineProblem, threads: all, rules };
}
