/** revtrail's version for reports: set at bundle time; tests of the unbundled modules pass their own. */
declare const REVTRAIL_VERSION: string | undefined;

export function toolVersion(): string {
  return typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : '0.0.0';
}
