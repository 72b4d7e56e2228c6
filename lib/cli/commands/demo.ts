/** `revtrail demo` (npm start): the whole story in a throwaway repository. */
import { defineCommand } from '../command.js';

export default defineCommand<{ verbose: boolean }>({
  command: 'demo',
  describe: 'Run the end-to-end demo in a throwaway repository (npm start; nothing here is touched)',
  builder: (yargs) =>
    yargs.option('verbose', {
      type: 'boolean',
      default: false,
      describe: "every command's whole output (by default each shows its first lines; all of it is in demo.log)",
    }),
  async run(args, context) {
    const { runDemo } = await import('../../demo/run.js');
    const result = await runDemo({ write: (text) => context.stdout.write(text), verbose: args.verbose });
    return result.blockedPush && result.secondPush && result.calibratedPush ? 0 : 1;
  },
});
