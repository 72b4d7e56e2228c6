/** Output formats of a review: text (people), json (machines), sarif (code-scanning tools), github and codequality (CI). */
import type { ReviewResult } from '../review/types.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';
import { formatGithub } from './github.js';
import { formatCodeQuality } from './codequality.js';

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'github', 'codequality'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function formatReport(result: ReviewResult, format: ReportFormat, options: { color?: boolean; version?: string } = {}): string {
  if (format === 'json') return formatJson(result);
  if (format === 'sarif') return formatSarif(result, options);
  if (format === 'github') return formatGithub(result, { terminal: options.color });
  if (format === 'codequality') return formatCodeQuality(result);
  return formatText(result, options);
}

export { formatJson, formatSarif, formatText, formatGithub, formatCodeQuality };
export { formatWarnings } from './text.js';
