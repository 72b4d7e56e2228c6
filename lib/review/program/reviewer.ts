/**
 * The optional reviewer program (docs/review.md): a local executable asked about one chunk at a time.
 * Run without a shell (argv), cwd = the top level, with a timeout and a 1 MiB output cap.
 * Its findings pass the same contract as rule findings; the invalid ones send the chunk back
 * once with the errors. A program that fails never stops the review (unless required).
 */
import { spawn } from 'node:child_process';
import type { ChunkSelection } from '../../select/types.js';
import {
  checkInScope,
  findingJsonSchema,
  parseSubmitted,
  type ChunkScope,
  type FindingDraft,
} from '../findings/index.js';
import { MAX_LINE_LENGTH } from '../engine/rules.js';
import type { DropReason } from '../types.js';
import { reviewMessages as m } from '../../messages/review.js';

export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** How long output may still arrive after the program itself exited. */
const EXIT_GRACE_MS = 250;

export interface ReviewerError {
  /** Index of the finding in the program's previous answer. */
  finding: number;
  message: string;
}

export interface ReviewerInput {
  version: 1;
  chunk: { path: string; language: string | null; diff: string };
  knowledge: Array<{ id: string; title: string; body: string }>;
  allowed_citations: string[];
  schema: Record<string, unknown>;
  /** Present on the second ask: what was wrong with the first answer. */
  errors?: ReviewerError[];
}

export type FailureKind =
  | 'missing'
  | 'not-executable'
  | 'spawn'
  | 'crash'
  | 'timeout'
  | 'too-large'
  | 'garbage'
  | 'unreachable';

export type ProgramOutcome =
  | { ok: true; summary: string; findings: unknown[] }
  | { ok: false; kind: FailureKind; detail: string };

export interface ProgramOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputBytes?: number;
}

/**
 * Reviewer programs run in their own process group (so a timeout ends the program and whatever
 * it started), which also keeps them from seeing the terminal's Ctrl-C: while any runs, SIGINT
 * and SIGTERM end their groups first, then take their usual course.
 */
const running = new Set<number>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function onSignal(signal: NodeJS.Signals): void {
  for (const pid of running) killGroup(pid);
  running.clear();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

function track(pid: number | undefined): () => void {
  if (pid === undefined) return () => {};
  if (running.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  running.add(pid);
  return () => {
    running.delete(pid);
    if (running.size === 0) for (const s of SIGNALS) process.removeListener(s, onSignal);
  };
}

/** One run of the program: input on stdin, `{summary, findings}` expected on stdout. */
export function runProgram(
  argv: readonly string[],
  input: ReviewerInput,
  options: ProgramOptions,
): Promise<ProgramOutcome> {
  const cap = options.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    let untrack = () => {};
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: ProgramOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      untrack();
      resolve(outcome);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // detached: its own process group, so a timeout ends the program and anything it started.
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
    } catch (error) {
      finish({ ok: false, kind: 'spawn', detail: (error as Error).message });
      return;
    }
    untrack = track(child.pid);
    const kill = () => {
      if (child.pid) killGroup(child.pid);
      else child.kill('SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    let failure: { kind: FailureKind; detail: string } | null = null;
    timer = setTimeout(() => {
      failure = { kind: 'timeout', detail: `${options.timeoutMs} ms` };
      kill();
      finish({ ok: false, ...failure });
    }, options.timeoutMs);
    const out: Buffer[] = [];
    let size = 0;
    let errTail = '';
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > cap) {
        if (!failure) failure = { kind: 'too-large', detail: `${cap} bytes` };
        kill();
        finish({ ok: false, ...failure });
        return;
      }
      out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      errTail = (errTail + b.toString('utf8')).slice(-2000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const kind: FailureKind =
        error.code === 'ENOENT' ? 'missing' : error.code === 'EACCES' ? 'not-executable' : 'spawn';
      finish({ ok: false, kind, detail: error.message });
    });
    const complete = (code: number | null, signal: NodeJS.Signals | null) => {
      if (failure) return finish({ ok: false, ...failure });
      const lastError = errTail.trim().split('\n').slice(-1)[0] ?? '';
      if (code !== 0) {
        return finish({
          ok: false,
          kind: 'crash',
          detail: `${signal ? `signal ${signal}` : `exit ${code}`}${lastError ? `: ${lastError}` : ''}`,
        });
      }
      finish(parseOutput(Buffer.concat(out).toString('utf8')));
    };
    child.on('close', complete);
    // A program that exits while something it started still holds its stdout (a daemon, a
    // language server) has given its answer: read what is in the pipe for a moment, then end
    // its process group and take the answer, instead of waiting for the timeout.
    child.on('exit', (code, signal) => {
      const grace = setTimeout(() => {
        if (settled) return;
        kill();
        complete(code, signal);
      }, EXIT_GRACE_MS);
      grace.unref();
    });
    child.stdin!.on('error', () => {}); // the program may exit without reading its input
    child.stdin!.end(JSON.stringify(input));
  });
}

