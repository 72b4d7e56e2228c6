/**
 * A real LSP client for the tests (docs/editor.md): `revtrail lsp` spawned as the CLI process,
 * spoken to through vscode-languageserver-protocol's connection over its stdin and stdout. It
 * keeps the diagnostics published per URI, applies the edits the server asks for to its own
 * copy of each buffer, and records the documents the server asks to show.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { Diagnostic, WorkspaceEdit, TextEdit, ShowDocumentParams } from 'vscode-languageserver-protocol';
import { cliPath, testEnv } from '../kit/repo.js';

export interface TestClient {
  connection: ProtocolConnection;
  child: ChildProcess;
  /** What the server logged (window/logMessage), in order. */
  logs: string[];
  /** What the server showed (window/showMessage), in order. */
  shown: string[];
  /** The documents the server asked to show (window/showDocument). */
  showDocuments: ShowDocumentParams[];
  uri(file: string): string;
  open(file: string, text: string, languageId?: string): Promise<void>;
  /** Replaces the whole buffer (a full-content change) and returns its new version. */
  change(file: string, text: string): Promise<number>;
  save(file: string): Promise<void>;
  close(file: string): Promise<void>;
  text(file: string): string;
  /** The next diagnostics published for `uri` that `accept` takes (default: any), within the timeout. */
  diagnostics(uri: string, accept?: (d: Diagnostic[]) => boolean, timeoutMs?: number): Promise<Diagnostic[]>;
  request<R>(method: string, params: unknown): Promise<R>;
  /** shutdown, exit: the server's exit code. */
  stop(): Promise<number | null>;
}

interface ApplyResult {
  applied: boolean;
  failureReason?: string;
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  // From the end, so earlier offsets stay right.
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

export async function startClient(rootDir: string, options: { env?: NodeJS.ProcessEnv; debounceMs?: number } = {}) {
  const child = spawn(process.execPath, [cliPath, 'lsp', '--stdio'], {
    cwd: rootDir,
    env: testEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const buffers = new Map<string, { text: string; version: number }>();
  const published = new Map<string, Diagnostic[][]>();
  const waiters: Array<{ uri: string; accept: (d: Diagnostic[]) => boolean; resolve: (d: Diagnostic[]) => void }> = [];
  const logs: string[] = [];
  const shown: string[] = [];
  const showDocuments: ShowDocumentParams[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
    const list = published.get(p.uri) ?? [];
    list.push(p.diagnostics);
    published.set(p.uri, list);
    for (const w of [...waiters])
      if (w.uri === p.uri && w.accept(p.diagnostics)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p.diagnostics);
      }
  });
  connection.onNotification('window/logMessage', (p: { message: string }) => {
    logs.push(p.message);
  });
  connection.onNotification('window/showMessage', (p: { message: string }) => {
    shown.push(p.message);
  });
  connection.onRequest('window/showMessageRequest', (p: { message: string }) => {
    shown.push(p.message);
    return null;
  });
  connection.onRequest('window/showDocument', (p: ShowDocumentParams) => {
    showDocuments.push(p);
    return { success: true };
  });
  connection.onRequest('workspace/applyEdit', async (p: { edit: WorkspaceEdit }): Promise<ApplyResult> => {
    for (const [uri, edits] of Object.entries(p.edit.changes ?? {})) {
      const buffer = buffers.get(uri);
      if (!buffer) return { applied: false, failureReason: `${uri} is not open` };
      buffer.text = applyEdits(buffer.text, edits);
      buffer.version++;
      // As an editor does: the edit is a change of the buffer it tells the server of.
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: buffer.version },
        contentChanges: [{ text: buffer.text }],
      });
    }
    return { applied: true };
  });
  connection.listen();
  const rootUri = pathToFileURL(rootDir).href;
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'test' }],
    capabilities: {
      workspace: { applyEdit: true },
      window: { showDocument: { support: true } },
      textDocument: { publishDiagnostics: { relatedInformation: true } },
    },
    initializationOptions: { debounceMs: options.debounceMs ?? 50 },
  });
  await connection.sendNotification('initialized', {});
  const uri = (file: string) => pathToFileURL(file).href;
  const client: TestClient = {
    connection,
    child,
    logs,
    shown,
    showDocuments,
    uri,
    async open(file, text, languageId = 'plaintext') {
      buffers.set(uri(file), { text, version: 1 });
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(file), languageId, version: 1, text },
      });
    },
    async change(file, text) {
      const buffer = buffers.get(uri(file))!;
      buffer.text = text;
      buffer.version++;
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(file), version: buffer.version },
        contentChanges: [{ text }],
      });
      return buffer.version;
    },
    async save(file) {
      await connection.sendNotification('textDocument/didSave', { textDocument: { uri: uri(file) } });
    },
    async close(file) {
      buffers.delete(uri(file));
      await connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri(file) } });
    },
    text: (file) => buffers.get(uri(file))!.text,
    diagnostics(target, accept = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const seen = JSON.stringify(published.get(target) ?? []).slice(0, 2000);
          reject(
            new Error(
              `no matching diagnostics for ${target} in ${timeoutMs} ms; published: ${seen}; logs: ${logs.join(' | ')}; stderr: ${stderr}`,
            ),
          );
        }, timeoutMs);
        waiters.push({
          uri: target,
          accept,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        });
      });
    },
    request: (method, params) => connection.sendRequest(method, params),
    async stop() {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await connection.sendRequest('shutdown').catch(() => {});
      await connection.sendNotification('exit').catch(() => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(timer);
      connection.dispose();
      return code;
    },
  };
  return client;
}
