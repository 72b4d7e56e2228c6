/**
 * `revtrail lsp`: the language server over stdio (docs/editor.md), built on the protocol's own
 * Node libraries. Open buffers are reviewed on open and save and after a pause in typing; each
 * review runs after the one before it on the same buffer, and a result whose buffer changed
 * meanwhile is not published (the next review is already due). A failed review is one log line,
 * never a dead server.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createConnection,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type Diagnostic,
  type Hover,
  type Location,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isRevtrailError } from '../core/errors.js';
import type { Finding } from '../review/types.js';
import { allowCommentLine } from '../review/findings/allow-comments.js';
import { RULE_PHASE_BUDGET_MS } from '../review/engine/time.js';
import { lspMessages as m } from '../messages/lsp.js';
import { rangeHolds, SEVERITY, toDiagnostic, type DiagnosticData } from './diagnostics.js';
import { citedDocument } from './documents.js';
import { actionsFor, COMMANDS, type AllowArguments, type OpenArguments, type VerdictArguments } from './actions.js';
import { isCredential, Workspaces, type BufferReview, type OpenRepository } from './reviews.js';
import { rememberReview } from '../verdicts/peek.js';

export interface ServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  version: string;
  /** The repositories' workspaces, when the start-up has begun opening them (lib/start/lsp.ts). */
  workspaces?: Workspaces;
  /**
   * Called once, after the first diagnostics are sent: the start-up keeps its code cache then,
   * when it holds what a first review compiled (lib/start/starter.ts startLsp).
   */
  onFirstDiagnostics?: () => void;
  /** Called once the answer to the initialize request is written (the start-up's preload waits for it). */
  onInitializeAnswered?: () => void;
}

/** The pause in typing after which a changed buffer is reviewed, unless the client says otherwise. */
export const DEFAULT_DEBOUNCE_MS = 300;

interface Published {
  diagnostics: Diagnostic[];
  workspace: OpenRepository;
}

