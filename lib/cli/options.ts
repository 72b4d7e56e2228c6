/**
 * Options more than one command takes, defined and checked once (docs/cli.md "Shared options"):
 * which diff (`--staged`, `--range`, `--diff`) and which bundle (`--knowledge`). Loaded with
 * --help, so it imports no stage; reading a --diff file is imported when it is asked for.
 */
import type { Argv } from 'yargs';
import type { DiffSource } from '../diff/types.js';
import { UsageError } from '../core/errors.js';
import { cliMessages as m } from '../messages/cli.js';

export interface DiffSourceArgs {
  staged: boolean;
  range?: string;
  diff?: string;
}

/** `--staged | --range A..B | --diff FILE|-`; none of them: every uncommitted change against HEAD. */
export function diffSourceOptions<T>(yargs: Argv<T>): Argv<T & DiffSourceArgs> {
  return (
    yargs
      .option('staged', { type: 'boolean', default: false, describe: 'The staged changes' })
      // requiresArg: `--range` with nothing after it is a usage error, not an empty value.
      .option('range', { type: 'string', requiresArg: true, describe: 'The changes of a range: A..B or A...B' })
      .option('diff', { type: 'string', requiresArg: true, describe: 'A unified diff from FILE, or stdin with -' })
  );
}

export function knowledgeOption<T>(yargs: Argv<T>): Argv<T & { knowledge?: string }> {
  return yargs.option('knowledge', {
    type: 'string',
    requiresArg: true,
    describe: 'The bundle folder (default: "knowledge" of the config, .okfw)',
  });
}

/** `--range=` passes yargs' check with an empty value (for --knowledge it would mean this folder): named here. */
export function requireValues(args: Record<string, unknown>, options: readonly string[]): void {
  for (const option of options) {
    const key = option.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (args[key] === '') throw new UsageError(m.needsValue(option), { remedy: m.needsValueRemedy });
  }
}

/** The diff the options name; more than one is a usage error. */
export async function diffSourceOf(args: DiffSourceArgs, cwd: string): Promise<DiffSource> {
  requireValues(args as unknown as Record<string, unknown>, ['range', 'diff']);
  const chosen = [args.staged, args.range !== undefined, args.diff !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UsageError(m.oneSource, { remedy: m.oneSourceRemedy });
  if (args.staged) return { kind: 'staged' };
  if (args.range !== undefined) return { kind: 'range', range: args.range };
  if (args.diff !== undefined) return (await import('../diff/source.js')).diffSourceFromFile(args.diff, cwd);
  return { kind: 'worktree' };
}
