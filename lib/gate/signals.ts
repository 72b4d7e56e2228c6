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

/**
 * Whether merged, resolved, fix_commit, not_dismissed and ci_successful all hold (the same
 * decisions as threadSignals, without composing its texts): decides whose diffs are read.
 */
export function mayQualify(thread: Thread, facts: GateFacts): boolean {
  if (thread.state !== 'ACCEPT' || !thread.file || !facts.mainline) return false;
  const accept = latestAccept(thread, facts)!;
  if (!facts.reachable.has(accept.commit) || !facts.touched.get(accept.commit)?.has(thread.file)) return false;
  if (thread.occurrences.some((o) => o.verdict === 'REJECT') || !facts.present.has(thread.file)) return false;
  return outcomeOf(facts.ci.get(accept.commit)) === 'pass';
}

/** Every signal but `generalizable` (which needs the other threads of the rule). */
export function threadSignals(
  thread: Thread,
  facts: GateFacts,
): Omit<Record<SignalName, Signal>, 'generalizable'> & { accept: MinedFinding | null; hit: MinedFinding | null } {
  const accept = latestAccept(thread, facts);
  const mainlineName = facts.mainline?.name ?? 'the mainline';
  const latest = thread.occurrences[thread.occurrences.length - 1]!;

  let merged: Signal;
  if (!accept) merged = unmet('merged', m.noAccept, m.recordAccept(thread.id, mainlineName));
  else if (!facts.mainline) merged = unmet('merged', m.noMainline(facts.mainlineProblem ?? ''), m.setMainline);
  else if (facts.reachable.has(accept.commit)) merged = met('merged', m.mergedMet(accept.commit, mainlineName));
  else merged = unmet('merged', m.mergedUnmet(accept.commit, mainlineName), m.mergeIt(accept.commit, mainlineName));

  const resolved =
    thread.state === 'ACCEPT'
      ? met('resolved', m.resolvedMet(latest.commit))
      : unmet('resolved', m.resolvedUnmet(thread.state, latest.commit), m.resolveIt(thread.id));

  let fix: Signal;
  if (!accept) fix = unmet('fix_commit', m.noFixCommit, m.recordAccept(thread.id, mainlineName));
  else if (!thread.file) fix = unmet('fix_commit', m.noFile, m.noFileChange);
  else {
    const files = facts.touched.get(accept.commit) ?? new Set<string>();
    fix = files.has(thread.file)
      ? met('fix_commit', m.fixMet(accept.commit, thread.file))
      : unmet('fix_commit', m.fixUnmet(accept.commit, thread.file, files.size), m.fixIt(thread.file));
  }

  let dismissed: Signal;
  const reject = [...thread.occurrences].reverse().find((o) => o.verdict === 'REJECT');
  if (reject) dismissed = unmet('not_dismissed', m.rejected(reject.commit, reject.rationale), m.rejectedChange);
  else if (!thread.file) dismissed = unmet('not_dismissed', m.noFile, m.noFileChange);
  else if (!facts.mainline) dismissed = unmet('not_dismissed', m.noMainlineForFile(thread.file), m.setMainline);
  else if (!facts.present.has(thread.file)) dismissed = unmet('not_dismissed', m.fileGone(thread.file, mainlineName), m.fileGoneChange(thread.file, mainlineName));
  else dismissed = met('not_dismissed', m.notDismissedMet(thread.file, mainlineName));

  let ci: Signal;
  if (!accept) ci = unmet('ci_successful', m.noFixCommit, m.recordAccept(thread.id, mainlineName));
  else {
    const note = facts.ci.get(accept.commit);
    const outcome = outcomeOf(note);
    if (outcome === 'pass') ci = met('ci_successful', m.ciPass(accept.commit));
    else if (outcome === 'fail') ci = unmet('ci_successful', m.ciFail(accept.commit), m.ciFailChange(accept.commit));
    else if (outcome === 'none') ci = unmet('ci_successful', m.ciNone(accept.commit), m.ciNoneChange(accept.commit));
    else ci = unmet('ci_successful', m.ciOther(accept.commit, note ?? ''), m.ciOtherChange(accept.commit));
  }

  let evidence: Signal;
  let hit: MinedFinding | null = null;
  const located = thread.occurrences.filter((o) => o.file && lineRange(o.line));
  if (located.length === 0) evidence = unmet('evidence', m.evidenceNoLocation, m.evidenceNoLocationChange);
  else if (!facts.evidenceScope.has(thread.id)) {
    // Outside the scope only when an earlier signal already rules the thread out.
    const first = [merged, resolved, fix, dismissed, ci].find((s) => !s.met);
    evidence = unmet('evidence', m.notChecked(first?.name ?? 'the gate'), first?.change ?? m.evidenceChange);
  } else {
    hit = located.find((o) => intersects(lineRange(o.line)!, facts.changed.get(o.commit)?.get(o.file!))) ?? null;
    evidence = hit
      ? met('evidence', m.evidenceMet(hit.file!, hit.line!, hit.commit))
      : unmet('evidence', m.evidenceUnmet(located.length), m.evidenceChange);
  }
  return { accept, hit, merged, resolved, fix_commit: fix, not_dismissed: dismissed, ci_successful: ci, evidence };
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
    const six = (p: (typeof list)[number]) =>
      p.merged.met && p.resolved.met && p.fix_commit.met && p.not_dismissed.met && p.ci_successful.met && p.evidence.met;
    const qualifyingPartial = list.filter(six);
    const files = [...new Set(qualifyingPartial.map((p) => p.thread.file!))].sort();
    const enough = qualifyingPartial.length >= minRecurrence && files.length >= 2;
    const fact = m.general(rule, qualifyingPartial.length, files.length, minRecurrence);
    const generalizable = enough
      ? met('generalizable', fact)
      : unmet('generalizable', fact, m.generalChange(rule, Math.max(0, minRecurrence - qualifyingPartial.length), files.length < 2));
    const gates: ThreadGate[] = list.map((p) => {
      const signals = {
        merged: p.merged,
        resolved: p.resolved,
        fix_commit: p.fix_commit,
        not_dismissed: p.not_dismissed,
        ci_successful: p.ci_successful,
        generalizable,
        evidence: p.evidence,
      } satisfies Record<SignalName, Signal>;
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
