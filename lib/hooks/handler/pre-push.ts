/** The handler of the pre-push hook (its record: ../hook/pre-push.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import { UsageError } from '../../core/errors.js';
import { hookMessages as m } from '../../messages/hooks.js';
import type { HookContext } from '../record.js';
import { pushFlow } from '../../flows/push.js';
import { printed } from '../print.js';

export async function run([remote]: readonly string[], context: HookContext, stdin: string): Promise<number> {
  if (!remote) throw new UsageError(m.missingRemote, { remedy: m.hookArgsRemedy });
  const input = { cwd: context.cwd, remote, refLines: stdin, terminal: context.stderr };
  return printed(context.stderr, await pushFlow(input, context.reads?.push));
}
