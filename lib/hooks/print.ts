/** Short finding lists for hook output (stderr: git shows it next to its own messages). */
import type { Finding } from '../review/types.js';
import { lineSpan } from '../core/trailer/span.js';
import { hookMessages as m } from '../messages/hooks.js';

export function findingLines(findings: readonly Finding[], max = 10): string[] {
  const lines = findings.slice(0, max).map((f) => m.findingLine(f.path, lineSpan(f.start_line, f.line), f.severity, f.title, f.rule_source, f.id));
  if (findings.length > max) lines.push(m.moreFindings(findings.length - max));
  return lines;
}

export function writeLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  if (lines.length) stream.write(lines.join('\n') + '\n');
}
