/**
 * Entry point of the bundled CLI. The hook path is split off before yargs loads: hooks run
 * on every commit and push, and yargs alone costs tens of milliseconds of start-up.
 */
import { reportError } from './fail.js';
import type { CliContext } from './command.js';

export async function main(argv: string[], context: CliContext = defaultContext()): Promise<number> {
  try {
    if (argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h')) {
      const { runHook } = await import('../hooks/run.js');
      return await runHook(argv.slice(1), context);
    }
    const { runCli } = await import('./yargs.js');
    return await runCli(argv, context);
  } catch (error) {
    return reportError(error, context.stderr);
  }
}

function defaultContext(): CliContext {
  return { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };
}