function parseOutput(text: string): ProgramOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const shown = text.trim().slice(0, 60).replace(/\s+/g, ' ');
    return {
      ok: false,
      kind: 'garbage',
      detail: shown ? `not JSON (${(error as Error).message}): "${shown}"` : 'no output',
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, kind: 'garbage', detail: 'the output is not a JSON object {summary, findings}' };
  }
  const { summary, findings } = value as { summary?: unknown; findings?: unknown };
  if (!Array.isArray(findings)) return { ok: false, kind: 'garbage', detail: '"findings" is not an array' };
  if (summary !== undefined && summary !== null && typeof summary !== 'string') {
    return { ok: false, kind: 'garbage', detail: '"summary" is not a string' };
  }
  return { ok: true, summary: typeof summary === 'string' ? summary : '', findings };
}

/** The chunk's diff with over-long lines cut, so a 5 MB one-line file does not become 5 MB of stdin. */
function boundedDiff(diff: string): string {
  if (diff.length <= MAX_LINE_LENGTH) return diff;
  return diff
    .split('\n')
    .map((l) =>
      l.length > MAX_LINE_LENGTH
        ? `${l.slice(0, MAX_LINE_LENGTH)} […truncated ${l.length - MAX_LINE_LENGTH} characters]`
        : l,
    )
    .join('\n');
}

export function reviewerInput(selection: ChunkSelection): ReviewerInput {
  const { chunk } = selection;
  return {
    version: 1,
    chunk: { path: chunk.path, language: chunk.language, diff: boundedDiff(chunk.diff) },
    knowledge: selection.documents.map((d) => ({ id: d.concept.id, title: d.concept.title, body: d.text })),
    allowed_citations: selection.matched.map((d) => d.concept.id),
    schema: findingJsonSchema(),
  };
}

export const DEFAULT_REVIEWER_RULE_SOURCE = (category: string) => `reviewer:${category}`;

/** A program's own rule_source, else `reviewer:<category>`. */
function programFinding(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || (item as { rule_source?: unknown }).rule_source !== undefined)
    return item;
  const category = String((item as { category?: unknown }).category ?? 'correctness');
  return { ...item, rule_source: DEFAULT_REVIEWER_RULE_SOURCE(/^[\w-]+$/.test(category) ? category : 'correctness') };
}

interface Sorted {
  valid: FindingDraft[];
  errors: ReviewerError[];
  dropped: Array<{ reason: DropReason; message: string }>;
}

