/** Every user-facing message of `revtrail mine` and of the reading of Review-Finding lines. */
export const mineMessages = {
  emptyValue: 'empty Review-Finding value',
  adrSeparator: 'adr-0029 finding needs " \u2014 " (space, em dash U+2014, space) between the severity and the text',
  adrCase: 'adr-0029 finding needs a lower-case reviewer and an upper-case SEVERITY (CRITICAL, HIGH, MEDIUM or LOW)',
  adrReviewer: (reviewer: string) =>
    `looks like the adr-0029 grammar (<reviewer> <SEVERITY> \u2014 <text>), but "${reviewer}" is not one of its reviewers (code-review, code, security, adversarial)`,
  adrSeverity: (severity: string) =>
    `looks like the adr-0029 grammar (<reviewer> <SEVERITY> \u2014 <text>), but "${severity}" is not one of its severities (CRITICAL, HIGH, MEDIUM, LOW)`,
  adrText: 'adr-0029 finding has no text after the em dash',
  bodyPlacement: (id: string) =>
    `Review-Finding ${id} is in the message body, not in git's trailer block (placement "body"): %(trailers) does not see it`,
  bodyNotCounted: (items: readonly string[]) =>
    `revtrail: warning: ${items.length === 1 ? '1 Review-Finding row is' : `${items.length} Review-Finding rows are`} in a message body, not in git's trailer block, and so not counted (as the push gate does not count ${items.length === 1 ? 'it' : 'them'}): ${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}; revtrail mine lists ${items.length === 1 ? 'it' : 'them'} (placement "body")`,
  badFormat: (format: string) => `unknown format "${format}"`,
  badFormatRemedy: 'Use --format jsonl, json or csv.',
  badRevision: (why: string) => `git log cannot read the revisions: ${why}`,
  badRevisionRemedy: 'Name revisions as git log takes them (a branch, a tag, A..B), or use --all.',
  outUnwritable: (file: string, why: string) => `cannot write ${file}: ${why}`,
  outUnwritableRemedy: 'Choose a file in a folder you can write to.',
  progress: (commits: number, records: number) => `mine: ${commits} commits with findings read, ${records} records`,
  warningsMore: (n: number) => `revtrail: ... and ${n} more warnings (--format json lists them all)`,
  warning: (commit: string, message: string) => `revtrail: warning: ${commit.slice(0, 12)}: ${message}`,
  rejectedLine: (commit: string, reason: string) =>
    `revtrail: warning: ${commit.slice(0, 12)}: Review-Finding line not read: ${reason}`,
  noReviewers: 'mine --signed-answers: the config names no reviewers (gate.reviewers), so no answer needs a signature',
  noReviewersRemedy:
    'Name a reviewers file in git\'s allowed_signers format: "gate": {"reviewers": {"file": ".revtrail/reviewers"}} (docs/gate.md "Signed answers").',
};
