/** Turns any error into the CLI's exit code and one or two lines (docs/cli.md). */
import { isRevtrailError } from './errors.js';
import { escapeControl as esc } from './output.js';

/** The exit status of a process killed by SIGPIPE, which is what git gives in `git log | head`. */
export const CLOSED_OUTPUT_EXIT = 141;

export function reportError(error: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  const debug = process.env.REVTRAIL_DEBUG === '1';
  // The reader closed the pipe (`revtrail mine | head`): nothing went wrong here, and nothing
  // more can be said; end as git does (docs/cli.md).
  if ((error as NodeJS.ErrnoException | null)?.code === 'EPIPE') return CLOSED_OUTPUT_EXIT;
  if (isRevtrailError(error)) {
    stderr.write(`revtrail: ${esc(error.message, { keepNewlines: true })}\n`);
    if (error.remedy) stderr.write(`  ${esc(error.remedy, { keepNewlines: true })}\n`);
    if (debug && error.stack) stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`revtrail: internal error: ${esc(message, { keepNewlines: true })}\n`);
  stderr.write(
    debug && error instanceof Error && error.stack
      ? `${error.stack}\n`
      : '  Run again with REVTRAIL_DEBUG=1 to see where, and report it.\n',
  );
  return 2;
}
