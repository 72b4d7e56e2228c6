/** commit-msg: lints Review-Finding trailers, reviews what the commit adds, records its findings (docs/record.md). */
import { UsageError } from '../../core/errors.js';
import { hookMessages as m } from '../../messages/hooks.js';
import { defineHook } from '../record.js';

export default defineHook({
  name: 'commit-msg',
  side: 'client',
  cached: true,
  stdin: false,
  usage: 'FILE',
  missing: 'fail',
  async run([file], context) {
    if (!file) throw new UsageError(m.missingFile, { remedy: m.hookArgsRemedy });
    const [{ commitFlow }, { printed }] = await Promise.all([import('../../flows/commit.js'), import('../print.js')]);
    const input = { cwd: context.cwd, file, debug: process.env.REVTRAIL_DEBUG === '1' };
    return printed(context.stderr, await commitFlow(input, context.reads?.commit));
  },
});
