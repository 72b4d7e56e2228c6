/**
 * Threads (docs/record.md "Counting"): every occurrence of one finding ID, oldest first. Copies
 * of a record (a cherry-pick, a merge, a rebase leftover in a body) are occurrences of the same
 * thread, not new findings. A thread's state is its latest human verdict, OPEN while it has
 * none: a copied OPEN row after a verdict does not reopen it.
 */
import type { CommitResult, MinedFinding } from '../mine/types.js';
import type { Thread } from './types.js';
import {
  personOf,
  tallyRules,
  type CalibrationSettings,
  type Occurrence,
  type RuleTally,
} from '../record/rule-tally.js';
import { answerSigners, reviewersFileAt } from '../record/answer-signers.js';

/** Every mined occurrence oldest first (commits come newest first; each keeps its message order). */
export function occurrencesOf(commits: readonly CommitResult[]): Occurrence[] {
  const out: Occurrence[] = [];
  for (let c = commits.length - 1; c >= 0; c--) {
    for (const f of commits[c]!.findings)
      out.push({
        id: f.id,
        rule_source: f.rule_source,
        verdict: f.verdict,
        commit: f.commit,
        date: f.date,
        author: personOf(f.author),
      });
  }
  return out;
}

/** Per-rule numbers of mined history: the computation the review's calibration uses too (lib/record/rule-tally.ts). */
export function ruleTallies(commits: readonly CommitResult[], settings?: CalibrationSettings): RuleTally[] {
  return tallyRules(occurrencesOf(commits), settings);
}

/**
 * Where the policy names reviewers (`reviewersFile`: config gate.reviewers.file, relative to
 * `top`), the verified signers of the commits carrying answers, for the tally's `signers`
 * (docs/gate.md "Calibration"); undefined otherwise, so people are the answers' authors.
 */
export async function minedSigners(
  top: string,
  commits: readonly CommitResult[],
  reviewersFile: string | undefined,
): Promise<ReadonlyMap<string, string> | undefined> {
  if (reviewersFile === undefined) return undefined;
  const answered = commits.flatMap((c) => c.findings.filter((f) => f.verdict !== 'OPEN').map((f) => f.commit));
  return answerSigners(top, answered, reviewersFileAt(top, reviewersFile));
}

/** `commits` in git log order (newest first), as mining yields them. Threads come oldest first. */
export function buildThreads(commits: readonly CommitResult[]): Thread[] {
  const byId = new Map<string, MinedFinding[]>();
  for (let c = commits.length - 1; c >= 0; c--) {
    for (const f of commits[c]!.findings) {
      const list = byId.get(f.id);
      if (list) list.push(f);
      else byId.set(f.id, [f]);
    }
  }
  const threads: Thread[] = [];
  for (const [id, grown] of byId) {
    // Held as long as the gate's report: exactly as long as it is (push leaves room for more).
    const occurrences = grown.length === 1 ? grown : grown.slice();
    const latest = occurrences[occurrences.length - 1]!;
    let answered: MinedFinding | undefined;
    for (let i = occurrences.length - 1; i >= 0 && !answered; i--)
      if (occurrences[i]!.verdict !== 'OPEN') answered = occurrences[i];
    let located: MinedFinding | undefined;
    for (let i = occurrences.length - 1; i >= 0 && !located; i--) if (occurrences[i]!.file) located = occurrences[i];
    threads.push({
      id,
      occurrences,
      state: answered?.verdict ?? 'OPEN',
      rule_source: latest.rule_source,
      file: located?.file ?? null,
      line: located?.line ?? null,
      issue: latest.issue,
      category: latest.category,
    });
  }
  return threads;
}

// Words with single spaces between them: nothing for squeeze to change (most rationales).
const SQUEEZED = /^\S+(?: \S+)*$/;
const squeeze = (s: string) => (SQUEEZED.test(s) ? s : s.replace(/\s+/g, ' ').trim());

/** The latest ACCEPT and its copies (same rationale), oldest first: the record of the fix. */
export function acceptCopies(thread: Thread): MinedFinding[] {
  let latest: MinedFinding | undefined;
  for (let i = thread.occurrences.length - 1; i >= 0 && !latest; i--)
    if (thread.occurrences[i]!.verdict === 'ACCEPT') latest = thread.occurrences[i];
  if (!latest) return [];
  const fix = latest;
  let rationale: string | undefined;
  return thread.occurrences.filter((o) => {
    if (o.verdict !== 'ACCEPT') return false;
    if (o === fix || o.rationale === fix.rationale) return true;
    rationale ??= squeeze(fix.rationale);
    return squeeze(o.rationale) === rationale;
  });
}

/** What tells the commit that really carries a fix from a copy of its record. */
export interface FixFacts {
  /** Files each commit's first-parent diff touches. */
  touched: ReadonlyMap<string, ReadonlySet<string>>;
  /** Commits reachable from the mainline. */
  reachable: ReadonlySet<string>;
}

/**
 * The occurrence carrying the latest ACCEPT. Among its copies, the first (oldest) whose commit
 * changes the thread's file and is on the mainline, then one that changes the file, then one on
 * the mainline, then the oldest: a merge or a cherry-pick that copied the row is not the fix.
 */
export function latestAccept(thread: Thread, facts?: FixFacts): MinedFinding | null {
  const copies = acceptCopies(thread);
  if (copies.length <= 1 || !facts) return copies[0] ?? null;
  const touches = (o: MinedFinding) => !!thread.file && !!facts.touched.get(o.commit)?.has(thread.file);
  const onMainline = (o: MinedFinding) => facts.reachable.has(o.commit);
  return (
    copies.find((o) => touches(o) && onMainline(o)) ?? copies.find(touches) ?? copies.find(onMainline) ?? copies[0]!
  );
}
