/** prepare-commit-msg: folds the records of squashed commits in, takes copied rows out (docs/record.md). */
import { UsageError } from '../../core/errors.js';
import { hookMessages as m } from '../../messages/hooks.js';
import { defineHook } from '../record.js';

export default defineHook({
  name: 'prepare-commit-msg',
  side: 'client',
  cached: true,
  stdin: false,
  usage: 'FILE [SOURCE [COMMIT]]',
  missing: 'fail',
  script: 'prepare-commit-msg',
  async run([file, source, commit], context) {
    if (!file) throw new UsageError(m.missingFile, { remedy: m.hookArgsRemedy });
    const [{ prepareMessageFlow }, { printed }] = await Promise.all([
      import('../../flows/prepare-message.js'),
      import('../print.js'),
    ]);
    return printed(context.stderr, await prepareMessageFlow(context.cwd, file, source, commit));
  },
});
