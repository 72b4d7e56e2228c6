/** A finding as a trailer row: the finding's fields plus a verdict (OPEN for the reviewer's own). */
import type { Finding } from '../review/types.js';
import type { Verdict } from '../core/vocabulary.js';
import { trailerRowSchema, type TrailerRow } from '../record/row.js';
import { lineSpan } from '../record/span.js';

export { lineSpan };

type FindingFields = Pick<
  Finding,
  'id' | 'path' | 'start_line' | 'line' | 'rule_source' | 'category' | 'severity' | 'title'
>;

/** The row for a finding, or null when a field would not make a valid row (it is then not recorded). */
export function findingRow(finding: FindingFields, verdict: Verdict = 'OPEN', rationale = ''): TrailerRow | null {
  const parsed = trailerRowSchema.safeParse({
    id: finding.id,
    file: finding.path,
    line: lineSpan(finding.start_line, finding.line),
    rule_source: finding.rule_source,
    category: finding.category,
    severity: finding.severity,
    issue: finding.title.replace(/\s+/g, ' ').trim().slice(0, 80),
    verdict,
    rationale: rationale.replace(/\s+/g, ' ').trim(),
  });
  return parsed.success ? parsed.data : null;
}
