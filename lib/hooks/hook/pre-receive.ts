/** pre-receive, on a server: rejects a push while a blocking finding has no committed verdict (docs/server.md). */
import { defineHook } from '../record.js';

export default defineHook({
  name: 'pre-receive',
  side: 'server',
  cached: false,
  stdin: true,
  usage: '< ref-lines',
  missing: 'fail',
  script: 'server-pre-receive',
  async run(_args, context, stdin) {
    const [{ parseReceiveLines, receiveFlow }, { printed, writeLines }, { hookMessages: m }] = await Promise.all([
      import('../../flows/receive.js'),
      import('../print.js'),
      import('../../messages/hooks.js'),
    ]);
    const { updates, bad } = parseReceiveLines(stdin);
    // A line git should not send could hide a ref: nothing is accepted unchecked.
    if (bad.length) {
      writeLines(
        context.stderr,
        bad.map((line) => m.badRefLine(line)),
      );
      return 2;
    }
    return printed(context.stderr, await receiveFlow({ cwd: context.cwd, updates, terminal: context.stderr }));
  },
});
