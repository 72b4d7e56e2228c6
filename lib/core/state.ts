/** revtrail's own files in the git common dir (shared by every worktree of the repository). */
import { join } from 'node:path';

export const revtrailDir = (commonDir: string) => join(commonDir, 'revtrail');
export const queueFile = (commonDir: string) => join(commonDir, 'revtrail', 'verdicts.jsonl');
export const queueLock = (commonDir: string) => join(commonDir, 'revtrail', 'verdicts.lock');
export const lastReviewFile = (commonDir: string) => join(commonDir, 'revtrail', 'last-review.json');
export const lastReviewLock = (commonDir: string) => join(commonDir, 'revtrail', 'last-review.lock');
export const installFile = (commonDir: string) => join(commonDir, 'revtrail', 'install.json');
export const configCacheFile = (commonDir: string) => join(commonDir, 'revtrail', 'config-cache-v1.json');
export const derivedCacheFile = (commonDir: string) => join(commonDir, 'revtrail', 'derived-v1.json');
/** What a clean commit is decided by without the review (review/clean-check.ts). */
export const cleanCheckFile = (commonDir: string) => join(commonDir, 'revtrail', 'clean-check-v1.json');
/** Copies of other commits' policy files (config, bundle, doc map), one folder per content (docs/server.md). */
export const policyCopiesDir = (commonDir: string) => join(commonDir, 'revtrail', 'policy');
export const modelCacheDir = (commonDir: string) => join(commonDir, 'revtrail', 'model-answers-v1');
/** `revtrail mine`'s cache: a meta file and a data file per argument list (docs/mining.md, "The cache"). */
export const mineCacheDir = (commonDir: string) => join(commonDir, 'revtrail', 'mine-cache');
/** What the gate learnt of commits' own diffs (lib/gate/cache.ts). */
export const gateCacheDir = (commonDir: string) => join(commonDir, 'revtrail', 'gate-cache');
/** Parsed bundles; `format` is the stored shape's version, owned by lib/bundle/cache.ts. */
export const bundleCacheFile = (commonDir: string, format: number) =>
  join(commonDir, 'revtrail', `bundle-cache-v${format}.json`);
/** The history rows of the last commit an editor started at (lib/record/history-cache.ts). */
export const historyCacheFile = (commonDir: string) => join(commonDir, 'revtrail', 'history-v1.json');
/** The configured bundle as its last load left it (lib/bundle/snapshot.ts). */
export const bundleSnapshotFile = (commonDir: string) => join(commonDir, 'revtrail', 'bundle-snapshot-v1.json');
/**
 * Per worktree (its own git dir): where the branch was when a rebase started, written by the
 * post-checkout hook, so that the verdicts of commits the rebase drops can be queued once it
 * ends (docs/record.md "Rebase").
 */
export const rebaseMarkFile = (gitDir: string) => join(gitDir, 'revtrail-rebase-orig');
