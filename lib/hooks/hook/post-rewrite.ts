/** post-rewrite: every record of a rewritten commit reaches its new commit, or the queue (docs/record.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'post-rewrite',
  side: 'client',
  cached: true,
  stdin: true,
  usage: 'amend|rebase < commit-lines',
  missing: 'fail',
  script: 'post-rewrite',
  run: lazyHandler('post-rewrite'),
});
