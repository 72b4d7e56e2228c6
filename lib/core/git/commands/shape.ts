/**
 * The output formats a named command declares (docs/architecture.md "The git runner"): run to
 * completion as text, bytes, lines or its exit status (`run`), or read as it arrives as chunks,
 * records or batches of records (`stream`). Each named command is one of these over its argv.
 */
import type { GitAnswer, GitCommand, GitInvocation, StreamCommand } from '../run.js';
import { parseLines } from './parse.js';

type Extra = Omit<GitInvocation, 'args'>;

/** stdout decoded as UTF-8, as git printed it. */
export function text(args: readonly string[], extra: Extra = {}): GitCommand<string> {
  return { args, ...extra, parse: (a) => a.text };
}

/** stdout undecoded: bytes that must survive as they are (a message in another encoding). */
export function bytes(args: readonly string[], extra: Extra = {}): GitCommand<Buffer> {
  return { args, ...extra, parse: (a) => a.bytes };
}

/** stdout's non-empty lines. */
export function lines(args: readonly string[], extra: Extra = {}): GitCommand<string[]> {
  return { args, ...extra, parse: (a) => parseLines(a.text) };
}

/** Whether git exited 0 (the other accepted codes mean no). */
export function succeeds(args: readonly string[], extra: Extra = {}): GitCommand<boolean> {
  return { args, ...extra, parse: (a: GitAnswer) => a.status === 0 };
}

/** stdout as it arrives, in raw pieces. */
export function chunks(args: readonly string[], extra: Extra = {}): StreamCommand<'chunks'> {
  return { args, ...extra, stream: 'chunks' };
}

/** stdout cut at `separator` (a NUL by default; `\n` for lines), a record at a time. */
export function records(args: readonly string[], extra: Extra & { separator?: string } = {}): StreamCommand<'records'> {
  return { args, ...extra, stream: 'records' };
}

/** records, a read at a time: for history-sized output, where an await per record costs more than the parse. */
export function batches(args: readonly string[], extra: Extra & { separator?: string } = {}): StreamCommand<'batches'> {
  return { args, ...extra, stream: 'batches' };
}

/** Names (revisions, paths) one a line, as git's `--stdin` reads them. */
export const stdinLines = (names: readonly string[]): string => `${names.join('\n')}\n`;
