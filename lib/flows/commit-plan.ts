/**
 * What the commit the commit-msg hook runs for really is, and so what to review and whose
 * history answers for it (docs/record.md):
 * - a commit: the staged diff against HEAD, HEAD's history (the common case: no extra git call);
 * - an amend: the whole resulting commit against the amended commit's parents, their history;
 * - a merge (MERGE_HEAD): the lines in none of the parents, the history of all of them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../core/git/repo.js';
import { configValue, emptyTree as emptyTreeCommand, revParse, run } from '../core/git/commands.js';
import { gitDiff } from '../diff/source.js';
import type { CappedDiff } from '../diff/cap.js';
import type { DiffSource } from '../diff/types.js';
import { isAmendCommit } from '../core/git/invocation.js';

export type CommitKind = 'commit' | 'amend' | 'merge';

export interface CommitPlan {
  kind: CommitKind;
  /** The new commit's parents (HEAD by name for a plain commit; none on an unborn branch). */
  parents: string[];
  /** The commit an amend replaces. */
  amended: string | null;
  /** What the review reads. */
  source: () => Promise<DiffSource>;
}

/** `stagedDiff`: the staged diff, when the caller already started reading it. */
export async function planCommit(repo: Repo, hasHead: boolean, stagedDiff?: Promise<CappedDiff>): Promise<CommitPlan> {
  const staged: CommitPlan = {
    kind: 'commit',
    parents: hasHead ? ['HEAD'] : [],
    amended: null,
    source: async () => ({ kind: 'staged', text: stagedDiff }),
  };
  if (!hasHead) return staged;
  try {
    return await planBeyondHead(repo, staged);
  } catch {
    return staged; // an odd repository state: review the staged diff, as for any commit
  }
}

async function planBeyondHead(repo: Repo, staged: CommitPlan): Promise<CommitPlan> {
  const mergeHead = join(repo.gitDir, 'MERGE_HEAD');
  if (existsSync(mergeHead)) {
    const { readFile } = await import('node:fs/promises');
    const others = (await readFile(mergeHead, 'utf8'))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const parents = ['HEAD', ...others];
    return { kind: 'merge', parents, amended: null, source: () => cachedAgainst(repo.top, parents) };
  }
  const lookupAlias = (name: string) => run(configValue(`alias.${name}`), { cwd: repo.top });
  if (!(await isAmendCommit(lookupAlias))) return staged;
  const [amended, ...parents] = await run(revParse('HEAD', 'HEAD^@'), { cwd: repo.top });
  return {
    kind: 'amend',
    parents,
    amended: amended!,
    source: async () =>
      parents.length ? cachedAgainst(repo.top, parents) : cachedAgainst(repo.top, [await emptyTree(repo.top)]),
  };
}

/** The index against one base (a plain diff), or against several (what a merge introduced). */
async function cachedAgainst(top: string, bases: readonly string[]): Promise<DiffSource> {
  const diffs = await Promise.all(bases.map((b) => gitDiff(top, ['--cached', b])));
  return {
    kind: 'text',
    text: await combined(diffs.map((d) => d.text)),
    name: 'git diff --cached',
    capped: cappedOf(diffs),
  };
}

async function emptyTree(top: string): Promise<string> {
  return run(emptyTreeCommand, { cwd: top });
}

/** A commit's own diff: against its parent, the empty tree (a root), or its parents (a merge). */
export async function commitDiffSource(top: string, commit: string): Promise<DiffSource> {
  const parents = await run(revParse(`${commit}^@`), { cwd: top });
  const bases = parents.length ? parents : [await emptyTree(top)];
  const diffs = await Promise.all(bases.map((b) => gitDiff(top, [b, commit])));
  return {
    kind: 'text',
    text: await combined(diffs.map((d) => d.text)),
    name: `commit ${commit}`,
    capped: cappedOf(diffs),
  };
}

function cappedOf(diffs: ReadonlyArray<{ capped: string[] }>): string[] {
  return [...new Set(diffs.flatMap((d) => d.capped))];
}

/** One diff as it is; several (one per parent of a merge): what the merge introduced. */
async function combined(texts: readonly string[]): Promise<string> {
  if (texts.length === 1) return texts[0]!;
  const { introducedDiff } = await import('./merge-diff.js');
  return introducedDiff(texts[0]!, texts.slice(1));
}
