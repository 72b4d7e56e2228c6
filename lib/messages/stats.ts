/** Every user-facing text of `revtrail stats`. */
const signedWhy: Record<string, string> = {
  unsigned: 'not signed',
  unlisted: 'signed by a key the reviewers file does not list',
  bad: 'the signature does not verify',
  unusable: 'the signature is expired, revoked or not checkable',
  expired: 'signed by a key whose validity in the reviewers file has ended',
  'not-yet': 'signed by a key not valid yet in the reviewers file',
  unverified:
    "one reviewer's signature, and the commit that added the finding is not signed by a listed key (its author is unverified; the server may have taken its authenticated pusher)",
  self: 'signed by the person who added the finding',
  'no-reviewers': 'the reviewers file is missing',
  queued: 'not committed',
};

export const statsMessages = {
  investigate: 'investigate',
  performingWell: 'performing well',
  tooFewVerdicts: 'too few verdicts',
  noFindings: 'no Review-Finding trailers in the history',
  total: 'total',
  calibratedHeader: 'calibrated',
  calibratedSince: (commit: string | null, verdict: string, finding: string) =>
    `since ${verdict} ${finding}${commit ? ` in ${commit.slice(0, 12)}` : ''}`,
  neverCalibrated: 'never (credential or security rule)',
  /** A rule whose rate would demote it, but whose REJECTs come from too few people. */
  needsAgreement: (people: number, min: number) =>
    `not yet: REJECTs from ${people} ${people === 1 ? 'person' : 'people'}, needs ${min} (gate.minAuthors)`,
  answeredHeading: 'Who answered (people by e-mail; threads per latest verdict they gave):',
  answeredLine: (rule: string, people: string, rejecting: number, min: number) =>
    `  ${rule}: ${people}; REJECTs from ${rejecting} ${rejecting === 1 ? 'person' : 'people'} (gate.minAuthors ${min})`,
  answeredPerson: (person: string, counts: Record<string, number>) =>
    `${person || 'unknown'} (${Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${v} ${n}`)
      .join(', ')})`,
  htmlAnsweredHeading: 'Who answered',
  htmlAnsweredIntro: (min: number) =>
    `The people who gave each rule's latest verdicts, by e-mail (by verified signer where gate.reviewers names reviewers: unsigned answers are listed under no one). A rule is demoted only when its REJECTs come from at least ${min} ${min === 1 ? 'person' : 'people'} (gate.minAuthors).`,
  htmlAnsweredPeople: 'answered by',
  htmlAnsweredAgree: 'people behind its REJECTs',
  threadsHeading: (rule: string, n: number) =>
    `${n} finding${n === 1 ? '' : 's'} of ${rule}, oldest first (id, latest verdict, where, verdict commit, rationale):`,
  unknownRule: (rule: string) => `no finding of rule ${rule} in this history`,
  unknownRuleRemedy: (known: readonly string[]) =>
    known.length
      ? `Rules with findings: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''} (revtrail stats lists them all).`
      : 'This history has no Review-Finding trailers yet.',
  wroteHtml: (file: string) => `wrote ${file}`,
  htmlUnwritable: (file: string, why: string) => `cannot write ${file}: ${why}`,
  htmlUnwritableRemedy: 'Choose a file in a folder you can write to.',
  htmlTitle: 'revtrail: review findings per rule',
  htmlRateChart: 'Reject rate per rule (REJECT over human verdicts)',
  /** A rate with its sample size: "50.0% of 8". */
  rateOf: (rate: string, n: number) => `${rate} of ${n}`,
  htmlTimeChart: 'Findings raised and answered per month',
  htmlTrendChart: 'Per rule: findings raised per month (rejected in red)',
  htmlTable: 'Counts per rule',
  htmlRateColumn: 'reject rate (of n verdicts)',
  htmlLegendBands: (min: number) =>
    `REJECT over human verdicts, "of n" the verdicts it rests on. Above 30%: investigate; below 10%: performing well; under ${min} verdicts: too few verdicts to say.`,
  htmlNoVerdicts: 'no human verdicts yet',
  htmlRaised: 'raised (first seen)',
  htmlAnswered: 'answered (first human verdict)',
  htmlMonthTip: (month: string, kind: string, n: number) => `${month}: ${n} ${kind}`,
  htmlTrendOf: (rule: string) => `findings of ${rule} per month`,
  htmlTrendSummary: (raised: number, recent: number, months: number) =>
    `${raised} raised; ${recent} in the last ${months >= 3 ? '3 months' : months === 2 ? '2 months' : 'month'}`,
  htmlSpan: (first: string, last: string) => (first === last ? `${first}.` : `${first} to ${last}.`),
  htmlGenerated: (commits: number, findings: number, answered: number) =>
    `${findings} finding${findings === 1 ? '' : 's'} from ${commits} commit${commits === 1 ? '' : 's'} with Review-Finding trailers; ${answered} human verdict${answered === 1 ? '' : 's'}.`,
  htmlCalibratedMark: 'calibrated: not blocking',
  htmlFlagColumn: 'flag',
  htmlTrendAxis: 'month',
  htmlTrendScale: 'Each row has its own scale: the number left of it is its busiest month.',
  htmlRepository: 'repository',
  htmlBranch: 'branch',
  htmlMainline: 'mainline',
  htmlGeneratedAt: 'generated',
  htmlTheMainline: 'the mainline',
  htmlId: 'ID',
  htmlSeverity: 'severity',
  htmlWhere: 'file',
  htmlRule: 'rule',
  htmlIssue: 'issue',
  htmlAnswer: 'answer',
  htmlRaisedCommit: 'raised in',
  htmlAnswerCommit: 'answered in',
  htmlMore: (n: number) => `and ${n} more (revtrail verdict --list shows the open ones).`,
  htmlOpenHeading: (n: number) => `Still open: ${n} finding${n === 1 ? '' : 's'} without a human verdict`,
  htmlNoneOpen: 'None: every finding has a human verdict.',
  htmlThroughHeading: (n: number, mainline: string) =>
    `Let through to ${mainline}: ${n} blocking finding${n === 1 ? '' : 's'} answered by DEFER or ACKNOWLEDGE`,
  htmlNoneThrough: (mainline: string) =>
    `None: no bug, security, api-surface or test finding reached ${mainline} on a DEFER or an ACKNOWLEDGE.`,
  htmlNoMainline:
    'No mainline branch found (set "mainline" in revtrail.config.json): nothing to say about what reached it.',
  htmlLegendCalibrated: (c: { enabled: boolean; minVerdicts: number; demoteAbove: number }) =>
    c.enabled
      ? `calibrated: above ${(c.demoteAbove * 100).toFixed(0)}% over at least ${c.minVerdicts} verdicts, its findings no longer block (credential rules always do)`
      : 'calibration is off (calibration.enabled: false)',
  // Signed answers (docs/gate.md "Signed answers")
  signedHeading: (file: string, kinds: readonly string[], n: number) =>
    `Signed answers (gate.reviewers: ${file}, for ${kinds.join(', ')}): ${n} answer${n === 1 ? '' : 's'}`,
  /** `finding`: "ID FILE (RULE)"; `added`, `answered`: a commit and who or when. */
  signedLine: (finding: string, added: string, answer: string, answered: string, signer: string | null, why?: string) =>
    `  ${finding}, added in ${added}: ${answer} in ${answered}: ` +
    (signer ? `signed by ${signer}, opens the gate` : `does not count (${signedWhy[why ?? ''] ?? why})`),
  /** Who added a finding, as the audit may say it: the name the pusher wrote is not a verified author. */
  addedBy: (who: string, verified: boolean) =>
    verified ? who : `${who} (unverified: that commit is not signed by a listed key)`,
  signedBy: (signer: string, key: string, second?: string) => `${signer} (${key})${second ? ` and ${second}` : ''}`,
  policyChangesHeading: (n: number) =>
    `Changes to who may answer (the reviewers file, gate.*): ${n} change${n === 1 ? '' : 's'}`,
  policyChangeLine: (
    commit: string,
    what: string,
    author: string,
    date: string,
    id: string,
    answer: string,
    signer: string | null,
  ) =>
    `  ${commit} ${what} by ${author} at ${date}: ${id}, ` +
    (answer === 'opened'
      ? `answered and signed by ${signer}`
      : answer === 'refused'
        ? 'answered, but no answer counts'
        : 'no signed answer'),
  htmlSignedHeading: (n: number) =>
    `Signed answers: ${n} answer${n === 1 ? '' : 's'} to findings that need a reviewer's signature`,
  htmlSigner: 'signed by',
  htmlCounts: 'opens the gate',
};
