/** The review's output formats, one list (the CLI's choices and the formatter loader, ./index.ts, derive from it). */
export const REPORT_FORMATS = ['text', 'json', 'sarif', 'github', 'codequality'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
