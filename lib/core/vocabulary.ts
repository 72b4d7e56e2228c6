/** The finding vocabulary shared by findings, trailers and mining (docs/review.md, docs/trailers.md). */
export const SEVERITIES = ['bug', 'security', 'api-surface', 'test', 'nit', 'suggestion', 'question'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Most severe first: the order used when two findings fold into one. */
export const SEVERITY_RANK: readonly Severity[] = [
  'security',
  'bug',
  'api-surface',
  'test',
  'suggestion',
  'question',
  'nit',
];

export const CATEGORIES = [
  'architecture',
  'security',
  'correctness',
  'error-handling',
  'type-safety',
  'async',
  'performance',
  'style',
  'patterns',
  'testing',
  'documentation',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const VERDICTS = ['OPEN', 'ACCEPT', 'REJECT', 'DEFER', 'ACKNOWLEDGE'] as const;
export type Verdict = (typeof VERDICTS)[number];
export type HumanVerdict = Exclude<Verdict, 'OPEN'>;

/** Verdicts that take a finding out of the event count (ACCEPT means "fixed", so it does not). */
export const SUPPRESSING_VERDICTS: readonly Verdict[] = ['REJECT', 'DEFER', 'ACKNOWLEDGE'];

/** Severities that make a review REQUEST_CHANGES on their own (`test` does too, unless softTests). */
export const BLOCKING_SEVERITIES: readonly Severity[] = ['bug', 'security', 'api-surface'];

/** The more severe of two severities (SEVERITY_RANK order). */
export function moreSevere(a: Severity, b: Severity): Severity {
  return SEVERITY_RANK.indexOf(a) <= SEVERITY_RANK.indexOf(b) ? a : b;
}

/** The review's outcome, computed mechanically from the counted findings (docs/review.md). */
export const EVENTS = ['APPROVE', 'COMMENT', 'REQUEST_CHANGES'] as const;
export type ReviewEvent = (typeof EVENTS)[number];

/** Severities of the second trailer grammar (ADR-0029), kept raw when mined. */
export const ADR_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type AdrSeverity = (typeof ADR_SEVERITIES)[number];
