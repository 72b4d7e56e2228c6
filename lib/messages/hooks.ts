/** Every user-facing message of the hooks (`revtrail hook ...`) and of install / uninstall. */
import type { ReviewEvent } from '../core/vocabulary.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const hookMessages = {
  // Dispatcher
  unknownHook: (name: string) => `unknown hook "${name}"`,
  unknownHookRemedy: (hooks: readonly string[]) => `Hooks: ${hooks.map((h) => `revtrail hook ${h}`).join(', ')}.`,
  hookArgsRemedy: 'git passes them when it runs the hook; revtrail hook --help shows what each hook takes.',
  missingFile: 'this hook needs the message FILE git passes',
  missingRemote: 'hook pre-push needs REMOTE and URL (git passes both) and the ref lines on stdin',
  crashed: (why: string) => `revtrail: internal error in the hook: ${why}`,
  // bin/revtrail.js says the same when it cannot load the starter itself (it cannot import this).
  couldNotStart: (why: string) => `revtrail: the hook could not start (${why}); reinstall revtrail (npm install)`,

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
  // commit-msg: the credential stop (docs/gate.md "The credential stop")
  credentialBlocked: (n: number) =>
    `revtrail: commit aborted: ${n === 1 ? 'a credential' : `${n} credentials`} in what this commit adds (commitMsg.blockCredentials); your message is unchanged`,
  credentialWaysOn: (ids: readonly string[], answers: readonly string[]) => [
    '  Two ways on:',
    '    - a real secret: take it out of the file (read it from the environment or a secret store), git add, and commit again;',
    '      rotate it if it was ever shared or pushed.',
    `    - not a secret (a test value, a published example): answer it, then commit again (the commit records the answer):`,
    ...ids.map((id) => `        revtrail verdict ${id} ${answers.join('|')} "…"`),
  ],
  verdictsRecorded: (items: readonly string[]) => `revtrail: recorded ${plural(items.length, 'queued verdict')}: ${items.join(', ')}`,
  queueWaiting: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'queued verdict')} not recorded here (this branch has no record of ${items.length === 1 ? 'its finding' : 'their findings'}): ${items.join(', ')}; ${items.length === 1 ? 'it waits' : 'they wait'} for a commit on a branch that has`,
  rewriteCarried: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'Review-Finding record')} the rewrite left out of ${items.length === 1 ? 'its new commit is' : 'their new commits are'} queued for your next commit: ${items.join(', ')}`,
  rebaseDropped: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'verdict')} of commits the rebase dropped ${items.length === 1 ? 'is' : 'are'} queued: ${items.join(', ')}; ${items.length === 1 ? 'it goes' : 'each goes'} into the next commit whose history has the finding (revtrail verdict --list shows ${items.length === 1 ? 'it' : 'them'}; revtrail verdict --drop ID discards one)`,
  copiedRowsLeftOut: (from: string, items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'Review-Finding row')} copied from ${from} left out of this message: ${items.join(', ')} (this branch has no record of ${items.length === 1 ? 'its finding' : 'their findings'}, or holds ${items.length === 1 ? 'it' : 'them'} already); ${from} keeps ${items.length === 1 ? 'it' : 'them'}`,
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
  verdictCommand: (id: string, answers: readonly string[] = ['REJECT', 'DEFER', 'ACKNOWLEDGE']) => `      revtrail verdict ${id} ${answers.join('|')} "…"`,
  // pre-push: credentials (docs/gate.md "Answers by kind", "After an ACCEPT")
  credentialTitle: (id: string, where: string) => `A credential, ${id} (${where}):`,
  credentialAccepted: (rationale: string) =>
    `  answered ACCEPT ("${rationale}"): fixed in the files, but the pushed history still holds it, so pushing it publishes the key.`,
  credentialWrongAnswer: (verdict: string, answers: readonly string[]) =>
    `  answered ${verdict}, which does not open the gate for a credential (gate.credentialAnswers: ${answers.join(', ')}).`,
  credentialHeldBy: (n: number) => `  ${n === 1 ? 'This pushed commit adds it' : `These ${n} pushed commits add it`}:`,
  credentialCommit: (sha: string, subject: string) => `    ${sha.slice(0, 12)} ${subject}`,
  credentialRewrite: '  Take it out of history, then push again:',
  rewriteAmend: (sha: string) => `    ${sha.slice(0, 12)} is the last commit pushed: remove the key from the file, git add it, git commit --amend`,
  rewriteRebase: (shas: readonly string[], base: string) => [
    `    git rebase -i ${base}`,
    `      mark ${shas.map((c) => c.slice(0, 12)).join(', ')} "edit": at each stop remove the key, git add, git commit --amend, git rebase --continue`,
    `      (or, where a later commit removed it, move that commit right after ${shas[0]!.slice(0, 12)} as "fixup")`,
  ],
  rotate: '  And rotate it (revoke the key and issue a new one): a key that was ever in a commit may have been copied.',
  credentialNotSecret: (id: string, answers: readonly string[]) =>
    `  Not a secret (a test value, a published example)? revtrail verdict ${id} ${answers.join('|')} "…", commit, and push again.`,
  stillFoundAfterAccept: (id: string) => `  ${id} was answered ACCEPT, yet what the push adds still has it: fix it, or answer it again.`,
  thenCommit: '    then: git commit (git commit --allow-empty -m "Record review verdicts" when nothing else changed), and push again.',
  queuedNotCommitted: (items: readonly string[]) =>
    `${plural(items.length, 'verdict')} ${items.length === 1 ? 'is' : 'are'} queued but not committed (a push counts committed verdicts only): ${items.join(', ')}`,
  recordQueued: '  Record them: git commit --allow-empty -m "Record review verdicts" on the pushed branch, and push again.',
  pushNotes: (ref: string, event: ReviewEvent, n: number) => `revtrail: ${ref}: ${event}: ${plural(n, 'non-blocking finding')}`,
  pushCalibrated: (ref: string, n: number) => `revtrail: ${ref}: ${plural(n, 'finding')} of rules calibrated by history, not blocking:`,
  // pre-push progress (a terminal only: one line, overwritten)
  pushProgress: (ref: string, parts: readonly string[], seconds: string) => `revtrail: ${ref}: ${parts.join('; ')} (${seconds} s)`,
  pushReviewing: (done: number, total: number, path: string) =>
    `reviewing what the push adds, ${done.toLocaleString('en')}/${total.toLocaleString('en')} chunks (${path})`,
  pushChecking: (done: number, total: number) =>
    `checking each commit for credentials, ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${total === 1 ? 'commit' : 'commits'}`,
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
  scriptAdded: (file: string, name: string, value: string, pm: string) =>
    `added "${name}": "${value}" to ${file} (${pm === 'yarn-berry' ? 'yarn install' : `${pm.replace(/-.*/, '')} install`} sets the hooks up in fresh clones)`,
  scriptUpgraded: (file: string, name: string, value: string) => `"${name}" in ${file} is now "${value}" (a bare husky fails under pnpm)`,
  scriptAppended: (file: string, name: string, value: string) => `"${name}" in ${file} is now "${value}" (your script runs first)`,
  scriptKept: (file: string, name: string, value: string) => `${file} already has "${name}": ${value}; left as is`,
  scriptSuggested: (file: string, name: string, value: string) =>
    `${file} has no "${name}": fresh clones get no hooks. Add "${name}": "${value}" there (revtrail install --append-prepare writes it)`,
  scriptAppendSuggested: (file: string, name: string, current: string, appended: string) =>
    `${file} already has "${name}": "${current}"; to set the hooks up in fresh clones too, make it "${appended}" (revtrail install --append-prepare writes that)`,
  huskyNotADependency: (file: string, name: string, current: string) =>
    `"${name}": "${current}" in ${file} runs husky, which is not a dependency of that package: pnpm cannot run it. Use "revtrail install --from-prepare || true" instead`,
  berryPnp: "yarn berry with Plug'n'Play has no node_modules/.bin/revtrail for the hooks to call: set nodeLinker: node-modules in .yarnrc.yml",
  berryPublishable: (file: string) =>
    `${file} is publishable (no "private": true) and yarn berry needs "postinstall", which also runs in your users' installs (it does nothing there); strip it when packing (pinst) or mark the package private`,
  scriptRestored: (file: string, name: string) => `restored "${name}" in ${file}`,
  removedScript: (file: string, name: string, value: string) => `removed "${name}": "${value}" from ${file}`,
  cliAt: (path: string) => `the hooks run ${path}`,
  cliFallback: 'no revtrail install found in node_modules; the hooks use revtrail on PATH (add revtrail to devDependencies: a tarball or git URL, see its README)',
  commitThem: (files: readonly string[]) => `Commit ${files.join(', ')} and package.json so the team gets the hooks.`,
  undo: 'Undo: revtrail uninstall',
  otherWorktrees: 'Worktrees that exist already share core.hooksPath but not .husky/_: run revtrail install (or npm install) in each; ones added from now on get it from post-checkout.',
  fromPrepareElsewhere: (value: string) => `revtrail: core.hooksPath is "${value}", not husky's; hooks not set up (revtrail doctor says more)`,
  fromPrepareFailed: (why: string) => `revtrail: could not set the git hooks up: ${why} (revtrail doctor says more); the install goes on`,
  fromPrepareNoHooks: 'revtrail: husky is set up, but .husky/ has no revtrail hooks yet: run revtrail install once and commit .husky/',
  installed: 'revtrail: hooks installed',
  notInstalled: 'revtrail: nothing to uninstall (no revtrail block in any .husky/ hook file)',
  uninstalled: 'revtrail: hooks uninstalled',
  removedFile: (file: string) => `removed ${file}`,
  removedBlock: (file: string) => `removed the revtrail block from ${file} (your lines are kept)`,
  hooksPathRestored: (value: string) => `core.hooksPath = ${value} (restored)`,
  hooksPathUnset: 'core.hooksPath unset',
  removedHuskyDir: (dir: string) => `removed ${dir}`,
  keptHooksPath: (value: string) => `core.hooksPath = ${value} kept (it was set before revtrail install, or other husky hooks use it)`,
  badPackageJson: (file: string, why: string) => `${file} is not valid JSON (${why}); its prepare script was not changed`,
};

