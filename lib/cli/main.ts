/**
 * Entry point of the bundled CLI. The installed hooks never come here: bin/revtrail.js starts
 * `revtrail hook …` from its own single-file bundle (lib/cli/hook-start.ts, docs/hooks.md
 * "Start-up"); `revtrail hook --help` and a call of main() go through yargs' `hook` command.
 */
import module from 'node:module';
import { reportError } from '../core/fail.js';
import type { CliContext } from './command.js';

export async function main(argv: string[], context: CliContext = defaultContext()): Promise<number> {
  enableCompileCache();
  try {
    const { runCli } = await import('./yargs.js');
    return await runCli(argv, context);
  } catch (error) {
    return reportError(error, context.stderr);
  }
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