function sortFindings(
  raw: readonly unknown[],
  scope: ChunkScope,
  minConfidence: number,
  prepare: (item: unknown) => unknown,
): Sorted {
  const sorted: Sorted = { valid: [], errors: [], dropped: [] };
  raw.forEach((item, index) => {
    const parsed = parseSubmitted(prepare(item), DEFAULT_REVIEWER_RULE_SOURCE('correctness'));
    const checked = parsed.ok ? checkInScope(parsed.finding, scope, minConfidence) : parsed;
    if (checked.ok) sorted.valid.push(checked.finding);
    else if (checked.reason === 'low_confidence') sorted.dropped.push(checked);
    else {
      sorted.errors.push({ finding: index, message: checked.message });
      sorted.dropped.push(checked);
    }
  });
  return sorted;
}

export interface ReviewerChunkResult {
  summary: string | null;
  drafts: FindingDraft[];
  dropped: Array<{ reason: DropReason; message: string }>;
  warnings: string[];
  /** Set when the program could not answer (the caller decides whether that is fatal). */
  failure: { kind: FailureKind; message: string } | null;
}

/**
 * How a reviewer is asked about one chunk: a program over stdin and stdout, or a model server
 * over HTTP (./model/). Every reviewer goes through the same contract (askWith).
 */
export interface ReviewerTransport {
  ask(input: ReviewerInput): Promise<ProgramOutcome>;
  /** Turns one submitted item into the shape the contract checks (fills rule_source). */
  prepare(item: unknown): unknown;
  /** The warning for a failed ask. */
  failed(where: string, kind: FailureKind, detail: string, round: 1 | 2): string;
}

/**
 * Asks about one chunk; when the answer has findings off the chunk's lines, uncited
 * architecture findings, unknown citations or findings off the schema, asks once more with the
 * errors and the allowed citations. What is still invalid is dropped and counted.
 */
export async function askWith(
  transport: ReviewerTransport,
  selection: ChunkSelection,
  options: { minConfidence: number },
): Promise<ReviewerChunkResult> {
  const { chunk } = selection;
  const input = reviewerInput(selection);
  const scope: ChunkScope = {
    path: chunk.path,
    changedLines: chunk.changedLines,
    allowedCitations: new Set(input.allowed_citations),
  };
  const where = `${chunk.path}${chunk.piece > 1 ? ` (piece ${chunk.piece})` : ''}`;
  const failed = (outcome: Extract<ProgramOutcome, { ok: false }>, round: 1 | 2) =>
    transport.failed(where, outcome.kind, outcome.detail, round);

  const first = await transport.ask(input);
  if (!first.ok) {
    const message = failed(first, 1);
    return { summary: null, drafts: [], dropped: [], warnings: [message], failure: { kind: first.kind, message } };
  }
  const sorted = sortFindings(first.findings, scope, options.minConfidence, transport.prepare);
  if (sorted.errors.length === 0)
    return { summary: first.summary, drafts: sorted.valid, dropped: sorted.dropped, warnings: [], failure: null };

  const second = await transport.ask({ ...input, errors: sorted.errors, allowed_citations: input.allowed_citations });
  if (!second.ok) {
    // Keep what the first answer got right; its invalid findings stay dropped.
    const message = failed(second, 2);
    return {
      summary: first.summary,
      drafts: sorted.valid,
      dropped: sorted.dropped,
      warnings: [message],
      failure: { kind: second.kind, message },
    };
  }
  const resorted = sortFindings(second.findings, scope, options.minConfidence, transport.prepare);
  return { summary: second.summary, drafts: resorted.valid, dropped: resorted.dropped, warnings: [], failure: null };
}

/** Asks a reviewer program (argv, no shell) about one chunk. */
export function askReviewer(
  argv: readonly string[],
  selection: ChunkSelection,
  options: ProgramOptions & { minConfidence: number; label: string },
): Promise<ReviewerChunkResult> {
  return askWith(
    {
      ask: (input) => runProgram(argv, input, options),
      prepare: programFinding,
      failed: (where, kind, detail, round) => m.reviewerFailed(options.label, where, kind, detail, round),
    },
    selection,
    options,
  );
}
