/**
 * post-checkout: sets the hooks up in a worktree added later, and notes where a rebase started
 * (docs/hooks.md "Worktrees"). All in its shell script: a checkout starts no Node.
 */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'post-checkout',
  side: 'client',
  cached: false,
  stdin: false,
  usage: 'OLD NEW BRANCH-FLAG',
  missing: 'warn',
  script: 'post-checkout',
});
