/** The shape every command module has: yargs options in, an exit code out. */
import type { Argv } from 'yargs';

import type { CliContext } from '../core/output.js';
export type { CliContext } from '../core/output.js';

export interface CommandModule<A = Record<string, unknown>> {
  /** yargs command string, e.g. `review` or `knowledge check [dir]`. */
  command: string | readonly string[];
  /** One line for the help listing (the registry holds the top-level one). */
  describe?: string;
  builder: (yargs: Argv) => Argv<A> | Argv;
  /** Returns the exit code; user errors are thrown as RevtrailError. Absent with subcommands. */
  run?: (args: A, context: CliContext) => Promise<number>;
  /** `revtrail <command> <subcommand>`: each subcommand is a module of its own. */
  subcommands?: Array<CommandModule<any>>;
}

/** Lets each command module keep its argument types while the registry holds them all. */
export function defineCommand<A>(module: CommandModule<A>): CommandModule<A> {
  return module;
}

/** A registry entry: enough for `revtrail --help` without loading the command's code. */
export interface CommandEntry {
  name: string;
  describe: string;
  load: () => Promise<{ default: CommandModule<any> }>;
}
