/**
 * The report flow (docs/architecture.md "Use cases"): `revtrail review` over any diff source,
 * as a report rather than a hook's stop. One workspace for the whole run (the repository found
 * once, a `--policy-from` commit's policy copied out and opened as that workspace's policy), one
 * review, and the findings remembered so that `revtrail verdict` can answer them. The command
 * only parses the flags and prints what this answers.
 */
import { UsageError } from '../core/errors.js';
import { findRepo, type Repo } from '../core/git/repo.js';
import { NotARepositoryError } from '../core/git/errors.js';
import { peel, refsNamed, run } from '../core/git/commands.js';
import { readDiff } from '../diff/source.js';
import type { DiffSource } from '../diff/types.js';
import { openWorkspace } from '../workspace/index.js';
import { runReview, type ReviewOptions } from '../review/index.js';
import type { ReviewResult } from '../review/types.js';
import { serverMessages as s } from '../messages/hooks.js';
import { readQueueIfAny } from '../verdicts/queued.js';
import { rememberReview } from '../verdicts/peek.js';
import { copyPolicy } from './policy-tree.js';
import * as wholeTree from './whole-tree.js';

export interface ReportInput {
  cwd: string;
  source: DiffSource;
  /** `--knowledge` as typed (relative to `cwd`). */
  knowledge?: string;
  /** `--policy-from REF`: the config, bundle and doc map of that commit, not the work tree's. */
  policyFrom?: string;
  /** The review's own options (reviewer, model, confidence, calibration, progress). */
  review: Pick<ReviewOptions, 'reviewer' | 'model' | 'softTests' | 'minConfidence' | 'calibration' | 'onProgress'>;
  /** `--all`: every tracked file at HEAD reviewed as if added, `source` aside (./whole-tree.ts). */
  all?: boolean;
}

export interface ReportOutcome {
  result: ReviewResult;
  /** 1 when the event is REQUEST_CHANGES, else 0. */
  exit: 0 | 1;
  /** What the policy copy left out (`--policy-from`), to be said before the report. */
  policyWarnings: string[];
}

export async function reportFlow(input: ReportInput): Promise<ReportOutcome> {
  const { cwd } = input;
  const whole = input.all ? wholeTree : null;
  const tree = whole ? await whole.wholeTree(cwd) : null;
  const source = tree?.source ?? input.source;
  // git writes the diff on the other core while the workspace opens (docs/review.md "Time of a
  // large review"); should the workspace fail, its error is the one said.
  // The whole tree is read in batches by its own review (./whole-tree.ts).
  const diff = source.kind === 'text' || tree ? undefined : readDiff(cwd, source);
  diff?.catch(() => {});
  let repo: Repo | null = null;
  try {
    repo = await findRepo(cwd);
  } catch (error) {
    // A --diff file may be reviewed outside a repository; every other source, and a policy, needs one.
    if (source.kind !== 'text' || input.policyFrom !== undefined || !(error instanceof NotARepositoryError))
      throw error;
  }
  const policy = input.policyFrom === undefined || repo === null ? null : await policyOf(repo, input.policyFrom);
  const workspace = await openWorkspace(cwd, {
    needRepo: source.kind !== 'text',
    repo: repo ?? undefined,
    knowledge: input.knowledge ?? policy?.knowledge,
    policyTop: policy?.dir,
    policyCommit: policy?.commit ?? undefined,
  });
  const result =
    whole && tree
      ? await whole.reviewWholeTree(workspace, tree, input.review)
      : await runReview(
          workspace,
          {
            cwd,
            source,
            ...input.review,
            // Queued verdicts count locally, never for a range: what is pushed carries its own answers.
            queued: source.kind === 'range' ? undefined : readQueueIfAny,
          },
          diff,
        );
  if (repo) {
    // `revtrail verdict` accepts IDs from the latest review too (docs/trailers.md). A range's
    // findings are in its tip's history: a verdict on one may go into any commit on top of it.
    const tip = source.kind === 'range' ? await run(peel(rangeTip(source.range)), { cwd: repo.top }) : null;
    await rememberReview(repo.commonDir, result.findings, 'review', undefined, tip ?? undefined);
  }
  return { result, exit: result.event === 'REQUEST_CHANGES' ? 1 : 0, policyWarnings: policy?.warnings ?? [] };
}

/** B of `A..B` or `A...B` (HEAD when empty), or the range itself (one commit's own diff). */
export function rangeTip(range: string): string {
  const at = range.lastIndexOf('..');
  if (at === -1) return range;
  return range.slice(at + 2) || 'HEAD';
}

/** The folder REF's policy was copied into (docs/server.md "Which policy"), with what the copy left out. */
export async function policyOf(
  repo: Repo,
  ref: string,
): Promise<{ dir: string; knowledge: string; commit: string | null; warnings: string[] }> {
  // The policy is one ref, named in full: a tag called `origin/main` must not stand in for the
  // branch (docs/server.md "Which policy").
  const named = ref.startsWith('refs/') ? [] : await run(refsNamed(ref), { cwd: repo.top });
  if (named.length > 1)
    throw new UsageError(s.policyFromAmbiguous(ref, named), { remedy: s.policyFromAmbiguousRemedy });
  const commit = await run(peel(named[0] ?? ref), { cwd: repo.top });
  if (commit === null) throw new UsageError(s.policyFromUnknown(ref), { remedy: s.policyFromRemedy });
  return copyPolicy(repo.top, repo.commonDir, commit);
}
