/** The handler of the post-rewrite hook (its record: ../hook/post-rewrite.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import type { HookContext } from '../record.js';
import { rewriteFlow } from '../../flows/rewrite.js';
import { printed } from '../print.js';

export async function run([kind]: readonly string[], context: HookContext, stdin: string): Promise<number> {
  return printed(context.stderr, await rewriteFlow(context.cwd, kind ?? '', stdin));
}
