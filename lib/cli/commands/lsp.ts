/** `revtrail lsp` (docs/editor.md): the language server over stdio; its stage loads only here. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface LspArgs {
  stdio: boolean;
  clientProcessId?: number;
}

export default defineCommand<LspArgs>({
  command: 'lsp',
  describe: 'Language server over stdio: the review a commit would run, as diagnostics in the editor',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 lsp [--stdio]\n\n' +
          'Speaks the Language Server Protocol on stdin and stdout; an editor starts it (docs/editor.md has the\n' +
          'few lines of configuration for VS Code, Neovim, Helix, Zed and Emacs).',
      )
      // Clients that start every server with --stdio (vscode-languageclient's stdio transport) are welcome.
      .option('stdio', { type: 'boolean', default: true, describe: 'Talk over stdin and stdout (the only transport)' })
      // vscode-languageclient adds the editor's process id; the protocol's initialize carries it too.
      .option('clientProcessId', { type: 'number', hidden: true })
      .example('$0 lsp', 'what an editor runs'),
  run: lazyRun('lsp', 'lsp'),
});
