/** How a hook prints a flow's lines (docs/architecture.md "Use cases"). */
import { escapeControl as esc } from '../core/output.js';
import type { Outcome } from '../flows/outcome.js';

/** Hook output: no control character from a message, a path or a bundle reaches the terminal raw. */
export function writeLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  if (lines.length) stream.write(esc(lines.join('\n'), { keepNewlines: true }) + '\n');
}

/** A flow's outcome printed: its lines, then its exit code for the hook to end with. */
export function printed(stream: NodeJS.WritableStream, outcome: Outcome): number {
  writeLines(stream, outcome.lines);
  return outcome.exit;
}
