/**
 * Commands answered without yargs when their command line is plain (docs/mining.md,
 * "Start-up"): loading yargs and building its command tree costs more than a cached `mine`
 * itself. Anything else goes to yargs, which also says what is wrong with it.
 */
import type { CliContext } from './command.js';

export async function runPlain(argv: readonly string[], context: CliContext): Promise<number | null> {
  if (argv[0] !== 'mine') return null;
  const { default: mine, plainArgs } = await import('./commands/mine.js');
  const args = plainArgs(argv);
  return args ? mine.run!(args, context) : null;
}
