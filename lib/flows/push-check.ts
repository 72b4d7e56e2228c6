/**
 * The per-commit credential check of pre-push (docs/hooks.md "Push"): a secret a later commit
 * removed is still in the pushed history, so every pushed commit's own diff gets the credential
 * rules. One streamed `git log` gives all the diffs; the credential screen passes over those that
 * cannot hold a finding, and only the others are decoded and reviewed. It runs while the combined
 * diff is reviewed (that review pauses between chunks), so git writes the diffs meanwhile.
 */
import type { CredentialCheck, CredentialResult } from '../review/credentials.js';
import type { CredentialScreen } from '../review/credential-screen.js';
import { screenable } from '../review/clean-check.js';
import { commitPatches, type CommitPatch, type PatchSource } from './push-commits.js';

export interface CheckOptions {
  /**
   * Whether the screen may be used: the session's reviews warn already what a commit passed
   * over would warn (the combined review has a diff). Otherwise every commit is reviewed.
   */
  screen: Promise<boolean>;
  /** Where each commit's result goes, under `key(commit)`. */
  results: Map<string, CredentialResult>;
  key: (commit: string) => string;
  /** Commits done so far, after each one. */
  progress?: (done: number) => void;
  /** True once the caller gave up (its other work failed): git is stopped. */
  stopped?: () => boolean;
}

export async function checkCommits(
  top: string,
  commits: PatchSource | AsyncIterable<CommitPatch>,
  check: CredentialCheck,
  options: CheckOptions,
): Promise<void> {
  let screen: CredentialScreen | null | undefined;
  let done = 0;
  // A stream the start-up began reading already (./push-start.ts HandedPatches), or a new one.
  const patches = Symbol.asyncIterator in commits ? commits : commitPatches(top, commits);
  for await (const patch of patches) {
    const { commit, diff, capped } = patch;
    if (options.stopped?.()) return;
    if (screen === undefined) screen = (await options.screen) ? await check.screen() : null;
    const passed = screen !== null && screenable(patch) && !screen(diff);
    options.results.set(
      options.key(commit),
      passed ? { findings: [], warnings: [] } : await check.review(diff.toString('utf8'), `commit ${commit}`, capped),
    );
    options.progress?.(++done);
  }
}