const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const doctorMessages = {
  title: (top: string) => `revtrail doctor: ${top}`,
  allGood: 'Everything is set up: the hooks run revtrail on commit and push.',
  needsFixing: (count: number) => `${n(count, 'thing')} to fix (above); then run revtrail doctor again.`,
  levels: { ok: 'ok', info: 'info', warn: 'warn', fail: 'FAIL' } as Record<string, string>,
  fixPrefix: 'fix: ',

  runInstall: 'revtrail install',
  hooksPathUnset: 'core.hooksPath is not set: git runs no revtrail hook in this clone',
  hooksPathElsewhere: (value: string, scope: string) => `core.hooksPath is "${value}" (${scope} config), not husky's .husky/_: the revtrail hooks do not run`,
  hooksPathElsewhereFix: 'move those hooks into .husky/, then revtrail install --force (uninstall restores the old value)',
  hooksPathOk: (value: string) => `core.hooksPath = ${value}`,

  notInstalled: 'revtrail is not installed in this clone: core.hooksPath is not set and .husky/ has no revtrail hook',
  thisWorktree: 'this worktree',
  worktreeGone: (dir: string) => `worktree ${dir} is registered but its folder is gone`,
  worktreeGoneFix: 'git worktree prune',
  noRunner: "no .husky/_ (husky's runner is not committed), so git runs no hook there",
  hooksMissing: (files: readonly string[]) => `no revtrail block in ${files.join(', ')}`,
  worktreeProblems: (where: string, problems: readonly string[]) => `${where}: ${problems.join('; ')}`,
  worktreeFix: (dir: string | null, hooks: boolean) =>
    `${dir ? `cd ${dir} && ` : ''}revtrail install${hooks ? ', then commit .husky/ (or bring in a commit that has it)' : ' (or npm install there)'}`,
  // Hooks whose record says `missing: 'warn'` (post-checkout: worktrees added later get no hooks).
  hooksMissingWarn: (where: string, files: readonly string[]) =>
    `${where}: no revtrail block in ${files.join(', ')}: commits and pushes are still reviewed, but what ${files.length === 1 ? 'it does' : 'they do'} is missing (docs/hooks.md)`,
  hooksOk: (where: string) => `${where}: husky's runner and the revtrail hooks are in place`,

  noCli: (configured: string) => `the hooks find no revtrail to call (${configured}, the main worktree's, PATH): each commit says "not found" and is not reviewed`,
  noCliFix: 'npm install (with revtrail in devDependencies: a tarball or git URL until it is published, see the README)',
  cliOk: (cli: string) => `the hooks call ${cli}`,

  hooksUncommitted: (files: readonly string[]) =>
    `${files.join(', ')} ${files.length === 1 ? 'is' : 'are'} not committed: a teammate's clone gets no hooks (they work here only)`,
  hooksUncommittedFix: (files: readonly string[]) => `git add ${files.join(' ')} && git commit -m "chore: revtrail hooks"`,
  hooksCommitted: 'the hook files are committed: every clone gets them',
  managerHooksMissing: (manager: string, hooks: readonly string[]) => `revtrail is set up for ${manager}, but git's ${hooks.join(' and ')} hook${hooks.length === 1 ? ' is' : 's are'} not ${manager}'s: its hooks do not run here`,
  managerInstallFix: (manager: string) => (manager === 'lefthook' ? 'npx lefthook install' : 'pre-commit install (the config lists every hook type revtrail needs)'),
  managerOk: (manager: string) => `git's hooks run ${manager}, which runs revtrail's scripts`,
  npxRegistry: (dir: string, bin: string) =>
    `${dir} has no ${bin}: npx revtrail there asks the npm registry for a package named revtrail, which is not this one`,
  npxRegistryFix: (dir: string, bin: string, target: string) => `mkdir -p '${dir}/${bin.replace(/\/[^/]*$/, '')}' && ln -s '${target}' '${dir}/${bin}' (or npm install there)`,
  noNode: 'node is not on PATH: the hooks cannot run revtrail',
  noNodeFix: (dir: string) => `put node's folder on PATH (this revtrail runs on the node in ${dir})`,
  nodePrivate: (dir: string) => `node is in ${dir}, which a GUI git client may not have on PATH (its commits would say "node is not on this hook's PATH")`,
  nodePrivateFix: (initFile: string, dir: string) => `add export PATH="${dir}:$PATH" to ${initFile} (husky reads it before every hook)`,
  nodeOk: (dir: string) => `node is in ${dir}, on the PATH git clients start hooks with`,

  noPackageJson: 'no package.json: teammates run revtrail install after cloning',
  badPackageJson: (file: string, why: string) => `${file} is not valid JSON (${why})`,
  badPackageJsonFix: 'fix the file, then revtrail install',
  noScript: (file: string, name: string, pm: string) => `${file} has no "${name}" that sets the hooks up (${pm}): a teammate's fresh clone gets no hooks`,
  noScriptFix: (name: string) => `revtrail install (it adds "${name}"; with a script of your own: revtrail install --append-prepare)`,
  berryNeedsPostinstall: (file: string, pm: string) => `${file} sets the hooks up in "prepare", which yarn berry never runs (${pm})`,
  berryPnp: (pm: string) => `yarn berry with Plug'n'Play (${pm}): there is no node_modules/.bin/revtrail for the hooks`,
  berryPnpFix: 'set nodeLinker: node-modules in .yarnrc.yml and run yarn install',
  bareHusky: (file: string, name: string, value: string, pm: string) =>
    `"${name}": "${value}" in ${file} runs husky, which is not a dependency of that package (${pm}): pnpm cannot find it`,
  bareHuskyFix: 'revtrail install (it makes the script revtrail install --from-prepare || true)',
  scriptOk: (file: string, name: string, value: string, pm: string) => `"${name}": "${value}" in ${file} sets the hooks up in fresh clones (${pm})`,

  badConfig: (why: string) => `the configuration does not load: ${why}`,
  badConfigFix: 'revtrail knowledge check shows the problems',
  trusted: (command: string) => `the configured reviewer program (${command}) is trusted in this clone`,
  untrusted: (command: string) => `the configured reviewer program (${command}) is not trusted in this clone: reviews run without it`,
  trustChanged: (command: string) => `the configured reviewer program changed to ${command} since it was trusted: reviews run without it`,
  trustFix: 'read the command in revtrail.config.json, then revtrail trust (or remove reviewer.command)',

  noBundle: (dir: string) => `no knowledge bundle at ${dir}: only the built-in rules run (revtrail init writes a starter)`,
  bundleSummary: (dir: string, concepts: number, rules: number, errors: number, warnings: number) =>
    `bundle ${dir}: ${n(concepts, 'document')}, ${n(rules, 'rule')}, ${n(errors, 'error')}, ${n(warnings, 'warning')}`,
  bundleFix: (dir: string) => `revtrail knowledge check ${dir}`,
};

