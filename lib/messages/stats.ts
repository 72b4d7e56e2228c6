/** Every user-facing text of `revtrail stats`. */
export const statsMessages = {
  investigate: 'investigate',
  performingWell: 'performing well',
  noFindings: 'no Review-Finding trailers in the history',
  total: 'total',
  wroteHtml: (file: string) => `wrote ${file}`,
  htmlUnwritable: (file: string, why: string) => `cannot write ${file}: ${why}`,
  htmlUnwritableRemedy: 'Choose a file in a folder you can write to.',
  htmlTitle: 'revtrail: review findings per rule',
  htmlRateChart: 'Reject rate per rule (REJECT over human verdicts)',
  htmlTimeChart: 'Findings over time (occurrences per month, by verdict)',
  htmlTable: 'Counts per rule',
  htmlLegendBands: 'above 30%: investigate; below 10%: performing well',
  htmlNoVerdicts: 'no human verdicts yet',
  htmlGenerated: (commits: number) => `From ${commits} commits with Review-Finding trailers.`,
};
