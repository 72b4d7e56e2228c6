/** post-commit: a queued verdict leaves the queue once the commit just made carries it (docs/record.md). */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'post-commit',
  side: 'client',
  cached: true,
  stdin: false,
  usage: '',
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
