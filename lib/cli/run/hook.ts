/** The handlers of `revtrail hook` (its options: ../commands/hook.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import type { HookArgs } from '../commands/hook.js';
import { runHook } from '../../hooks/run.js';

export const handlers = {
  async hook(args: HookArgs, context: CliContext): Promise<number> {
    return runHook([args.name, ...(args.args ?? []).map(String)], context);
  },
};
