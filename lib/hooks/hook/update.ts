/** update, on a server that runs only that: the server gate for one ref (docs/server.md). */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'update',
  side: 'server',
  cached: false,
  stdin: false,
  usage: 'REF OLD NEW',
  missing: 'fail',
  script: 'server-pre-receive',
  async run([ref, old, next], context) {
    const [{ receiveFlow }, { SHA }, { printed, writeLines }, { serverMessages: m }] = await Promise.all([
      import('../../flows/receive.js'),
      import('../../flows/push-plan.js'),
      import('../print.js'),
      import('../../messages/hooks.js'),
    ]);
    if (!ref || !SHA.test(old ?? '') || !SHA.test(next ?? '')) {
      writeLines(context.stderr, [m.updateUsage]);
      return 2;
    }
    const updates = [{ ref, old: old!, new: next! }];
    return printed(context.stderr, await receiveFlow({ cwd: context.cwd, updates, terminal: context.stderr }));
  },
});
