/** Output formats of a review: text (people), json (machines), sarif (code-scanning tools). */
import type { ReviewResult } from '../review/types.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

export const REPORT_FORMATS = ['text', 'json', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function formatReport(result: ReviewResult, format: ReportFormat, options: { color?: boolean; version?: string } = {}): string {
  if (format === 'json') return formatJson(result);
  if (format === 'sarif') return formatSarif(result, options);
  return formatText(result, options);
}

export { formatJson, formatSarif, formatText };
export { formatWarnings } from './text.js';
