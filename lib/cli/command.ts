/** The shape every command module has: yargs options in, an exit code out. */
import type { Argv } from 'yargs';

export interface CliContext {
  cwd: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface CommandModule<A = Record<string, unknown>> {
  command: string | readonly string[];
  describe: string;
  builder: (yargs: Argv) => Argv<A> | Argv;
  /** Returns the exit code; user errors are thrown as RevtrailError. */
  run: (args: A, context: CliContext) => Promise<number>;
}

/** Lets each command module keep its argument types while the registry holds them all. */
export function defineCommand<A>(module: CommandModule<A>): CommandModule<A> {
  return module;
}
