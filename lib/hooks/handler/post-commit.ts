/** The handler of the post-commit hook (its record: ../hook/post-commit.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import type { HookContext } from '../record.js';
import { postCommitFlow } from '../../flows/post-commit.js';
import { printed } from '../print.js';

export async function run(_args: readonly string[], context: HookContext): Promise<number> {
  return printed(context.stderr, await postCommitFlow(context.cwd));
}
