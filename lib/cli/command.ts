/**
 * The one record every command is (docs/cli.md "Commands"): its yargs command string, its one
 * description, its options, and the handler that returns the exit code. The registry
 * (commands/index.ts) lists these records, and everything that lists commands derives from it.
 */
import type { Argv } from 'yargs';

import type { CliContext } from '../core/output.js';
export type { CliContext } from '../core/output.js';

export interface CommandModule<A = Record<string, unknown>> {
  /** yargs command string, e.g. `review` or `verdict [id] [verdict] [rationale..]`; its first word is the name. */
  command: string;
  /** The one line `revtrail --help` (or the parent's --help) shows. */
  describe: string;
  builder: (yargs: Argv) => Argv<A> | Argv;
  /**
   * Returns the exit code; user errors are thrown as RevtrailError. Absent with subcommands.
   * The record is loaded with every --help, so this is `lazyRun(…)` (./handlers.ts): the handler
   * lives in a module of its own under ./run/, which imports the stages it calls statically.
   */
  run?: (args: A, context: CliContext) => Promise<number>;
  /** `revtrail <command> <subcommand>`: each subcommand is a record of its own. */
  subcommands?: AnyCommand[];
}

/** A command record of any argument type: what the registry and the yargs setup hold. */
// biome-ignore lint/suspicious/noExplicitAny: each record's handler takes its own argument type; the registry holds them all
export type AnyCommand = CommandModule<any>;

/** Lets each command module keep its argument types while the registry holds them all. */
export function defineCommand<A>(module: CommandModule<A>): CommandModule<A> {
  return module;
}

/** A command's name: the first word of its command string. */
export function commandName(module: AnyCommand): string {
  return module.command.split(' ')[0]!;
}
