/** The handler of the pre-applypatch hook (its record: ../hook/pre-applypatch.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import type { HookContext } from '../record.js';
import { appliedPatchFlow } from '../../flows/commit.js';
import { printed } from '../print.js';

export async function run(_args: readonly string[], context: HookContext): Promise<number> {
  return printed(context.stderr, await appliedPatchFlow(context.cwd));
}
