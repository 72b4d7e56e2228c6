/** `candidates --explain ID|RULE_SOURCE`: every signal, met or not, with its fact and its remedy. */
import type { GateReport, Signal, ThreadGate } from '../gate/types.js';
import { SIGNALS } from '../gate/types.js';
import { THREAD_SIGNALS } from '../gate/signals/index.js';
import type { CandidateSet } from './build.js';
import type { RuleTally } from '../record/rule-tally.js';
import { escapeControl as esc, type Paint } from '../core/output.js';
import { candidatesMessages as m, refineMessages as rm } from '../messages/candidates.js';
import type { RefinementTrial } from './refine.js';

export interface ThreadExplanation {
  id: string;
  rule_source: string;
  file: string | null;
  line: string | null;
  state: string;
  occurrences: number;
  passed: boolean;
  signals: Signal[];
}

export interface Explanation {
  target: string;
  kind: 'thread' | 'rule_source';
  rule_source: string;
  candidate: { status: 'candidate' | 'in_bundle' | 'gate_unmet'; id: string | null; document: string | null };
  rule: {
    threads: number;
    qualifying: number;
    files: string[];
    min_recurrence: number;
    passed: boolean;
    /** The rule signals, in registry order. */
    signals: Signal[];
    /** The `generalizable` entry of `signals`, as before the registry had other rule signals. */
    generalizable: Signal;
  };
  /** The rule's numbers as the review calibrates with them (the same as `stats`). */
  calibration: RuleCalibration | null;
  threads: ThreadExplanation[];
  /** The refinements of a bundle rule the gate tried (./refine.ts), each with its checks. */
  refinements: RefinementTrial[];
}

export interface RuleCalibration {
  rejected: number;
  verdicts: number;
  rate: number | null;
  /** Demoted: its findings no longer block a review. */
  calibrated: boolean;
  exempt: boolean;
  /** How many distinct people its REJECTs come from (a demotion needs gate.minAuthors; docs/gate.md "Calibration"). */
  rejecting_people: number;
  since: { commit: string | null; finding: string; verdict: string } | null;
}

function calibrationOf(t: RuleTally | undefined): RuleCalibration | null {
  if (!t) return null;
  const since = t.since ? { commit: t.since.commit, finding: t.since.id, verdict: t.since.verdict } : null;
  return {
    rejected: t.rejected,
    verdicts: t.verdicts,
    rate: t.rate,
    calibrated: t.demoted,
    exempt: t.exempt,
    rejecting_people: t.agreeing,
    since,
  };
}

function threadOf(g: ThreadGate): ThreadExplanation {
  const signals = g.signals;
  // runCandidates asks the gate to explain exactly the threads named here.
  if (!signals) throw new Error(`gate: thread ${g.thread.id} was not explained`);
  return {
    id: g.thread.id,
    rule_source: g.thread.rule_source,
    file: g.thread.file,
    line: g.thread.line,
    state: g.thread.state,
    occurrences: g.thread.occurrences.length,
    passed: g.passed,
    signals: SIGNALS.map((s) => signals[s]),
  };
}

/** null when the target names neither a thread nor a rule_source of the history. */
export function explain(
  report: GateReport,
  target: string,
  set: CandidateSet,
  tallies: readonly RuleTally[] = [],
  refinements: RefinementTrial[] = [],
): Explanation | null {
  const thread = report.threads.find((g) => g.thread.id === target);
  const ruleSource = thread ? thread.thread.rule_source : target;
  const rule = report.rules.find((r) => r.rule_source === ruleSource);
  if (!rule) return null;
  const candidate = set.candidates.find((c) => c.rule_source === ruleSource);
  const owner = set.owned.find((b) => b.rule_source === ruleSource);
  return {
    target,
    kind: thread ? 'thread' : 'rule_source',
    rule_source: ruleSource,
    candidate: candidate
      ? { status: 'candidate', id: candidate.id, document: null }
      : owner
        ? { status: 'in_bundle', id: null, document: owner.document }
        : { status: 'gate_unmet', id: null, document: null },
    rule: {
      threads: rule.threads.length,
      qualifying: rule.qualifying.length,
      files: rule.files,
      min_recurrence: rule.minRecurrence,
      passed: rule.passed,
      signals: rule.signals,
      generalizable: rule.signals.find((s) => s.name === 'generalizable')!,
    },
    calibration: calibrationOf(tallies.find((t) => t.rule_source === ruleSource)),
    threads: (thread ? [thread] : rule.threads).map(threadOf),
    refinements,
  };
}

export function formatExplanation(e: Explanation, paint: Paint): string {
  const out: string[] = [];
  if (e.kind === 'rule_source')
    out.push(
      paint.bold(
        m.explainRule(
          esc(e.rule_source),
          e.rule.threads,
          e.rule.qualifying,
          e.rule.min_recurrence,
          THREAD_SIGNALS.length,
        ),
      ),
    );
  const width = Math.max(...SIGNALS.map((s) => s.length));
  for (const t of e.threads) {
    const where = t.file ? `${esc(t.file)}${t.line ? `:${t.line}` : ''}` : '';
    out.push(paint.bold(m.explainThread(t.id, esc(t.rule_source), where, t.state, t.occurrences)));
    for (const s of t.signals) {
      const mark = s.met ? paint.green(m.signalMet.padEnd(5)) : paint.red(m.signalUnmet.padEnd(5));
      out.push(`  ${mark}  ${s.name.padEnd(width)}  ${esc(s.fact)}`);
      if (!s.met && s.change) out.push(`  ${' '.repeat(5)}  ${' '.repeat(width)}  ${paint.dim(`-> ${esc(s.change)}`)}`);
    }
  }
  if (e.calibration) out.push(calibrationLine(e.calibration));
  if (e.candidate.status === 'candidate') out.push(m.explainCandidate(e.candidate.id!));
  else if (e.candidate.status === 'in_bundle') out.push(m.explainInBundle(esc(e.candidate.document!)));
  else out.push(m.explainNotCandidate);
  if (e.refinements.length) out.push(rm.explainHeading);
  for (const r of e.refinements) {
    out.push(rm.explainTrial(r.kind, esc(r.folder), r.passed));
    for (const c of r.checks) {
      const mark = c.met ? paint.green(m.signalMet.padEnd(5)) : paint.red(m.signalUnmet.padEnd(5));
      out.push(`    ${mark}  ${c.name.padEnd(15)}  ${esc(c.fact)}`);
    }
  }
  return out.join('\n') + '\n';
}

function calibrationLine(c: RuleCalibration): string {
  if (c.calibrated && c.since)
    return m.explainCalibrated(c.rejected, c.verdicts, c.since.verdict, c.since.finding, c.since.commit);
  return m.explainNotCalibrated(c.rejected, c.verdicts, c.exempt);
}
