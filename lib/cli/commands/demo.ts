/** `revtrail demo` (npm start): the whole story in a throwaway repository. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface DemoArgs {
  verbose: boolean;
}

export default defineCommand<DemoArgs>({
  command: 'demo',
  describe: 'Run the end-to-end demo in a throwaway repository (npm start; nothing here is touched)',
  builder: (yargs) =>
    yargs.option('verbose', {
      type: 'boolean',
      default: false,
      describe: "every command's whole output (by default each shows its first lines; all of it is in demo.log)",
    }),
  run: lazyRun('demo', 'demo'),
});
