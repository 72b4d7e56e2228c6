/** post-merge: as post-commit, for the merge commit just made (docs/record.md). */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'post-merge',
  side: 'client',
  cached: true,
  stdin: false,
  usage: '[SQUASH]',
  missing: 'fail',
  script: 'post-commit',
  async run(_args, context) {
    const [{ postCommitFlow }, { printed }] = await Promise.all([
      import('../../flows/post-commit.js'),
      import('../print.js'),
    ]);
    return printed(context.stderr, await postCommitFlow(context.cwd));
  },
});
