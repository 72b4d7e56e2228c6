/** The handlers of `revtrail demo` (its options: ../commands/demo.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import type { DemoArgs } from '../commands/demo.js';
import { runDemo } from '../../demo/run.js';

export const handlers = {
  async demo(args: DemoArgs, context: CliContext): Promise<number> {
    const result = await runDemo({ write: (text) => context.stdout.write(text), verbose: args.verbose });
    return result.blockedPush && result.secondPush && result.calibratedPush ? 0 : 1;
  },
};
