/** `--format json`: the ReviewResult itself (docs/review.md "Output"), strict JSON, stable key order. */
import type { ReviewResult } from '../review/types.js';
import { jsonForTerminal } from '../core/output.js';

export function formatJson(result: ReviewResult): string {
  const { version, summary, event, findings, suppressed, knowledge_docs, merged_findings, dropped, warnings } = result;
  const allowed = result.allowed ?? [];
  // The adoption baseline's findings (docs/mining.md "The baseline"), only where it took any out.
  const baselined = result.baselined?.length ? { baselined: result.baselined } : {};
  return `${jsonForTerminal(JSON.stringify({ version, summary, event, findings, suppressed, allowed, ...baselined, knowledge_docs, merged_findings, dropped, warnings }, null, 2))}\n`;
}
