/**
 * pre-applypatch: `git am` runs no commit-msg, so a mailed patch carrying a credential would
 * enter history unreviewed. git runs this hook with the patch applied to the index and before
 * it commits (no arguments, .git/rebase-apply present). It runs commit-msg's review of the
 * staged diff with its stops (the credential stop, commitMsg.block): exit 1 stops `git am`
 * with the patch applied, for `git am --continue` after a fix or a verdict, or `--skip`. It
 * writes no trailers: this hook has no message to write into (docs/hooks.md).
 */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'pre-applypatch',
  side: 'client',
  cached: true,
  stdin: false,
  usage: '',
  missing: 'warn',
  async run(_args, context) {
    const [{ locateHook }, { readDiff }, { planCommit }, { reviewCommit }, { writeLines }] = await Promise.all([
      import('../locate.js'),
      import('../../diff/source.js'),
      import('../commit-plan.js'),
      import('../commit-msg.js'),
      import('../print.js'),
    ]);
    const { repo, hasHead } = await locateHook(context.cwd);
    const staged = readDiff(repo.top, { kind: 'staged' });
    staged.catch(() => {}); // an error surfaces where the review reads it
    const plan = await planCommit(repo, hasHead, staged);
    // The history answers for suppression (a verdict already committed on this branch).
    const readHistory = async () =>
      plan.parents.length ? (await import('../../record/history.js')).readHistoryOf(repo.top, plan.parents) : [];
    const outcome = await reviewCommit(repo, plan, [], readHistory, context.stderr, false, { record: false });
    if (outcome === 'blocked') return 1;
    writeLines(context.stderr, outcome.report(false));
    return 0;
  },
});
