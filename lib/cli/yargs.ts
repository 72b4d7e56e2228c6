/** The full CLI: yargs parses, a command module runs, this file only wires them. */
import yargs from 'yargs';
import { UsageError } from '../errors.js';
import type { CliContext } from './command.js';
import { commands } from './commands/index.js';

declare const REVTRAIL_VERSION: string | undefined;

export async function runCli(argv: string[], context: CliContext): Promise<number> {
  let exitCode = 0;
  const modules = await Promise.all(commands.map((load) => load()));
  let parser = yargs(argv)
    .scriptName('revtrail')
    .usage('$0 <command> [options]\n\nOffline code review against your knowledge bundle, recorded in git trailers.')
    .strict()
    .demandCommand(1, 'Name a command: revtrail --help lists them.')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : '0.0.0')
    .wrap(Math.min(100, context.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message ?? 'invalid arguments', { remedy: 'Run revtrail --help for the usage.' });
    });
  for (const module of modules) {
    parser = parser.command(
      module.command as string,
      module.describe,
      module.builder as never,
      async (args: unknown) => {
        exitCode = await module.run(args, context);
      },
    );
  }
  await parser.parseAsync();
  return exitCode;
}
