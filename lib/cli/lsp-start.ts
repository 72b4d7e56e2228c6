/**
 * `revtrail lsp` started without the CLI (docs/editor.md "Start-up"): the server and the review
 * as one CommonJS file (dist/cli/lsp.cjs), compiled through V8's code cache by the same starter
 * as the hooks (./hook-start.ts startLsp), so that an editor's cold start does not parse the
 * CLI's ES module chunks. `bin/revtrail.js` comes here only for the arguments an editor passes
 * (`--stdio`, `--clientProcessId N`: ./hook-start.ts plainLspArgs); anything else (`--help`) is
 * the full CLI's.
 */
import { startServer } from '../lsp/index.js';

declare const REVTRAIL_VERSION: string | undefined;

/** Runs the server on stdin and stdout until the client's input ends. */
export async function runLsp(onWarm: () => void): Promise<number> {
  const { closed } = startServer({
    input: process.stdin,
    output: process.stdout,
    version: typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : '0.0.0',
    onFirstDiagnostics: onWarm,
  });
  await closed;
  return 0;
}