/** A file URI's path, or null for a buffer that is no file (untitled:, git:). */
function fileOf(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

/** The configuration file a problem names (revtrail.config.json, or package.json for its key) and where in it. */
function configTarget(top: string, problem: string): { file: string; line: number; character: number } {
  const at = /(revtrail\.config\.json|package\.json)(?::(\d+):(\d+))?/.exec(problem);
  const name = at?.[1] ?? (existsSync(join(top, 'revtrail.config.json')) ? 'revtrail.config.json' : 'package.json');
  const line = at?.[2] ? Number(at[2]) - 1 : 0;
  const character = at?.[3] ? Number(at[3]) - 1 : 0;
  return { file: join(top, name), line, character };
}

/** Starts the server; the promise ends with the client's input (the protocol's exit ends the process itself). */
export function startServer(options: ServerOptions): { connection: Connection; closed: Promise<void> } {
  const closed = new Promise<void>((resolve) => {
    options.input.once('end', resolve);
    options.input.once('close', resolve);
  });
  // Streams, not readers: the library then ends the process when the client's input ends, as the
  // protocol asks (exit 1 without a shutdown first), whatever watchdog timer it started.
  const connection = createConnection(options.input, options.output);
  const documents = new TextDocuments(TextDocument);
  const workspaces = options.workspaces ?? new Workspaces();
  const published = new Map<string, Published>();
  /** Per buffer, its review that is due (debounced), to be cancelled when another supersedes it. */
  const timers = new Map<string, { cancel(): void }>();
  const running = new Map<string, { again: boolean }>();
  /** Per repository: the findings of each open buffer, kept for `revtrail verdict` (origin editor). */
  const editorFindings = new Map<string, Map<string, Finding[]>>();
  /** Per repository: the configuration's problem, as a diagnostic on its file (cleared once fixed). */
  const configDiagnostics = new Map<string, { uri: string; diagnostic: Diagnostic }>();
  const warned = new Set<string>();
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  let closing = false;
  /**
   * Reviews and record writes under way: shutdown waits for them, so the exit that follows never
   * cuts a write of last-review.json or its lock in half (no temp file is left in the git dir).
   */
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.catch(() => {}).finally(() => pending.delete(work));
  };

  const log = (line: string) => connection.console.log(line);
  /**
   * Said to the person (window/showMessage, a notification: nothing to wait for). A message or
   * diagnostics the client cannot take must not end the server, so every send is caught.
   */
  const say = (type: 1 | 2 | 3, message: string) =>
    connection.sendNotification('window/showMessage', { type, message }).catch(() => {});
  let first = options.onFirstDiagnostics;
  const send = (params: PublishDiagnosticsParams) =>
    connection
      .sendDiagnostics(params)
      .catch(() => {})
      .finally(() => {
        const warm = first;
        first = undefined;
        warm?.();
      });

  connection.onInitialize((params) => {
    const given = (params.initializationOptions as { debounceMs?: unknown } | undefined)?.debounceMs;
    if (typeof given === 'number' && Number.isFinite(given) && given >= 0 && given <= 60_000) debounceMs = given;
    // The workspace folders' configuration and bundles are read while the client opens its first
    // buffers, so the first diagnostics do not wait for them (docs/editor.md "What is reviewed").
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    for (const folder of folders) {
      const dir = fileOf(folder);
      if (dir !== null) void workspaces.preload(dir);
    }
    // The library writes this answer from an immediate it queues after the handler returns; an
    // immediate queued from the next one runs after that write.
    const answered = options.onInitializeAnswered;
    if (answered) setImmediate(() => setImmediate(answered));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        executeCommandProvider: { commands: Object.values(COMMANDS) },
      },
      serverInfo: { name: 'revtrail', version: options.version },
    };
  });
  connection.onInitialized(() => log(m.started(options.version)));
  connection.onShutdown(async () => {
    closing = true;
    for (const timer of timers.values()) timer.cancel();
    timers.clear();
    // Until none is left: a review that ends meanwhile tracks its own tidying (BufferReview.after).
    while (pending.size > 0) await Promise.allSettled([...pending]);
    workspaces.close();
  });

  function schedule(uri: string, delay: number): void {
    if (closing) return;
    timers.get(uri)?.cancel();
    const due = () => {
      timers.delete(uri);
      track(review(uri));
    };
    // Due now (an opened or saved buffer): the next turn of the event loop, not setTimeout's
    // millisecond at the least.
    if (delay === 0) {
      const immediate = setImmediate(due);
      timers.set(uri, { cancel: () => clearImmediate(immediate) });
    } else {
      const timeout = setTimeout(due, delay);
      timers.set(uri, { cancel: () => clearTimeout(timeout) });
    }
  }

  /** Reviews `uri` now, or right after the review of it that is running. */
  async function review(uri: string): Promise<void> {
    const busy = running.get(uri);
    if (busy) {
      busy.again = true;
      return;
    }
    const state = { again: true };
    running.set(uri, state);
    try {
      while (state.again && !closing) {
        state.again = false;
        const document = documents.get(uri);
        const file = fileOf(uri);
        if (!document || file === null) break;
        const version = document.version;
        let done: BufferReview | null;
        try {
          done = await workspaces.review(file, document.getText());
        } catch (error) {
          log(m.reviewFailed(file, error instanceof Error ? error.message : String(error)));
          continue;
        }
        if (done === null) break;
        try {
          if (done.ms > RULE_PHASE_BUDGET_MS) log(m.reviewSlow(done.path, Math.round(done.ms)));
          // The buffer changed while it was reviewed: this result is of text no longer there.
          if (documents.get(uri)?.version !== version) continue;
          await publish(uri, document, done).catch((error: unknown) =>
            log(m.reviewFailed(done.path, error instanceof Error ? error.message : String(error))),
          );
        } finally {
          // Tracked: shutdown waits for the history it keeps, as for the record's write.
          track(done.after());
        }
      }
    } finally {
      running.delete(uri);
    }
  }

  async function publish(uri: string, document: TextDocument, done: BufferReview): Promise<void> {
    const { workspace, result } = done;
    const { session } = workspace;
    const findings = result?.findings ?? [];
    for (const warning of result?.warnings ?? []) {
      // Each warning once per server: the same bundle diagnostic would otherwise fill the log.
      const key = `${workspace.repo.top}\0${warning}`;
      if (session.configProblem === warning || warned.has(key)) continue;
      warned.add(key);
      log(m.reviewWarning(done.path, warning));
    }
    publishConfigProblem(workspace);
    const bundle = findings.some((f) => f.citations.length) ? await session.bundle() : null;
    const lines = document.getText().split(/\r?\n/);
    const diagnostics = findings.map((finding) => {
      const cited = bundle ? citedDocument(bundle, workspace.repo.top, finding) : null;
      return toDiagnostic(finding, lines, {
        credential: isCredential(finding),
        softTests: session.config.softTests,
        document: cited ? { id: cited.id, uri: pathToFileURL(cited.file).href, line: cited.line } : undefined,
      });
    });
    published.set(uri, { diagnostics, workspace });
    await sendAll(uri);
    await rememberFindings(workspace, uri, findings);
  }

  /** What `uri` shows: its buffer's findings, and the configuration's problem when it is that file. */
  function sendAll(uri: string): Promise<void> {
    const own = published.get(uri)?.diagnostics ?? [];
    const problem = [...configDiagnostics.values()].find((c) => c.uri === uri)?.diagnostic;
    return send({ uri, diagnostics: problem ? [problem, ...own] : own });
  }

  /** A configuration that cannot be used is one diagnostic on its file, cleared once it can (docs/editor.md "Diagnostics"). */
  function publishConfigProblem(workspace: OpenRepository): void {
    const { top } = workspace.repo;
    const problem = workspace.session.configProblem;
    const before = configDiagnostics.get(top);
    if (!problem) {
      configDiagnostics.delete(top);
      if (before) void sendAll(before.uri);
      return;
    }
    const at = configTarget(workspace.session.policyTop, problem);
    const uri = pathToFileURL(at.file).href;
    if (before?.uri === uri && before.diagnostic.message === problem) return;
    const position = { line: at.line, character: at.character };
    configDiagnostics.set(top, {
      uri,
      diagnostic: {
        range: { start: position, end: position },
        severity: SEVERITY.error,
        source: 'revtrail',
        message: problem,
      },
    });
    if (before && before.uri !== uri) void sendAll(before.uri);
    void sendAll(uri);
  }

  /**
   * The findings of every open buffer of the repository, kept where `revtrail verdict` looks
   * (last-review.json, origin editor), so a verdict can be given in the editor or the terminal.
   */
  async function rememberFindings(workspace: OpenRepository, uri: string, findings: readonly Finding[] | null) {
    const { top, commonDir } = workspace.repo;
    let byUri = editorFindings.get(top);
    if (!byUri) editorFindings.set(top, (byUri = new Map()));
    const before = [...byUri.values()].flat().map((f) => f.id);
    if (findings === null) byUri.delete(uri);
    else byUri.set(uri, [...findings]);
    const all = [...byUri.values()].flat();
    if (before.length === all.length && all.every((f, i) => f.id === before[i])) return;
    await rememberReview(commonDir, all, 'editor', (why) => log(m.reviewFailed('last-review.json', why)));
  }

  documents.onDidOpen((e) => schedule(e.document.uri, 0));
  documents.onDidChangeContent((e) => schedule(e.document.uri, debounceMs));
  documents.onDidSave((e) => {
    const file = fileOf(e.document.uri);
    void (file === null ? Promise.resolve(false) : workspaces.policyChanged(file)).then(
      (changed) => {
        if (changed) for (const open of documents.all()) schedule(open.uri, 0);
        else schedule(e.document.uri, 0);
      },
      () => schedule(e.document.uri, 0),
    );
  });
  documents.onDidClose((e) => {
    const { uri } = e.document;
    timers.get(uri)?.cancel();
    timers.delete(uri);
    const was = published.get(uri);
    published.delete(uri);
    void sendAll(uri);
    if (was) track(rememberFindings(was.workspace, uri, null));
  });
  connection.onDidChangeWatchedFiles((e) => {
    const files = e.changes.flatMap((c) => fileOf(c.uri) ?? []);
    void Promise.all(files.map((f) => workspaces.policyChanged(f))).then(
      (changed) => {
        if (changed.includes(true)) for (const open of documents.all()) schedule(open.uri, 0);
      },
      () => {},
    );
  });

  /** revtrail's diagnostics of `uri` under `position`. */
  const diagnosticsAt = (uri: string, position: { line: number; character: number }) =>
    (published.get(uri)?.diagnostics ?? []).filter((d) => rangeHolds(d.range, position));

  connection.onHover(async (params): Promise<Hover | null> => {
    const here = diagnosticsAt(params.textDocument.uri, params.position);
    if (!here.length) return null;
    const { workspace } = published.get(params.textDocument.uri)!;
    const bundle = await workspace.session.bundle().catch(() => null);
    const parts = here.map((d) => {
      const data = d.data as DiagnosticData;
      const concept = bundle?.concepts.find((c) => c.id === data.document?.id);
      if (!data.document || !bundle || !concept) return m.hoverNoDocument(data.ruleSource);
      const cited = citedDocument(bundle, workspace.repo.top, {
        citations: [concept.id],
        rule_source: data.ruleSource,
      } as Finding)!;
      return [
        `**${cited.title}**`,
        cited.paragraph,
        `_${m.hoverFrom(cited.id, relative(workspace.repo.top, cited.file))}_`,
      ]
        .filter(Boolean)
        .join('\n\n');
    });
    return { contents: { kind: 'markdown', value: parts.join('\n\n---\n\n') } };
  });

  connection.onDefinition((params): Location[] =>
    diagnosticsAt(params.textDocument.uri, params.position).flatMap((d) => {
      const cited = (d.data as DiagnosticData).document;
      if (!cited) return [];
      const at = { line: cited.line, character: 0 };
      return [{ uri: cited.uri, range: { start: at, end: at } }];
    }),
  );

  connection.onCodeAction((params) => {
    const entry = published.get(params.textDocument.uri);
    if (!entry) return [];
    const { gate } = entry.workspace.session.config;
    const policy = { credentialAllow: gate.credentialAllow, credentialAnswers: gate.credentialAnswers };
    return entry.diagnostics
      .filter((d) => rangeHolds(params.range, d.range.start) || rangeHolds(d.range, params.range.start))
      .flatMap((d) => actionsFor(params.textDocument.uri, d, policy));
  });

  connection.onExecuteCommand(async (params) => {
    const arg = params.arguments?.[0] as Record<string, unknown> | undefined;
    if (!arg || typeof arg.uri !== 'string') {
      log(m.badArguments(params.command));
      return null;
    }
    switch (params.command) {
      case COMMANDS.allow:
        return allow(arg as unknown as AllowArguments);
      case COMMANDS.queueVerdict:
        return queueVerdict(arg as unknown as VerdictArguments);
      case COMMANDS.openDecision: {
        const { uri, line } = arg as unknown as OpenArguments;
        const at = { line: typeof line === 'number' ? line : 0, character: 0 };
        return connection.window.showDocument({ uri, takeFocus: true, selection: { start: at, end: at } });
      }
      default:
        return null;
    }
  });

  /** Inserts the allow comment above the finding, indented as its line is. */
  async function allow(args: AllowArguments) {
    const document = documents.get(args.uri);
    if (!document || typeof args.rule !== 'string' || typeof args.line !== 'number') {
      log(m.badArguments(COMMANDS.allow));
      return null;
    }
    const lineText = document.getText({
      start: { line: args.line, character: 0 },
      end: { line: args.line + 1, character: 0 },
    });
    const indent = /^[ \t]*/.exec(lineText)![0];
    const reason = typeof args.reason === 'string' && args.reason.trim() ? args.reason : m.allowReasonPlaceholder;
    const at = { line: args.line, character: 0 };
    return connection.workspace.applyEdit({
      label: m.allowTitle(args.rule),
      edit: {
        changes: {
          [args.uri]: [
            { range: { start: at, end: at }, newText: `${indent}${allowCommentLine(args.path, args.rule, reason)}\n` },
          ],
        },
      },
    });
  }

  /** Queues the verdict through lib/verdicts (the checks and the queue of `revtrail verdict`), then reviews again. */
  async function queueVerdict(args: VerdictArguments) {
    const entry = published.get(args.uri);
    if (!entry || typeof args.id !== 'string' || typeof args.verdict !== 'string') {
      log(m.badArguments(COMMANDS.queueVerdict));
      return null;
    }
    if (typeof args.rationale !== 'string' || !args.rationale.trim()) {
      void say(2, m.verdictNeedsRationale(args.verdict, args.id));
      return null;
    }
    const { queueVerdict } = await import('../flows/verdict.js');
    try {
      const recorded = await queueVerdict(
        entry.workspace.repo.top,
        { id: args.id, verdict: args.verdict, rationale: args.rationale },
        entry.workspace.session,
      );
      for (const w of recorded.warnings) log(m.reviewWarning(recorded.entry.row.file, w));
      void say(3, m.verdictQueued(recorded.entry.verdict, recorded.entry.id));
      // The answer takes its finding out of every open buffer of that repository.
      for (const [uri, other] of published) if (other.workspace === entry.workspace) schedule(uri, 0);
      return { id: recorded.entry.id, verdict: recorded.entry.verdict };
    } catch (error) {
      const why = isRevtrailError(error) || error instanceof Error ? error.message : String(error);
      void say(1, m.verdictRefused(why));
      return null;
    }
  }

  // A long-lived process: anything left unhandled is one log line, never the end of the server.
  process.on('unhandledRejection', (error) =>
    log(m.reviewFailed('-', error instanceof Error ? error.message : String(error))),
  );
  documents.listen(connection);
  connection.listen();
  return { connection, closed };
}
