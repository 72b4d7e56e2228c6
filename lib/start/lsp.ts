/**
 * `revtrail lsp` started without the CLI (docs/editor.md "Start-up"): the server and the review
 * as one CommonJS file (dist/cli/lsp.cjs), compiled through V8's code cache by the same starter
 * as the hooks (./starter.ts startLsp), so that an editor's cold start does not parse the
 * CLI's ES module chunks. `bin/revtrail.js` comes here only for the arguments an editor passes
 * (`--stdio`, `--clientProcessId N`: ./starter.ts plainLspArgs); anything else (`--help`) is
 * the full CLI's.
 */
import { Workspaces } from '../lsp/reviews.js';

declare const REVTRAIL_VERSION: string | undefined;

/** Runs the server on stdin and stdout until the client's input ends. */
export async function runLsp(onWarm: () => void): Promise<number> {
  // The folder the editor started the server in is, almost always, the workspace it is about to
  // name: its repository, configuration and bundle are read from now on, while the protocol
  // library is loaded and the initialize handshake runs (docs/editor.md "Start-up"). The
  // initialize request's folders meet the same promises; a folder outside any repository costs
  // one `git rev-parse`.
  let answered: () => void = () => {};
  const workspaces = new Workspaces({ bundlesAfter: new Promise<void>((resolve) => (answered = resolve)) });
  void workspaces.preload(process.cwd());
  // The server module, and with it the protocol library, is evaluated only now (the bundle keeps
  // it behind this import), so the work above is under way while it loads.
  const { startServer } = await import('../lsp/server.js');
  const { closed } = startServer({
    workspaces,
    input: process.stdin,
    output: process.stdout,
    version: typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : '0.0.0',
    onFirstDiagnostics: onWarm,
    onInitializeAnswered: answered,
  });
  await closed;
  return 0;
}
