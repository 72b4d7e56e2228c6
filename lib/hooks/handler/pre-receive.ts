/** The handler of the pre-receive hook (its record: ../hook/pre-receive.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import type { HookContext } from '../record.js';
import { parseReceiveLines, receiveFlow } from '../../flows/receive.js';
import { printed, writeLines } from '../print.js';
import { hookMessages as m } from '../../messages/hooks.js';

export async function run(_args: readonly string[], context: HookContext, stdin: string): Promise<number> {
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
}
