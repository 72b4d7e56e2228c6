/** Every user-facing message of `revtrail verdict` and the verdict queue. */
export const verdictMessages = {
  badVerdict: (input: string) => `"${input}" is not a verdict`,
  badVerdictRemedy:
    'VERDICT is ACCEPT (fixed), REJECT (wrong finding), DEFER (later) or ACKNOWLEDGE (known, intended).',
  shortId: (input: string, hex: number) =>
    `"${input}" is too short to name a finding: give at least ${hex} hex digits after rf-`,
  badId: (input: string) => `"${input}" is not a finding ID (rf- and hex digits)`,
  unknownId: (id: string) => `${id} is not a finding revtrail knows on this branch`,
  listRemedy:
    'revtrail verdict --list shows the open findings; a review by the commit-msg or pre-push hook records new ones.',
  ambiguousId: (id: string, ids: readonly string[]) =>
    `${id} matches ${ids.length} findings: ${ids.slice(0, 5).join(', ')}`,
  ambiguousRemedy: 'Give more of the ID.',
  missingArgs: 'verdict needs ID and VERDICT (and a RATIONALE), or --list',
  missingArgsRemedy: "Example: revtrail verdict rf-0123456789 REJECT '`npm test` passes: the key is a test fixture'",
  rationaleRefused: (why: string) => `rationale refused: ${why}`,
  rationaleRemedy: (verdict: string) =>
    ({
      ACCEPT: 'ACCEPT states the fix, e.g. "moved the key to the vault in src/config.ts".',
      REJECT: 'REJECT cites something checkable: a command and its output, a URL, quoted code.',
      DEFER: 'DEFER names a tracker or a timeline, e.g. "JIRA-123, next sprint".',
      ACKNOWLEDGE: 'ACKNOWLEDGE names the documented intent, e.g. "intended, see ADR-7".',
    })[verdict] ?? 'Give a rationale.',
  warning: (text: string) => `warning: ${text}`,
  // Answers by kind (docs/gate.md): a credential is opened by gate.credentialAnswers alone.
  credentialAnswerRefused: (verdict: string, id: string, answers: readonly string[]) =>
    `${verdict} does not open the gate for a credential: ${id} is a credential finding, answered by ${answers.join(' or ')} (gate.credentialAnswers)`,
  credentialAnswerRemedy: (answers: readonly string[]) =>
    `A real key: take it out of every commit that adds it (the push names them), rotate it, and ACCEPT it. Not a secret: revtrail verdict ID ${answers.join('|')} "…". ` +
    'To let this answer open the gate for credentials, the team adds it to gate.credentialAnswers.',
  credentialAcceptNote:
    'ACCEPT on a credential means the key is out of the files; a key a commit already holds still blocks the push until that commit is rewritten (the push names it). Rotate the key.',
  listStillTitle: (n: number) =>
    `Answered, still in history (${n}): the last push review still found them in the pushed commits`,
  listStill: (verdict: string) => `answered ${verdict}; rewrite the commits that add it (git push names them)`,
  queued: (verdict: string, id: string, where: string, issue: string) =>
    `Queued ${verdict} for ${id} (${where} ${issue}).`,
  replaced: (verdict: string, at: string) => `It replaces the queued ${verdict} from ${at}.`,
  alreadyDecided: (verdict: string, commit: string) => `It follows the ${verdict} recorded in ${commit.slice(0, 12)}.`,
  next: 'The next commit on a branch that has this finding records it as a Review-Finding trailer (nothing to commit? git commit --allow-empty -m "Record review verdicts").',
  damagedQueueLine: (file: string, line: number, reason: string) =>
    `revtrail: warning: ${file}:${line} cannot be read (${reason}); it is kept as it is: mend the line or delete it`,
  listOpenTitle: (n: number) => `Open findings (${n}):`,
  listNone: '  none',
  listQueueTitle: (n: number) =>
    `Queued verdicts (${n}), recorded by the next commit on a branch that has the finding:`,
  listDropped: (commit: string) =>
    `(a verdict of ${commit.slice(0, 12)}, which a rebase dropped; revtrail verdict --drop ID discards it)`,
  listCarried: (commit: string) => `(a record of ${commit.slice(0, 12)} its rewrite left out)`,
  listOrigin: (origin: string, commit?: string) =>
    origin === 'history'
      ? `commit ${commit!.slice(0, 12)}`
      : origin === 'pre-push'
        ? 'push review, not committed'
        : origin === 'review'
          ? 'revtrail review, not committed'
          : origin === 'editor'
            ? 'editor review, not committed'
            : 'commit review, not recorded',
  dropped: (id: string, verdict: string) => `Dropped the queued ${verdict} for ${id}.`,
  notQueued: (id: string) => `no verdict for ${id} is queued`,
  notQueuedRemedy: 'revtrail verdict --list shows the queue.',
  // verdict --new (docs/gate.md "Findings people write")
  newWhere: (where: string) => `--new takes FILE:LINE (or FILE:N-M) as the repository names the file, not "${where}"`,
  newWhat: '--new needs what the finding is, in words',
  newCiteOrTopic: '--new needs --cite DOC-ID (the decision it is about) or --topic NAME (what kind of finding it is)',
  newRemedy:
    'revtrail verdict --new src/api.ts:42 "no timeout on the outgoing call" --cite adr-0007 [--topic missing-timeout]',
  newChoice: (what: string, value: string, choices: readonly string[]) =>
    `--${what} ${value} is not one of ${choices.join(', ')}`,
  newUnknownDoc: (doc: string) => `--cite ${doc}: no document of the knowledge bundle has that id`,
  newDocs: (docs: readonly string[]) =>
    docs.length
      ? `Documents: ${docs.slice(0, 20).join(', ')}${docs.length > 20 ? ', …' : ''}.`
      : 'The bundle has no documents yet.',
  newTopic: (ruleSource: string) =>
    `${ruleSource} is not a rule_source: a topic is letters, digits and _ . + @ -, starting with a letter or digit`,
  newQueued: (id: string, where: string, ruleSource: string) =>
    `queued your finding ${id} at ${where} (${ruleSource}) for the next commit`,
  newNext:
    'The next commit records it (nothing to commit? git commit --allow-empty -m "Record a review finding"); then answer it like any finding: revtrail verdict ID ACCEPT "what fixed it".',
  // verdict --rule (docs/record.md "Answers in bulk")
  bulkPathBad: (glob: string, why: string) => `--path ${glob}: ${why}`,
  bulkPathRemedy: 'A repository-relative glob, e.g. --path "packages/web/test/**".',
  bulkPathWithoutRule: '--path narrows --rule: name the rule too',
  bulkWithId: '--rule answers every open finding of a rule: give VERDICT and RATIONALE, not an ID',
  bulkWithIdRemedy: 'revtrail verdict --rule RULE_SOURCE [--path GLOB] REJECT "why"',
  bulkUnknown: (rule: string, path: string | undefined) =>
    `no finding of ${rule}${path ? ` under ${path}` : ''} is known on this branch`,
  bulkUnknownRemedy:
    'revtrail verdict --list shows the open findings and their rule_source (the rule is named exactly).',
  bulkQueued: (n: number, verdict: string, rule: string) =>
    `Queued ${verdict} for ${n} open finding${n === 1 ? '' : 's'} of ${rule}:`,
  bulkNothing: (rule: string, answered: number, queued: number) =>
    `Nothing new to answer for ${rule}: ${answered} matching finding${answered === 1 ? ' is' : 's are'} answered already, ${queued} queued.`,
  bulkRefused: (id: string, why: string) => `not queued for ${id}: ${why}`,
};
