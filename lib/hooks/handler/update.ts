/** The handler of the update hook (its record: ../hook/update.ts), loaded when the hook runs (lib/hooks/handlers.ts). */
import type { HookContext } from '../record.js';
import { receiveFlow } from '../../flows/receive.js';
import { SHA } from '../../flows/push-plan.js';
import { printed, writeLines } from '../print.js';
import { serverMessages as m } from '../../messages/hooks.js';

export async function run([ref, old, next]: readonly string[], context: HookContext): Promise<number> {
  if (!ref || !SHA.test(old ?? '') || !SHA.test(next ?? '')) {
    writeLines(context.stderr, [m.updateUsage]);
    return 2;
  }
  const updates = [{ ref, old: old!, new: next! }];
  return printed(context.stderr, await receiveFlow({ cwd: context.cwd, updates, terminal: context.stderr }));
}