/** The server gate (`hook pre-receive`, `hook update`, `install --server`): docs/server.md. */
export const serverMessages = {
  updateUsage: 'revtrail: hook update needs REF OLD NEW (what git passes to an update hook)',
  policyNote: 'The policy (config, bundle, doc map) is the one this branch had before the push; verdicts count once committed in the pushed history.',
  policySymlink: (path: string, commit: string) => `policy of ${commit.slice(0, 12)}: ${path} is not a regular file (a symlink?); the server does not read it`,
  policyTooBig: (path: string, size: number, cap: number) => `policy file ${path} is ${size} bytes, over the ${cap}-byte cap; left out`,
  policyBadPath: (path: string) => `policy file "${path}" has a path that cannot be written safely; left out`,
  policyKnowledgeLeaves: (value: string, used: string) => `the config's knowledge "${value}" is not a folder of the repository; ${used} is read instead`,
  policyTooMany: (max: number) => `the policy holds more than ${max} files; the rest are left out`,
  policyFromUnknown: (ref: string) => `--policy-from ${ref}: no such commit in this repository`,
  policyFromRemedy: 'Name a branch or commit this clone has (fetch it first: git fetch origin main), for example --policy-from origin/main.',
  notARepository: (path: string) => `${path} is not a git repository`,
  notARepositoryRemedy: 'Name the repository folder the server pushes into (for example /srv/git/project.git).',
  hookExists: (file: string) =>
    `${file} exists and was not written by revtrail; it is left as it is. Call revtrail from it (revtrail install --print-server-hook shows the lines), or put revtrail in hooks/pre-receive.d/ if your server runs that folder`,
  installedServer: (file: string) => `revtrail: server hook written: ${file}`,
  serverUpToDate: (file: string) => `revtrail: ${file} is up to date`,
  serverRuns: (node: string, cli: string) => `  it runs ${node} ${cli}`,
  serverFailMode: '  a hook that cannot run rejects the push; git config revtrail.failOpen true (in that repository) accepts instead',
  uninstalledServer: (file: string) => `revtrail: removed ${file}`,
  notInstalledServer: (repo: string) => `revtrail: no revtrail server hook in ${repo}`,
  notOurs: (file: string) => `${file} was not written by revtrail; left as it is`,
};

