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
  async run([kind], context, stdin) {
    const [{ rewriteFlow }, { printed }] = await Promise.all([import('../../flows/rewrite.js'), import('../print.js')]);
    return printed(context.stderr, await rewriteFlow(context.cwd, kind ?? '', stdin));
  },
});
