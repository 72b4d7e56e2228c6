/** post-rewrite: every record of a rewritten commit reaches its new commit, or the queue (docs/record.md). */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'post-rewrite',
  side: 'client',
  cached: true,
  stdin: true,
  usage: 'amend|rebase < commit-lines',
  missing: 'fail',
  script: 'post-rewrite',
  run: async ([kind], context, stdin) =>
    (await import('../post-rewrite.js')).postRewriteHook(kind ?? '', stdin, context),
});
