/**
 * Entry point of the bundled CLI. The installed hooks never come here: bin/revtrail.js starts
 * `revtrail hook …` from its own single-file bundle (lib/start/starter.ts, docs/hooks.md
 * "Start-up"); `revtrail hook --help` and a call of main() go through yargs' `hook` command.
 */
import module from 'node:module';
import { reportError } from '../core/fail.js';
import type { CliContext } from './command.js';

export async function main(argv: string[], context: CliContext = defaultContext()): Promise<number> {
  enableCompileCache();
  guardCrashes(context.stderr);
  try {
    const { runCli } = await import('./yargs.js');
    return await runCli(argv, context);
  } catch (error) {
    return reportError(error, context.stderr);
  }
}

let guarded = false;

/**
 * An error thrown outside the awaited chain (a stream's callback, a timer) would make Node print
 * its stack and exit 1, which reads as a blocking outcome: it is reported like any other error
 * instead, in two lines (the stack only with REVTRAIL_DEBUG=1; docs/cli.md).
 */
function guardCrashes(stderr: NodeJS.WritableStream): void {
  if (guarded) return;
  guarded = true;
  const crash = (error: unknown) => process.exit(reportError(error, stderr));
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}

function defaultContext(): CliContext {
  return { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };
}

/**
 * Node 22.1+ keeps the compiled code of the chunks loaded from here on between runs (in the
 * system temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such API:
 * nothing happens there, and nothing depends on it.
 */
function enableCompileCache(): void {
  try {
    (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  } catch {
    // a cache that cannot be set up only means compiling as before
  }
}
