/**
 * The whole tree at HEAD as one change (docs/review.md "The whole tree"): every tracked file
 * reviewed as if added, the diff from the empty tree to HEAD. `review --all` and `baseline`
 * read it. The rule phase's budget is lifted for it (a hook's budget guards against a hostile
 * rule, not a big tree): each bundle rule keeps a deadline that grows with the tree, and the
 * sandbox still stops a pattern that backtracks on one file.
 */
import { emptyTree, lsTree, peel, run, stream, treeDiff } from '../core/git/commands.js';
import { RULE_DEADLINE_MS } from '../review/engine/time.js';
import { InputError } from '../core/errors.js';
import type { DiffSource } from '../diff/types.js';
import { readDiff } from '../diff/source.js';
import { DEFAULT_CAPS, readCapped, type CappedDiff } from '../diff/cap.js';
import { runReview } from '../review/index.js';
import type { ReviewOptions, ReviewResult } from '../review/types.js';
import type { Workspace } from '../workspace/index.js';
import { EVENTS, SEVERITY_RANK } from '../core/vocabulary.js';
import { flowMessages as m } from '../messages/flows.js';
import { reviewMessages as r } from '../messages/review.js';

/** A bundle rule's time per file of the tree, beyond RULE_DEADLINE_MS: a rule that is slower than this is hostile. */
const DEADLINE_PER_FILE_MS = 5;

export interface WholeTree {
  /** The diff from the empty tree to HEAD's commit. */
  source: DiffSource;
  /** HEAD's commit. */
  commit: string;
  /** The tracked files at HEAD. */
  files: number;
  ruleTime: NonNullable<ReviewOptions['ruleTime']>;
  /** The tracked files in batches whose blobs together stay under the whole diff's cap (one batch for most trees). */
  batches: string[][];
}

/**
 * Bytes of blobs one batch of the tree holds: half the whole diff's cap, so no file of a big tree
 * is cut to its header by that cap. REVTRAIL_WHOLE_TREE_BATCH_BYTES is a test knob.
 */
function batchBytes(): number {
  const given = Number(process.env.REVTRAIL_WHOLE_TREE_BATCH_BYTES);
  return Number.isFinite(given) && given > 0 ? given : DEFAULT_CAPS.totalBytes / 2;
}
/** Paths one batch names on git's command line. */
const BATCH_PATHS = 2000;

export async function wholeTree(top: string): Promise<WholeTree> {
  const commit = await run(peel('HEAD'), { cwd: top });
  if (commit === null) throw new InputError(m.noCommitYet, { remedy: m.noCommitYetRemedy });
  const [empty, entries] = await Promise.all([
    run(emptyTree, { cwd: top }),
    run(lsTree(commit, [], { recursive: true, sizes: true }), { cwd: top }),
  ]);
  const batches: string[][] = [[]];
  let bytes = 0;
  const most = batchBytes();
  for (const e of entries) {
    const size = e.size ?? 0;
    if (batches.at(-1)!.length && (bytes + size > most || batches.at(-1)!.length >= BATCH_PATHS)) {
      batches.push([]);
      bytes = 0;
    }
    batches.at(-1)!.push(e.path);
    bytes += size;
  }
  return {
    batches,
    source: { kind: 'range', range: `${empty}..${commit}` },
    commit,
    files: entries.length,
    ruleTime: {
      budgetMs: Number.POSITIVE_INFINITY,
      deadlineMs: RULE_DEADLINE_MS + DEADLINE_PER_FILE_MS * entries.length,
    },
  };
}

/**
 * The whole tree reviewed (`review --all`, `baseline`): one review of the diff from the empty
 * tree, or, for a tree larger than a batch, one review per batch of files with the results put
 * together, so that memory holds one batch's diff at a time. `each`: every batch's result with
 * its diff's text (the baseline reads the flagged lines from it).
 */
export async function reviewWholeTree(
  session: Workspace,
  tree: WholeTree,
  options: Omit<ReviewOptions, 'cwd' | 'source' | 'ruleTime'>,
  each?: (result: ReviewResult, diff: CappedDiff) => void,
): Promise<ReviewResult> {
  const top = session.top;
  if (tree.batches.length === 1) {
    const diff = readDiff(top, tree.source);
    const result = await runReview(
      session,
      { ...options, cwd: top, source: tree.source, ruleTime: tree.ruleTime },
      diff,
    );
    each?.(result, await diff);
    return result;
  }
  const range = (tree.source as { range: string }).range;
  const [from, to] = range.split('..') as [string, string];
  const results: ReviewResult[] = [];
  for (const batch of tree.batches) {
    const diff = readCapped(stream(treeDiff(from, to, batch, DEFAULT_CAPS.fileBytes), { cwd: top }));
    const result = await runReview(
      session,
      { ...options, cwd: top, source: { kind: 'range', range, text: diff }, ruleTime: tree.ruleTime },
      diff,
    );
    each?.(result, await diff);
    results.push(result);
  }
  return mergeResults(results);
}

/** Results of several batches as one review's (the same findings, counts and event as one review of all). */
export function mergeResults(results: readonly ReviewResult[]): ReviewResult {
  const all = <K extends 'findings' | 'suppressed' | 'allowed' | 'baselined' | 'knowledge_docs' | 'notes'>(key: K) =>
    results.flatMap((x) => (x[key] ?? []) as NonNullable<ReviewResult[K]>[number][]);
  const findings = all('findings');
  const dropped = { ...results[0]!.dropped };
  for (const x of results.slice(1))
    for (const [k, n] of Object.entries(x.dropped)) dropped[k as keyof typeof dropped] += n;
  const bySeverity = SEVERITY_RANK.map(
    (s) => [s, findings.filter((f) => f.severity === s).length] as [string, number],
  ).filter(([, n]) => n > 0);
  const baselined = all('baselined');
  const first = r.summary(
    findings.length,
    new Set(findings.map((f) => f.path)).size,
    bySeverity,
    all('suppressed').length,
    Object.values(dropped).reduce((a, b) => a + b, 0),
    findings.filter((f) => f.calibration).length,
  );
  return {
    version: 1,
    summary: [
      baselined.length ? `${first.slice(0, -1)}; ${r.baselinedSummary(baselined.length)}.` : first,
      ...results.flatMap((x) => x.summary.split('\n').slice(1)),
    ].join('\n'),
    event: EVENTS[Math.max(...results.map((x) => EVENTS.indexOf(x.event)))]!,
    findings,
    suppressed: all('suppressed'),
    allowed: all('allowed'),
    ...(baselined.length ? { baselined } : {}),
    knowledge_docs: all('knowledge_docs'),
    merged_findings: results.reduce((a, x) => a + x.merged_findings, 0),
    dropped,
    warnings: [...new Set(results.flatMap((x) => x.warnings))],
    notes: all('notes'),
  };
}
