/**
 * pre-applypatch: `git am` runs no commit-msg, so a mailed patch carrying a credential would
 * enter history unreviewed. git runs this hook with the patch applied to the index and before
 * it commits (no arguments, .git/rebase-apply present). It runs commit-msg's review of the
 * staged diff with its stops (the credential stop, commitMsg.block): exit 1 stops `git am`
 * with the patch applied, for `git am --continue` after a fix or a verdict, or `--skip`. It
 * writes no trailers: this hook has no message to write into (docs/hooks.md).
 */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'pre-applypatch',
  side: 'client',
  cached: true,
  stdin: false,
  usage: '',
  missing: 'warn',
  run: lazyHandler('pre-applypatch'),
});
