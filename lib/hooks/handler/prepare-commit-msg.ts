/** The handler of the prepare-commit-msg hook (its record: ../hook/prepare-commit-msg.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import { UsageError } from '../../core/errors.js';
import { hookMessages as m } from '../../messages/hooks.js';
import type { HookContext } from '../record.js';
import { prepareMessageFlow } from '../../flows/prepare-message.js';
import { printed } from '../print.js';

export async function run([file, source, commit]: readonly string[], context: HookContext): Promise<number> {
  if (!file) throw new UsageError(m.missingFile, { remedy: m.hookArgsRemedy });
  return printed(context.stderr, await prepareMessageFlow(context.cwd, file, source, commit));
}
