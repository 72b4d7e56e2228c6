/**
 * The commit-msg hook's reads, and the clean commit decided from them without the review
 * (docs/hooks.md "Start-up", "A clean commit from its own start bundle"). The start-up
 * (lib/start/starter.ts) runs this module from a bundle of its own, a few dozen kilobytes
 * instead of the hook bundle's six hundred: when the commit is clean, that is the whole hook.
 * Otherwise the reads go on to the full hook (./commit.ts, through ../hooks/hook/commit-msg.ts), which then runs no git command
 * twice.
 *
 * Clean here is the commit's one decision (./commit-decide.ts) answering "pass": what the full
 * hook would write and say nothing for (an empty message included). The start asks that decision
 * with what it can gather (the plan, the verdict files, the clean check); the full hook asks the
 * same one, going on from the facts handed to it. Any doubt, any error: not clean, and the full
 * hook decides.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CappedDiff } from '../diff/cap.js';
import { readDiff } from '../diff/source.js';
import { cleanCheckFile } from '../core/state.js';
import type { Repo } from '../core/git/repo.js';
import { currentCleanRecord, preCheck } from '../review/clean-check.js';
import { mayHaveLastFindings, mayHaveQueued, rebaseToSettle } from '../verdicts/peek.js';
import { readCommentConfig } from '../record/message.js';
import { planCommit, type CommitPlan } from './commit-plan.js';
import { locateHook, type HookLocation } from './locate.js';
import { decideCommitWith, type CommitFacts } from './commit-decide.js';

/** A line a Review-Finding trailer could be on: the message then goes through the lint. */
export const TRAILER_LINE = /^review-finding[ \t]*:/im;

/**
 * What the commit-msg hook reads before it decides anything: two git processes at once. Not
 * core.commentChar: the full hook reads it, for the one thing it decides (whether the message
 * is empty, which a clean commit need not know: the hook then writes nothing either way).
 */
export interface CommitReads {
  location: HookLocation;
  /** The message file's bytes. */
  message: Buffer;
  /** The staged diff (git runs this hook at the top level): a plain commit reviews exactly that. */
  staged: CappedDiff;
  /**
   * `core.commentChar`, asked of git once the commit is known not to be clean, so that git answers
   * while the hook bundle loads (docs/hooks.md "A commit whose change the rules reach").
   */
  commentConfig?: Promise<string>;
  /** What the start gathered for the commit's decision (./commit-decide.ts), for the full hook to go on from. */
  decided?: CommitDecided;
}

/** The facts the start gathered, and the plan and clean check they came from. */
export interface CommitDecided {
  facts: CommitFacts;
  plan?: CommitPlan;
  /** The clean check's answer (null: the review is needed), when it was asked. */
  clean?: { foldAt: number } | null;
}

/**
 * The hook's reads for message file `file`; null when one failed (the full hook reads again and
 * says why, in its order: "not a repository" first).
 */
export async function readCommit(cwd: string, file: string): Promise<CommitReads | null> {
  const staged = readDiff(cwd, { kind: 'staged' });
  staged.catch(() => {});
  try {
    // The message is read synchronously: a small file, and no fs/promises on a clean commit.
    const [location, message] = await Promise.all([
      locateHook(cwd),
      Promise.resolve().then(() => readFileSync(resolve(cwd, file))),
    ]);
    return { location, message, staged: await staged };
  } catch {
    return null;
  }
}

/** The clean-start entry: whether the commit is clean, and the reads for the full hook when it is not. */
export async function commitMsgClean(
  file: string,
  cwd: string,
): Promise<{ clean: true } | { clean: false; reads: CommitReads | null }> {
  const reads = await readCommit(cwd, file);
  if (!reads) return { clean: false, reads };
  let clean = false;
  try {
    clean = (await decideAtStart(reads)).kind === 'pass';
  } catch {
    // any doubt: the full hook decides, from what was gathered before the doubt
  }
  if (clean) return { clean: true };
  reads.commentConfig = readCommentConfig(cwd);
  return { clean: false, reads };
}

/**
 * The commit's decision (./commit-decide.ts) as far as the start can take it: the plan, the
 * verdict files and the clean check, not the lint, the comment character or the review. What it
 * gathered is kept in `reads.decided` for the full hook, which asks the same decision from there.
 */
async function decideAtStart(reads: CommitReads) {
  const { repo, hasHead } = reads.location;
  const facts: CommitFacts = {
    settle: rebaseToSettle(repo.gitDir),
    trailerLine: TRAILER_LINE.test(reads.message.toString('utf8')),
  };
  const decided: CommitDecided = { facts };
  reads.decided = decided;
  return decideCommitWith(facts, {
    plan: async () => {
      decided.plan = await planCommit(repo, hasHead, Promise.resolve(reads.staged));
      facts.plan = decided.plan.kind;
    },
    state: async () => {
      facts.queued = await mayHaveQueued(repo.commonDir);
      facts.lastFindings = await mayHaveLastFindings(repo.commonDir, 'commit-msg');
    },
    clean: async () => {
      decided.clean = await cleanWithoutReview(repo, decided.plan!);
      facts.clean = decided.clean !== null;
    },
  });
}

/** The clean check's answer for a plain commit: its policy's record, when the staged diff surely needs no review. */
export async function cleanWithoutReview(repo: Repo, plan: CommitPlan): Promise<{ foldAt: number } | null> {
  const record = currentCleanRecord(cleanCheckFile(repo.commonDir), repo.top);
  const check = preCheck(record, 'commit-msg');
  if (!check) return null;
  const source = await plan.source();
  if (source.kind !== 'staged' || !source.text) return null;
  let diff: Awaited<typeof source.text>;
  try {
    diff = await source.text;
  } catch {
    return null; // the review reads it again and says why
  }
  return check.decide(diff).decision === 'clean' ? { foldAt: record!.foldAt } : null;
}
