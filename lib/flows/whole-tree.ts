/**
 * The whole tree at HEAD as one change (docs/review.md "The whole tree"): every tracked file
 * reviewed as if added, the diff from the empty tree to HEAD. `review --all` and `baseline`
 * read it. The rule phase's budget is lifted for it (a hook's budget guards against a hostile
 * rule, not a big tree): each bundle rule keeps a deadline that grows with the tree, and the
 * sandbox still stops a pattern that backtracks on one file.
 */
import { emptyTree, lsTree, peelCommit, runGit } from '../core/git/commands.js';
import { RULE_DEADLINE_MS } from '../review/engine/time.js';
import { InputError } from '../core/errors.js';
import type { DiffSource } from '../diff/types.js';
import type { ReviewOptions } from '../review/types.js';
import { flowMessages as m } from '../messages/flows.js';

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
}

export async function wholeTree(top: string): Promise<WholeTree> {
  const commit = await peelCommit(top, 'HEAD');
  if (commit === null) throw new InputError(m.noCommitYet, { remedy: m.noCommitYetRemedy });
  const [empty, entries] = await Promise.all([
    runGit(emptyTree, { cwd: top }),
    runGit(lsTree(commit, [], { recursive: true }), { cwd: top }),
  ]);
  return {
    source: { kind: 'range', range: `${empty}..${commit}` },
    commit,
    files: entries.length,
    ruleTime: {
      budgetMs: Number.POSITIVE_INFINITY,
      deadlineMs: RULE_DEADLINE_MS + DEADLINE_PER_FILE_MS * entries.length,
    },
  };
}
