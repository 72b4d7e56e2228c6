/** pre-push: reviews what the push adds and blocks it while a blocking finding has no verdict (docs/hooks.md). */
import { UsageError } from '../../core/errors.js';
import { hookMessages as m } from '../../messages/hooks.js';
import { defineHook } from '../record.js';

export default defineHook({
  name: 'pre-push',
  side: 'client',
  cached: true,
  stdin: true,
  usage: 'REMOTE URL < ref-lines',
  missing: 'fail',
  script: 'pre-push',
  async run([remote], context, stdin) {
    if (!remote) throw new UsageError(m.missingRemote, { remedy: m.hookArgsRemedy });
    const [{ pushFlow }, { printed }] = await Promise.all([import('../../flows/push.js'), import('../print.js')]);
    const input = { cwd: context.cwd, remote, refLines: stdin, terminal: context.stderr };
    return printed(context.stderr, await pushFlow(input, context.reads?.push));
  },
});
