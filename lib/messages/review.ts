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
  unreachable: 'could not be reached',
};

export const reviewMessages = {
  /** The live line of `revtrail review` on a terminal. */
  allAlone: '--all reviews the whole tree at HEAD: use it without --staged, --range or --diff',
  allAloneRemedy: 'For one change, name it with --staged, --range or --diff instead.',
  progress: (done: number, total: number, path: string) => `reviewing ${done}/${total} ${path}`,
  // Rules
  longLines: (path: string, lines: ReadonlyArray<{ line: number; length: number }>, cap: number) => {
    const shown = lines
      .slice(0, 3)
      .map((l) => `${path}:${l.line} (${l.length} characters)`)
      .join(', ');
    const more = lines.length > 3 ? ` and ${plural(lines.length - 3, 'more line')}` : '';
    return `${shown}${more}: longer than ${cap} characters; only the credential rules checked ${lines.length === 1 ? 'it' : 'them'}`;
  },
  tooManyMatches: (ruleSource: string, path: string, count: number, cap: number) =>
    `${ruleSource} matched ${count} lines of ${path}; only the first ${cap} are reported`,
  ruleTimedOutRemembered: (ruleSource: string, path: string, ms: number) =>
    `${ruleSource} took over ${ms} ms on ${path} and was skipped; later reviews skip it too for a week, or until its pattern changes (nested quantifiers such as (a+)+ backtrack without end)`,
  ruleSkippedEarlier: (ruleSource: string) =>
    `${ruleSource} skipped: its pattern overran its time limit in a review this week (change the pattern, or run revtrail knowledge check)`,
  ruleSandboxFailed: (ruleSource: string) =>
    `${ruleSource} could not be run (the regex sandbox did not start or stopped) and was skipped for the rest of this review`,
  credentialUnfinishedTitle: 'Credential check did not finish on these lines',
  credentialUnfinished: (ruleSource: string, path: string, from: number, to: number, ms: number) =>
    `${ruleSource} did not finish reading ${path}:${from}${to > from ? `-${to}` : ''} within ${ms} ms; the lines it did not read may hold a credential, so this blocks: split the change, or skip the hook deliberately with REVTRAIL=0`,
  builtinTooSlow: (ruleSource: string, path: string, ms: number) =>
    `${ruleSource} took over ${ms} ms on ${path} and was skipped for the rest of this review (a built-in code rule; the credential rules all ran)`,
  ruleTooSlow: (ruleSource: string, ms: number) =>
    `${ruleSource} took over ${ms} ms in this review and was skipped for the rest of it; simplify its pattern`,
  rulePhaseOverBudget: (ms: number, skipped: readonly string[]) =>
    `bundle rules used up their ${ms} ms budget for this review; not run from then on: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ` and ${plural(skipped.length - 5, 'more rule')}` : ''} (the built-in rules all ran)`,
  /** A config that tries to switch off or filter the credential rules (docs/trust.md "Credential rules"). */
  credentialRulesStay: (key: 'builtinRules' | 'minConfidence' | 'exclude', what: string) =>
    key === 'builtinRules'
      ? `builtinRules cannot disable the credential rules: ${what}; they still run`
      : key === 'minConfidence'
        ? `minConfidence cannot filter the credential rules: ${what}; their findings are kept at any confidence`
        : `exclude cannot narrow the credential rules: ${what}; they still run on every path`,
  unknownBuiltin: (entries: readonly string[], ids: readonly string[]) =>
    `builtinRules names no built-in rule: ${entries.join(', ')} (ids: ${ids.join(', ')})`,
  badRuleFinding: (ruleSource: string, why: string) => `${ruleSource}: finding dropped: ${why}`,

  // Files that get the credential rules only, and matches not reported (said with --verbose)
  madeByTools: 'made by a tool (a lock file, minified bundle, source map or generated source, by its name)',
  generatedHeader: (line: number) => `generated (line ${line} says so)`,
  minified: (line: number, length: number) => `minified (line ${line} has ${length} characters)`,
  generatedAttribute: 'generated (linguist-generated in git attributes)',
  vendoredAttribute: 'vendored (linguist-vendored in git attributes)',
  credentialsOnlyNote: (path: string, reason: string) => `${path}: ${reason}; only the credential rules ran`,
  fileCapped: (path: string, caps: { fileBytes: number; fileLines: number }) =>
    `${path}: reviewed up to the cap (${caps.fileBytes / 1048576} MiB or ${caps.fileLines.toLocaleString('en')} lines of diff a file); the rest was screened for credentials only`,
  textView: (encoding: string) =>
    `binary to git (a NUL byte, binary or -diff in git attributes, or over 8 MiB), read as ${encoding} text`,
  binaryNote: (path: string) => `${path}: binary or -diff in git attributes; its lines were not read`,
  ruleDropNote: (path: string, line: number, ruleSource: string, why: string) =>
    `${path}:${line}: not reported by ${ruleSource}: ${why}`,
  attributesUnreadable: (why: string) => `git attributes could not be read (${why}); the review goes on without them`,
  secretMessage: (what: string) =>
    `${what} Anything pushed stays in the history even after a later commit removes it. Revoke or rotate the credential, ` +
    'then load it from the environment or a secret store instead of the source.',
  placeholderKey: (value: string) => `${value} looks like a placeholder or a published example, not a live credential`,
  disabledInline: (directive: string) => `an ${directive} comment turns the rule off here`,

  // Reviewer program
  reviewerFailed: (label: string, where: string, kind: string, detail: string, round: 1 | 2) =>
    `reviewer program ${label} ${FAILURE_WORDS[kind] ?? 'failed'} on ${where}${round === 2 ? ' when asked again' : ''} (${detail}); the review goes on with the rule findings`,
  reviewerNotTrusted: (label: string, configFile: string | null, changed: boolean) =>
    `reviewer program ${label} (reviewer.command${configFile ? ` in ${configFile}` : ''}) is ${changed ? 'not the command trusted in this clone (it changed)' : 'not trusted in this clone'}: not run; check it, then run \`revtrail trust\` to allow it`,
  reviewerOutsideRepo: (label: string) =>
    `reviewer program ${label} (reviewer.command) is not run outside a git repository, where nothing can be trusted; give it as --reviewer to run it`,
  // Structural rules (docs/structural.md)
  structuralRuleDropped: (ruleSource: string, why: string) => `${ruleSource}: not used: ${why}`,
  structuralTooLarge: (path: string, cap: number) =>
    `${path}: over ${cap} bytes: not parsed for the syntax-tree and import rules (its regex rules and the baseline ran)`,
  structuralUnparsed: (path: string, why: string, rules: readonly string[]) =>
    `${path}: does not parse (${why}): its syntax-tree and import rules were skipped (${rules.slice(0, 4).join(', ')}${rules.length > 4 ? ` and ${rules.length - 4} more` : ''}); its regex rules and the baseline ran on its text`,
  structuralPartlyParsed: (path: string, why: string, lines: readonly string[], rules: readonly string[]) =>
    `${path}: does not parse at line${lines.length === 1 && !lines[0]!.includes('-') ? '' : 's'} ${lines.slice(0, 5).join(', ')}${lines.length > 5 ? ', …' : ''} (${why}): its syntax-tree and import rules (${rules.slice(0, 4).join(', ')}${rules.length > 4 ? ` and ${rules.length - 4} more` : ''}) were skipped there and ran on the rest; its regex rules and the baseline read the text there`,
  structuralOverBudget: (ms: number, skipped: readonly string[]) =>
    `syntax-tree and import rules used up their ${ms} ms budget; not run on ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ` and ${plural(skipped.length - 3, 'more file')}` : ''}`,
  importCrossing: (message: string | null, specifier: string, target: string | null, boundary: string) =>
    `${message ? `${message} ` : ''}Imports "${specifier}"${target ? ` (${target})` : ''}, across the boundary "${boundary}".`,
  // Model reviewer (docs/model.md)
  modelFailed: (model: string, where: string, kind: string, detail: string, round: 1 | 2) =>
    `model reviewer ${model} ${FAILURE_WORDS[kind] ?? 'failed'} on ${where}${round === 2 ? ' when asked again' : ''} (${detail}); the review goes on with the rule findings`,
  modelStopped: (model: string) => `model reviewer ${model} is not asked again in this review`,
  modelBadEndpoint: (endpoint: string, why: string) =>
    `reviewer.model.endpoint "${endpoint}" is not used: ${why}; the review goes on with the rules`,
  modelNotTrusted: (endpoint: string) =>
    `reviewer.model.endpoint ${endpoint} is not on this machine and not trusted in this clone: the code is not sent; if you mean to send it there, run \`revtrail trust\``,
  modelOutsideRepo: (endpoint: string) =>
    `reviewer.model.endpoint ${endpoint} is not on this machine: not asked outside a git repository, where nothing can be trusted`,
  reviewerStopped: (label: string) => `reviewer program ${label} is not asked about the remaining chunks`,
  reviewerRequired: (label: string) =>
    `the reviewer program ${label} is required (reviewer.required) and did not answer`,
  reviewerRequiredRemedy: 'Fix the program or its reviewer.command, or set reviewer.required to false.',
  reviewerFindingDropped: (where: string, why: string) => `reviewer finding on ${where} dropped: ${why}`,
  contradiction: (where: string, summary: string, blocking: readonly string[]) =>
    `reviewer summary for ${where} says "${summary.length > 80 ? `${summary.slice(0, 77)}...` : summary}" but there ${blocking.length === 1 ? 'is a blocking finding' : `are ${blocking.length} blocking findings`} (${blocking.slice(0, 3).join('; ')}); the event is computed from the findings`,

  // Calibration (docs/gate.md "Calibration")
  notBlocking: (rejected: number, verdicts: number, ruleSource: string, repositories = 0) =>
    repositories
      ? `not blocking: ${rejected} of ${verdicts} answered findings of this rule were rejected in this history and ${repositories} other ${repositories === 1 ? 'repository' : 'repositories'} (revtrail stats --rule ${ruleSource}; revtrail org stats)`
      : `not blocking: ${rejected} of ${verdicts} answered findings of this rule were rejected in this history (revtrail stats --rule ${ruleSource})`,
  pooledUnread: (what: string, why: string) =>
    `pooled calibration: ${what} not read (${why}); calibrating from this repository's own history`,

  queueUnreadable: (why: string) =>
    `queued verdicts not read (${why}); none of them suppresses a finding in this review`,

  // Summary
  summary: (
    counted: number,
    files: number,
    bySeverity: ReadonlyArray<[string, number]>,
    suppressed: number,
    droppedTotal: number,
    calibrated = 0,
  ) => {
    const parts: string[] = [];
    if (counted === 0) parts.push('No findings');
    else
      parts.push(
        `${plural(counted, 'finding')} in ${plural(files, 'file')} (${bySeverity.map(([s, n]) => `${n} ${s}`).join(', ')})`,
      );
    if (calibrated) parts.push(`${calibrated} not blocking (calibrated by verdicts in history)`);
    if (suppressed) parts.push(`${suppressed} suppressed by verdicts`);
    if (droppedTotal) parts.push(`${droppedTotal} dropped`);
    return `${parts.join('; ')}.`;
  },
  baselinedSummary: (n: number) => `${n} in the baseline (.revtrail/baseline.json)`,
  baselineUnreadable: (why: string) =>
    `.revtrail/baseline.json not read (${why}); no finding is taken out by the baseline in this review`,
  reviewerSummary: (where: string, summary: string) => `${where}: ${summary}`,

  // CLI
  badMinConfidence: (value: string) => `--min-confidence must be a number from 0 to 1, not "${value}"`,
  badMinConfidenceRemedy: 'For example: --min-confidence 0.9',
  badReviewer: (command: string, why: string) => `--reviewer "${command}": ${why}`,
  badReviewerRemedy: 'Give the program and its arguments, quoted as in a shell: --reviewer "node ./review.js --strict"',
  unterminatedQuote: (quote: string) => `unterminated ${quote} quote`,
  emptyCommand: 'no program named',
  eventLine: (event: ReviewEvent) => event,
  suppressedHeading: (n: number) => `Suppressed by verdicts (${n}):`,
  allowedHeading: (n: number) => `Allowed by comments (${n}):`,
  excludeBadGlob: (key: string, error: string) => `exclude.${key}: ${error}`,
  excludeGlobWarning: (key: string, warning: string) => `exclude.${key}: ${warning}`,
  excludeUnknownRule: (key: string, near: string | null) =>
    `exclude.${key}: no rule has this rule_source or id, so it excludes nothing${near ? ` (did you mean ${near}?)` : ''}`,
  excludeCredential: (key: string) =>
    `exclude.${key}: credential rules run on every path; this exclude is not applied (answer a test value with a REJECT verdict, or an allow comment)`,
  allowedCredential: (path: string, line: number, ruleSource: string, marker: string, id: string) =>
    `${path}:${line}: credential finding ${id} (${ruleSource}) allowed by ${marker}: not reported, not blocking (gate.credentialAllow)`,
  allowRefused: (path: string, line: number, ruleSource: string) =>
    `${path}:${line}: the allow comment for credential rule ${ruleSource} is not honoured (gate.credentialAllow is false); answer it with a verdict instead`,
  allowNeedsSignature: (path: string, line: number, ruleSource: string) =>
    `${path}:${line}: the allow comment for ${ruleSource} does not open the push gate: the policy's gate.reviewers asks for an answer signed by a reviewer`,
  droppedLine: (counts: object) => {
    const d = counts as Readonly<Record<string, number>>;
    const words: Array<[string, string]> = [
      ['low_confidence', 'low confidence'],
      ['off_diff', 'off the diff'],
      ['bad_citation', 'bad citation'],
      ['invalid', 'invalid'],
      ['placeholder', 'placeholder keys'],
      ['disabled_inline', 'disabled inline'],
      ['existing', 'already there or not in code'],
      ['allowed_inline', 'allowed inline'],
      ['credentials_only', 'files checked for credentials only'],
    ];
    const shown = words.filter(([k], i) => i < 4 || (d[k] ?? 0) > 0);
    const hint = shown.length > 4 ? ' (--verbose says which)' : '';
    return `Dropped: ${shown.map(([k, w]) => `${d[k] ?? 0} ${w}`).join(', ')}${hint}`;
  },
  noteLine: (note: string) => `note: ${note}`,
  warningLine: (w: string) => `warning: ${w}`,
};

/** Why a finding was dropped by the finding contract (lib/review/findings/contract.ts). */
export const contractMessages = {
  lowConfidence: (confidence: number, min: number) => `confidence ${confidence} is below ${min}`,
  otherFile: (path: string, chunkPath: string) => `path "${path}" is not the chunk's file "${chunkPath}"`,
  startAfterLine: (start: number, line: number) => `start_line ${start} is after line ${line}`,
  notChanged: (line: number, path: string, changed: string) =>
    `line ${line} is not a changed line of ${path} (changed: ${changed})`,
  uncitedArchitecture: 'an architecture finding must cite at least one selected document',
  unknownCitation: (unknown: readonly string[], allowed: readonly string[]) =>
    `cites ${unknown.map((c) => `"${c}"`).join(', ')}, not a document selected for this chunk (allowed: ${allowed.length ? allowed.join(', ') : 'none'})`,
};
