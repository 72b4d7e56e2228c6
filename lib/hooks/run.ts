/** Hook dispatcher (placeholder until the hooks land): `revtrail hook <name> ...`. */
import type { CliContext } from '../cli/command.js';
import { UsageError } from '../errors.js';

export async function runHook(argv: string[], _context: CliContext): Promise<number> {
  throw new UsageError(`unknown hook "${argv[0] ?? ''}"`, { remedy: 'Hooks: commit-msg FILE, pre-push REMOTE URL.' });
}
