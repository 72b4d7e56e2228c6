/** Short finding lists for hook output (stderr: git shows it next to its own messages). */
import type { Finding } from '../review/types.js';
import { lineSpan } from '../record/span.js';
import { escapeControl as esc } from '../core/output.js';
import { hookMessages as m } from '../messages/hooks.js';
import { reviewMessages } from '../messages/review.js';

/** One line per finding; a finding of a demoted rule adds why it does not block (docs/gate.md "Calibration"). */
export function findingLines(findings: readonly Finding[], max = 10): string[] {
  const lines = findings.slice(0, max).flatMap((f) => {
    const line = m.findingLine(
      esc(f.path),
      lineSpan(f.start_line, f.line),
      f.severity,
      esc(f.title),
      esc(f.rule_source),
      f.id,
    );
    return f.calibration
      ? [line, `    ${reviewMessages.notBlocking(f.calibration.rejected, f.calibration.verdicts, esc(f.rule_source))}`]
      : [line];
  });
  if (findings.length > max) lines.push(m.moreFindings(findings.length - max));
  return lines;
}

/** Hook output: no control character from a message, a path or a bundle reaches the terminal raw. */
export function writeLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  if (lines.length) stream.write(esc(lines.join('\n'), { keepNewlines: true }) + '\n');
}
