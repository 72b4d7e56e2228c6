/** Every user-facing message of the hooks (`revtrail hook ...`) and of install / uninstall. */
import type { ReviewEvent } from '../core/vocabulary.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const hookMessages = {
  // Dispatcher
  unknownHook: (name: string) => `unknown hook "${name}"`,
  unknownHookRemedy:
    'Hooks: revtrail hook commit-msg FILE, prepare-commit-msg FILE, post-commit, post-merge, post-rewrite amend|rebase (commit lines on stdin), pre-push REMOTE URL (ref lines on stdin).',
  missingFile: 'this hook needs the message FILE git passes',
  missingRemote: 'hook pre-push needs REMOTE and URL (git passes both) and the ref lines on stdin',
  crashed: (why: string) => `revtrail: internal error in the hook: ${why}`,

  // commit-msg
  lintFailed: (n: number) => `revtrail: commit aborted: ${plural(n, 'Review-Finding trailer')} in the message ${n === 1 ? 'is' : 'are'} not valid`,
  lintLine: (file: string, line: number, level: 'error' | 'warning', reason: string) =>
    `${file}:${line}: ${level === 'warning' ? 'warning: ' : ''}${reason}`,
  lintRemedy: '  Fix the line (id,file,line,rule_source,category,severity,issue,verdict,rationale) or delete it; your message is unchanged.',
  summary: (event: ReviewEvent, findings: number, recorded: number, suppressed: number, kind: 'commit' | 'amend' | 'merge' = 'commit') =>
    `revtrail: ${event}${kind === 'amend' ? ' (the whole amended commit)' : kind === 'merge' ? ' (what the merge adds)' : ''}: ${plural(findings, 'finding')}` +
    (recorded ? `, ${recorded} recorded as Review-Finding trailer${recorded === 1 ? '' : 's'}` : '') +
    (suppressed ? ` (${suppressed} more answered by a verdict)` : ''),
  findingLine: (path: string, line: string, severity: string, title: string, ruleSource: string, id: string) =>
    `  ${path}:${line} ${severity} ${title} (${ruleSource}) ${id}`,
  moreFindings: (n: number) => `  ... and ${plural(n, 'more finding')} (revtrail verdict --list)`,
  pushWillBlock: '  A push with these blocking findings is stopped until each is fixed or has a verdict (revtrail verdict ID VERDICT "…").',
  commitBlocked: (n: number) => `revtrail: commit aborted (commitMsg.block): ${plural(n, 'blocking finding')}; your message is unchanged`,
  commitBlockedRemedy: '  Fix them, or record a verdict (revtrail verdict ID REJECT|DEFER|ACKNOWLEDGE "…") and commit again.',
  verdictsRecorded: (items: readonly string[]) => `revtrail: recorded ${plural(items.length, 'queued verdict')}: ${items.join(', ')}`,
  queueWaiting: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'queued verdict')} not recorded here (this branch has no record of ${items.length === 1 ? 'its finding' : 'their findings'}): ${items.join(', ')}; ${items.length === 1 ? 'it waits' : 'they wait'} for a commit on a branch that has`,
  rewriteCarried: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'Review-Finding record')} the rewrite left out of ${items.length === 1 ? 'its new commit is' : 'their new commits are'} queued for your next commit: ${items.join(', ')}`,
  amendKept: (n: number) => `revtrail: kept ${plural(n, 'Review-Finding record')} of the amended commit`,
  notRecordable: (id: string) => `revtrail: warning: finding ${id} cannot be written as a trailer row; not recorded`,
  warning: (text: string) => `revtrail: warning: ${text}`,
  reviewFailed: (why: string) => `revtrail: warning: the review did not run: ${why}; the commit goes on`,
  queueFailed: (why: string) => `revtrail: warning: the queued verdicts could not be read (${why}); they stay queued for the next commit`,
  trailersNotWritten: (why: string, n: number) =>
    `revtrail: warning: ${n === 1 ? 'the Review-Finding trailer was' : `${n} Review-Finding trailers were`} not added: ${why}; the commit goes on with your message unchanged`,
  saveFailed: (why: string) => `revtrail: warning: could not save the review for \`revtrail verdict\`: ${why}`,

  // pre-push
  badRefLine: (line: string) => `revtrail: warning: ignoring a ref line git should not send: "${line}"`,
  pushBlocked: (n: number) => `revtrail: push blocked: ${plural(n, 'blocking finding')}`,
  refBlocked: (ref: string, n: number) => `${ref} (${plural(n, 'blocking finding')}):`,
  waysOn: [
    'Each one needs either',
    '  - a fix, committed (a secret stays in the pushed history: rewrite the commits that added it), or',
    '  - a verdict, committed:',
  ],
  verdictCommand: (id: string) => `      revtrail verdict ${id} REJECT|DEFER|ACKNOWLEDGE "…"`,
  thenCommit: '    then: git commit (git commit --allow-empty -m "Record review verdicts" when nothing else changed), and push again.',
  queuedNotCommitted: (items: readonly string[]) =>
    `${plural(items.length, 'verdict')} ${items.length === 1 ? 'is' : 'are'} queued but not committed (a push counts committed verdicts only): ${items.join(', ')}`,
  recordQueued: '  Record them: git commit --allow-empty -m "Record review verdicts" on the pushed branch, and push again.',
  pushNotes: (ref: string, event: ReviewEvent, n: number) => `revtrail: ${ref}: ${event}: ${plural(n, 'non-blocking finding')}`,
  pushCalibrated: (ref: string, n: number) => `revtrail: ${ref}: ${plural(n, 'finding')} of rules calibrated by history, not blocking:`,
};