/** `revtrail install --lefthook` / `--pre-commit` (lib/hooks/install-manager.ts). */
export const managerMessages = {
  installed: (manager: string) => `revtrail: hooks set up for ${manager}`,
  uninstalled: (manager: string) => `revtrail: ${manager} hooks removed`,
  created: (file: string) => `created ${file}`,
  updated: (file: string) => `updated ${file}`,
  unchanged: (file: string) => `${file} unchanged`,
  removed: (file: string) => `removed ${file}`,
  notOurs: (file: string) => `${file} exists and is not revtrail's`,
  notOursRemedy: 'move it aside (or merge its lines into your own script), then run revtrail install again',
  configNamesUs: (file: string) => `${file} already runs revtrail (kept as it is)`,
  addToConfig: (file: string, entries: string) => `${file} is your team's: add these entries to it (revtrail does not edit it):\n\n${entries}`,
  cliAt: (path: string) => `the hooks run ${path}`,
  cliFallback: 'no revtrail install found in node_modules; the hooks use revtrail on PATH',
  lefthookNext: 'then: npx lefthook install (the lefthook npm package does it on npm install in every clone)',
  preCommitNext:
    'then: pre-commit install (every clone runs it once; it installs the hook types the config lists). pre-commit passes revtrail only the first ref of a push: see docs/hooks.md',
  commitThem: (files: readonly string[]) => `Commit ${files.join(' and ')} so the team gets the hooks.`,
  bothManagers: '--lefthook and --pre-commit exclude each other: choose the one that owns your hooks',
};
