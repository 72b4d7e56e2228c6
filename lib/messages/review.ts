/** Every user-facing message of `revtrail review` and the review pipeline. */
import type { ReviewEvent } from '../core/vocabulary.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const FAILURE_WORDS: Record<string, string> = {
  missing: 'was not found',
  'not-executable': 'is not executable',
  spawn: 'could not be started',
  crash: 'failed',
  timeout: 'timed out',
  'too-large': 'wrote more output than allowed',
  garbage: 'answered something that is not {summary, findings}',
};

export const reviewMessages = {
  // Rules
  longLines: (path: string, lines: ReadonlyArray<{ line: number; length: number }>, cap: number) => {
    const shown = lines.slice(0, 3).map((l) => `${path}:${l.line} (${l.length} characters)`).join(', ');
    const more = lines.length > 3 ? ` and ${plural(lines.length - 3, 'more line')}` : '';
    return `${shown}${more}: longer than ${cap} characters; only the credential rules checked ${lines.length === 1 ? 'it' : 'them'}`;
  },
  tooManyMatches: (ruleSource: string, path: string, count: number, cap: number) =>
    `${ruleSource} matched ${count} lines of ${path}; only the first ${cap} are reported`,
  ruleTimedOut: (ruleSource: string, path: string, ms: number) =>
    `${ruleSource} took over ${ms} ms on ${path} and was skipped for the rest of this review; simplify its pattern (nested quantifiers such as (a+)+ backtrack without end)`,
  unknownBuiltin: (entries: readonly string[]) =>
    `builtinRules names no built-in rule: ${entries.join(', ')} (ids: conflict-marker, private-key, aws-access-key, aws-secret-key, github-token, slack-token, stripe-key, google-api-key, npm-token, focused-test, skipped-test, debugger, shell-exec, sql-concat)`,
  badRuleFinding: (ruleSource: string, why: string) => `${ruleSource}: finding dropped: ${why}`,

  // Reviewer program
  reviewerFailed: (label: string, where: string, kind: string, detail: string, round: 1 | 2) =>
    `reviewer program ${label} ${FAILURE_WORDS[kind] ?? 'failed'} on ${where}${round === 2 ? ' when asked again' : ''} (${detail}); the review goes on with the rule findings`,
  reviewerNotTrusted: (label: string, configFile: string | null, changed: boolean) =>
    `reviewer program ${label} (reviewer.command${configFile ? ` in ${configFile}` : ''}) is ${changed ? 'not the command trusted in this clone (it changed)' : 'not trusted in this clone'}: not run; check it, then run \`revtrail trust\` to allow it`,
  reviewerOutsideRepo: (label: string) =>
    `reviewer program ${label} (reviewer.command) is not run outside a git repository, where nothing can be trusted; give it as --reviewer to run it`,
  reviewerStopped: (label: string) => `reviewer program ${label} is not asked about the remaining chunks`,
  reviewerRequired: (label: string) => `the reviewer program ${label} is required (reviewer.required) and did not answer`,
  reviewerRequiredRemedy: 'Fix the program or its reviewer.command, or set reviewer.required to false.',
  reviewerFindingDropped: (where: string, why: string) => `reviewer finding on ${where} dropped: ${why}`,
  contradiction: (where: string, summary: string, blocking: readonly string[]) =>
    `reviewer summary for ${where} says "${summary.length > 80 ? `${summary.slice(0, 77)}...` : summary}" but there ${blocking.length === 1 ? 'is a blocking finding' : `are ${blocking.length} blocking findings`} (${blocking.slice(0, 3).join('; ')}); the event is computed from the findings`,

  // Calibration (docs/gate.md "Calibration")
  notBlocking: (rejected: number, verdicts: number, ruleSource: string) =>
    `not blocking: ${rejected} of ${verdicts} answered findings of this rule were rejected in this history (revtrail stats --rule ${ruleSource})`,

  queueUnreadable: (why: string) => `queued verdicts not read (${why}); none of them suppresses a finding in this review`,

  // Summary
  summary: (counted: number, files: number, bySeverity: ReadonlyArray<[string, number]>, suppressed: number, droppedTotal: number, calibrated = 0) => {
    const parts: string[] = [];
    if (counted === 0) parts.push('No findings');
    else parts.push(`${plural(counted, 'finding')} in ${plural(files, 'file')} (${bySeverity.map(([s, n]) => `${n} ${s}`).join(', ')})`);
    if (calibrated) parts.push(`${calibrated} not blocking (calibrated by verdicts in history)`);
    if (suppressed) parts.push(`${suppressed} suppressed by verdicts`);
    if (droppedTotal) parts.push(`${droppedTotal} dropped`);
    return `${parts.join('; ')}.`;
  },
  reviewerSummary: (where: string, summary: string) => `${where}: ${summary}`,

  // CLI
  oneSource: 'use only one of --staged, --range and --diff',
  oneSourceRemedy: 'Without any of them, revtrail reviews all uncommitted changes against HEAD.',
  needsValue: (option: string) => `--${option} needs a value`,
  needsValueRemedy: 'For example: --knowledge .okfw, --diff changes.diff (or - for stdin), --range main..HEAD',
  badMinConfidence: (value: string) => `--min-confidence must be a number from 0 to 1, not "${value}"`,
  badMinConfidenceRemedy: 'For example: --min-confidence 0.9',
  badReviewer: (command: string, why: string) => `--reviewer "${command}": ${why}`,
  badReviewerRemedy: 'Give the program and its arguments, quoted as in a shell: --reviewer "node ./review.js --strict"',
  unterminatedQuote: (quote: string) => `unterminated ${quote} quote`,
  emptyCommand: 'no program named',
  eventLine: (event: ReviewEvent) => event,
  suppressedHeading: (n: number) => `Suppressed by verdicts (${n}):`,
  droppedLine: (d: { low_confidence: number; off_diff: number; bad_citation: number; invalid: number }) =>
    `Dropped: ${d.low_confidence} low confidence, ${d.off_diff} off the diff, ${d.bad_citation} bad citation, ${d.invalid} invalid`,
  warningLine: (w: string) => `warning: ${w}`,
};
