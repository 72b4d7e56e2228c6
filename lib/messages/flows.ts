/** Every user-facing message of the adoption flows: the whole tree, the backtest, the baseline (docs/mining.md "Adopting a rule in a week"). */
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const flowMessages = {
  noCommitYet: 'HEAD has no commit yet: there is no tree or history to review',
  noCommitYetRemedy: 'Commit first, then run it again.',
  badMaxCount: (given: string) => `--max-count must be a whole number above 0, not "${given}"`,
  badMaxCountRemedy: 'For example: revtrail rules --backtest --max-count 500',
  // revtrail review --all
  wholeTreeProgress: (done: number, total: number, path: string) => `reviewing ${done}/${total} ${path}`,
  // revtrail rules --backtest
  backtestProgress: (done: number, total: number, commit: string) => `backtest ${done}/${total} commits ${commit}`,
  backtestColumns: ['RULE', 'KIND', 'HITS', 'FILES', 'COMMITS', 'AUTHORS'],
  backtestFirst: (path: string, line: number, commit: string, text: string) =>
    `    ${path}:${line} (${commit.slice(0, 12)})  ${text.trim()}`,
  backtestSummary: (commits: number, rules: number, noisy: number) =>
    `${plural(commits, 'commit')} of the mainline replayed (first parent, oldest first): ${plural(noisy, 'rule')} of ${rules} fired`,
  backtestNoRules: "the bundle has no rule to replay: a document's x.rules holds them (docs/bundle.md)",
  backtestNext:
    'Next: revtrail baseline records what is already there, so only new code is held to the rules (docs/mining.md "Adopting a rule in a week").',
  // revtrail baseline
  baselineProgress: (done: number, total: number, path: string) => `baseline ${done}/${total} ${path}`,
  baselineWritten: (entries: number, rules: number, file: string, commit: string) =>
    entries === 0
      ? `No violation of the bundle's rules at ${commit.slice(0, 12)}: ${file} holds no entry`
      : `${plural(entries, 'existing violation')} of ${plural(rules, 'rule')} recorded in ${file} (the tree at ${commit.slice(0, 12)}): they no longer block; new code is held to the rules`,
  baselineRuleLine: (rule: string, entries: number) => `  ${rule}  ${entries} ${entries === 1 ? 'entry' : 'entries'}`,
  baselineNext: (file: string) =>
    `Commit it (git add ${file}); a teammate reviews it like any file. revtrail baseline --check says what remains.`,
  baselineMissing: 'this repository has no .revtrail/baseline.json yet',
  baselineUnreadable: (why: string) => `.revtrail/baseline.json cannot be read: ${why}`,
  baselineRemedy: "Run revtrail baseline to record the existing violations of the bundle's rules.",
  baselineColumns: ['RULE', 'ENTRIES', 'REMAINING', 'FIXED', 'NEW'],
  baselineCheckSummary: (remaining: number, fixed: number, unrecorded: number) =>
    `${remaining} remaining, ${fixed} fixed since the baseline; ${plural(unrecorded, 'violation')} at HEAD the baseline does not hold`,
  baselineStatsHeader: 'Existing violations recorded by revtrail baseline (.revtrail/baseline.json), at HEAD:',
  baselineStatsLine: (rule: string, remaining: number, fixed: number) =>
    `  ${rule}  ${remaining} remaining, ${fixed} fixed`,
};
