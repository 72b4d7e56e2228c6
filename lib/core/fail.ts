/** Turns any error into the CLI's exit code and one or two lines (docs/cli.md). */
import { isRevtrailError } from './errors.js';
import { escapeControl as esc } from './output.js';

export function reportError(error: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  const debug = process.env.REVTRAIL_DEBUG === '1';
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
