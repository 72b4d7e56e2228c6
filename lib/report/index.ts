/**
 * Output formats of a review: text (people), json (machines), sarif (code-scanning tools), github
 * and codequality (CI). One list; each format's module is loaded only when it is chosen, so the
 * CLI's start-up does not pay for the others (docs/architecture.md "Why the hook path is kept small").
 */
import type { ReviewResult } from '../review/types.js';

import type { ReportFormat } from './formats.js';

export { REPORT_FORMATS, type ReportFormat } from './formats.js';

export type Formatter = (result: ReviewResult, options: { color: boolean }) => string;

/** The formatter of one format. `terminal`: stdout is a terminal (github's annotations differ). */
export async function loadFormatter(format: ReportFormat, options: { terminal: boolean }): Promise<Formatter> {
  switch (format) {
    case 'json':
      return (await import('./json.js')).formatJson;
    case 'sarif': {
      const { formatSarif } = await import('./sarif.js');
      return (result) => formatSarif(result);
    }
    case 'github': {
      const { formatGithub } = await import('./github.js');
      return (result) => formatGithub(result, { terminal: options.terminal });
    }
    case 'codequality': {
      const { formatCodeQuality } = await import('./codequality.js');
      return (result) => formatCodeQuality(result);
    }
    case 'text':
      return (await import('./text.js')).formatText;
  }
}
