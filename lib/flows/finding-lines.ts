/** Short finding lists for what the flows answer (a hook prints them to stderr, beside git's own words). */
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
      ? [
          line,
          `    ${reviewMessages.notBlocking(f.calibration.rejected, f.calibration.verdicts, esc(f.rule_source), f.calibration.repositories)}`,
        ]
      : [line];
  });
  if (findings.length > max) lines.push(m.moreFindings(findings.length - max));
  return lines;
}
