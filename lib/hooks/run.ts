/**
 * `revtrail hook <name> ...`: what the installed hook scripts run. Reached without yargs (the
 * hook bundle, start/starter.ts); the hook's record (./hook/) says what it takes, and its
 * handler loads only when called: this path runs on every commit.
 *
 * Exit protocol with the hook scripts (hooks/): 0 go on, 1 blocking outcome (the script exits
 * 1), anything else a check that did not finish: commit-msg warns and lets the commit on (the
 * push reviews it again), pre-push blocks and says how to skip on purpose (docs/hooks.md "Hook
 * scripts"). A thrown error therefore never returns 1, and a crash exits 3 instead of Node's 1,
 * so the script can tell the two apart.
 */
import { UsageError } from '../core/errors.js';
import { reportError } from '../core/fail.js';
import { hookMessages as m } from '../messages/hooks.js';
import { hookRecord, RUNNABLE_HOOKS } from './registry.js';
import type { HookContext } from './record.js';
import { readStdin } from './stdin.js';

// For the start-up's code cache (lib/start/starter.ts): a cache made after a run that changed
// V8's flags would be rejected by the next process.
export { v8FlagsChanged } from '../core/node-module.js';

/** Exit code of an internal failure (never 1, which means "blocked"). */
export const HOOK_INTERNAL_ERROR = 3;

export async function runHook(argv: string[], context: HookContext, input?: string): Promise<number> {
  const [name = '', ...args] = argv;
  const record = hookRecord(name);
  // The server gate's hooks: REVTRAIL=0 in a pusher's environment never skips them (docs/server.md).
  if (process.env.REVTRAIL === '0' && record?.side !== 'server') return 0;
  guardCrashes(context.stderr);
  try {
    if (!record?.run)
      throw new UsageError(m.unknownHook(name), {
        remedy: m.unknownHookRemedy(RUNNABLE_HOOKS.map((r) => `${r.name}${r.usage ? ` ${r.usage}` : ''}`)),
      });
    return await record.run(args, context, record.stdin ? (input ?? (await readStdin())) : '');
  } catch (error) {
    const code = reportError(error, context.stderr);
    return code === 1 || code === 0 ? HOOK_INTERNAL_ERROR : code;
  }
}

let guarded = false;

/** Node exits 1 on an uncaught error, which the hook script would read as "blocked". */
function guardCrashes(stderr: NodeJS.WritableStream): void {
  if (guarded) return;
  guarded = true;
  const crash = (error: unknown) => {
    stderr.write(m.crashed(error instanceof Error ? error.message : String(error)) + '\n');
    process.exit(HOOK_INTERNAL_ERROR);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}