export const installMessages = {
  hooksPathElsewhere: (value: string, scope: string) => `core.hooksPath is already set to "${value}" (${scope} config); revtrail's hooks would not run there`,
  hooksPathRemedy: 'Move those hooks into .husky/ and run revtrail install --force (it sets core.hooksPath to .husky/_; uninstall restores the old value).',
  huskyFailed: (why: string) => `husky could not install: ${why}`,
  huskyFailedRemedy: 'Run revtrail install from inside a git work tree with git on PATH.',
  huskySkipped: 'HUSKY=0 is set: husky installs nothing, so revtrail installed nothing',
  huskySkippedRemedy: 'Unset HUSKY (or set it to 1) and run revtrail install again.',
  hooksPathSet: (value: string) => `core.hooksPath = ${value} (husky)`,
  hooksPathKept: (value: string) => `core.hooksPath = ${value} (already)`,
  hookCreated: (file: string) => `created ${file}`,
  hookBlockAdded: (file: string) => `added the revtrail block to ${file} (your lines are kept)`,
  hookBlockUpdated: (file: string) => `updated the revtrail block in ${file}`,
  hookUnchanged: (file: string) => `${file} is up to date`,
  prepareAdded: (file: string) => `added "prepare": "husky" to ${file} (npm install sets the hooks up in fresh clones)`,
  prepareKept: (file: string, value: string) => `${file} already has "prepare": "${value}"; left as is`,
  prepareHint: (file: string) => `${file} has no "prepare" for husky; in a fresh clone run revtrail install (or add "prepare": "cd .. && husky" there)`,
  cliAt: (path: string) => `the hooks run ${path}`,
  cliFallback: 'no revtrail install found in node_modules; the hooks use revtrail on PATH (npm install -D revtrail fixes that)',
  commitThem: 'Commit the .husky/ hook files (commit-msg, pre-push, prepare-commit-msg, post-commit, post-merge, post-rewrite) so the team gets the hooks.',
  undo: 'Undo: revtrail uninstall',
  otherWorktrees: 'Other worktrees share core.hooksPath but not .husky/_: run revtrail install (or npm install) in each.',
  installed: 'revtrail: hooks installed',
  notInstalled: 'revtrail: nothing to uninstall (no revtrail block in any .husky/ hook file)',
  uninstalled: 'revtrail: hooks uninstalled',
  removedFile: (file: string) => `removed ${file}`,
  removedBlock: (file: string) => `removed the revtrail block from ${file} (your lines are kept)`,
  removedPrepare: (file: string) => `removed "prepare": "husky" from ${file}`,
  hooksPathRestored: (value: string) => `core.hooksPath = ${value} (restored)`,
  hooksPathUnset: 'core.hooksPath unset',
  removedHuskyDir: (dir: string) => `removed ${dir}`,
  keptHooksPath: (value: string) => `core.hooksPath = ${value} kept (it was set before revtrail install, or other husky hooks use it)`,
  badPackageJson: (file: string, why: string) => `${file} is not valid JSON (${why}); its prepare script was not changed`,
};
