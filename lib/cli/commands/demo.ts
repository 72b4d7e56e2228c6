/** `revtrail demo` (npm start): the whole story in a throwaway repository. */
import { defineCommand } from '../command.js';

export default defineCommand({
  command: 'demo',
  describe: 'Run the end-to-end demo in a throwaway repository (npm start; nothing here is touched)',
  builder: (yargs) => yargs,
  async run(_args, context) {
    const { runDemo } = await import('../../demo/run.js');
    const result = await runDemo({ write: (text) => context.stdout.write(text) });
    return result.blockedPush && result.secondPush && result.calibratedPush ? 0 : 1;
  },
});
