// The VS Code client of `revtrail lsp` (docs/editor.md): starts the server for the workspace's
// files and asks, in an input box, for what the code actions need and an LSP server cannot ask
// for itself: an allow comment's reason, a verdict's rationale.
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

/** Asks for `key` of the command's argument when the action left it out; undefined: the person cancelled. */
async function complete(arg, key, prompt, placeHolder) {
  if (!arg || (typeof arg[key] === 'string' && arg[key].trim())) return arg;
  const answer = await vscode.window.showInputBox({ prompt, placeHolder, ignoreFocusOut: true });
  if (answer === undefined || !answer.trim()) return undefined;
  return { ...arg, [key]: answer };
}

function activate(context) {
  const settings = vscode.workspace.getConfiguration('revtrail');
  const [command, ...args] = settings.get('command') ?? ['npx', 'revtrail', 'lsp'];
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const serverOptions = { command, args, transport: TransportKind.stdio, options: { cwd } };
  const clientOptions = {
    documentSelector: [{ scheme: 'file' }],
    initializationOptions: { debounceMs: settings.get('debounceMs') ?? 300 },
    synchronize: {
      // A changed configuration or bundle file: the server reads the policy again.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{revtrail.config.json,package.json,.okfw/**}'),
    },
    middleware: {
      executeCommand: async (name, commandArgs, next) => {
        let [arg] = commandArgs;
        if (name === 'revtrail.allow') {
          arg = await complete(arg, 'reason', `Why is ${arg?.rule ?? 'this'} fine here?`, 'the reason the comment keeps');
        } else if (name === 'revtrail.queueVerdict') {
          arg = await complete(
            arg,
            'rationale',
            `${arg?.verdict ?? 'Verdict'} ${arg?.id ?? ''}: why?`,
            'REJECT: something checkable (a command and its output, a URL); DEFER/ACKNOWLEDGE: a tracker or a plan',
          );
        }
        if (arg === undefined) return undefined;
        return next(name, [arg, ...commandArgs.slice(1)]);
      },
    },
  };
  client = new LanguageClient('revtrail', 'revtrail', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client?.stop() });
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
