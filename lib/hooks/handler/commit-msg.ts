/** The handler of the commit-msg hook (its record: ../hook/commit-msg.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import { UsageError } from '../../core/errors.js';
import { hookMessages as m } from '../../messages/hooks.js';
import type { HookContext } from '../record.js';
import { commitFlow } from '../../flows/commit.js';
import { printed } from '../print.js';

export async function run([file]: readonly string[], context: HookContext): Promise<number> {
  if (!file) throw new UsageError(m.missingFile, { remedy: m.hookArgsRemedy });
  const input = { cwd: context.cwd, file, debug: process.env.REVTRAIL_DEBUG === '1' };
  return printed(context.stderr, await commitFlow(input, context.reads?.commit));
}
