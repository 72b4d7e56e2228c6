/** Every user-facing text of `revtrail stats`. */
export const statsMessages = {
  investigate: 'investigate',
  performingWell: 'performing well',
  tooFewVerdicts: 'too few verdicts',
  noFindings: 'no Review-Finding trailers in the history',
  total: 'total',
  calibratedHeader: 'calibrated',
  calibratedSince: (commit: string | null, verdict: string, finding: string) =>
    `since ${verdict} ${finding}${commit ? ` in ${commit.slice(0, 12)}` : ''}`,
  neverCalibrated: 'never (credential rule)',
  threadsHeading: (rule: string, n: number) => `${n} finding${n === 1 ? '' : 's'} of ${rule}, oldest first (id, latest verdict, where, verdict commit, rationale):`,
  unknownRule: (rule: string) => `no finding of rule ${rule} in this history`,
  unknownRuleRemedy: (known: readonly string[]) =>
    known.length ? `Rules with findings: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''} (revtrail stats lists them all).` : 'This history has no Review-Finding trailers yet.',
  wroteHtml: (file: string) => `wrote ${file}`,
  htmlUnwritable: (file: string, why: string) => `cannot write ${file}: ${why}`,
  htmlUnwritableRemedy: 'Choose a file in a folder you can write to.',
  htmlTitle: 'revtrail: review findings per rule',
  htmlRateChart: 'Reject rate per rule (REJECT over human verdicts)',
  htmlTimeChart: 'Findings over time (occurrences per month, by verdict)',
  htmlTable: 'Counts per rule',
  htmlLegendBands: 'above 30%: investigate; below 10%: performing well',
  htmlNoVerdicts: 'no human verdicts yet',
  htmlCalibratedMark: 'calibrated: not blocking',
  htmlLegendCalibrated: (c: { enabled: boolean; minVerdicts: number; demoteAbove: number }) =>
    c.enabled
      ? `calibrated: above ${(c.demoteAbove * 100).toFixed(0)}% over at least ${c.minVerdicts} verdicts, its findings no longer block (credential rules always do)`
      : 'calibration is off (calibration.enabled: false)',
  htmlGenerated: (commits: number) => `From ${commits} commits with Review-Finding trailers.`,
};
