/** Every user-facing message of `revtrail install`, `uninstall` and `doctor` (lib/install/). */
const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const installMessages = {
  hooksPathElsewhere: (value: string, scope: string) =>
    `core.hooksPath is already set to "${value}" (${scope} config); revtrail's hooks would not run there`,
  hooksPathRemedy:
    'revtrail install --force sets core.hooksPath to .husky/_ and keeps every hook of that folder running from .husky/ (a chain block each); uninstall restores the old value.',
  managerFound: (manager: string, evidence: string) =>
    `this repository runs its hooks with ${manager} (${evidence}); husky's core.hooksPath would switch them off, and ${manager} would overwrite revtrail's`,
  managerFoundRemedy: (manager: string) =>
    `Run revtrail install --${manager}: revtrail's hooks go into ${manager}'s config, beside yours (docs/hooks.md, "Other hook managers").`,
  managersFoundRemedy: (managers: readonly string[]) =>
    `More than one hook manager is set up here (${managers.join(', ')}): run revtrail install --<the one that installs your hooks>, or --force to put husky in charge with their hooks chained.`,
  pnpmBuildsWritten: (file: string) =>
    `${file}: allowBuilds false for revtrail's @ast-grep parsers (they ship prebuilt; pnpm 10 would warn on every install, pnpm 11 refuse it)`,
  pnpmReinstall:
    "this clone's node_modules still records them as ignored builds (pnpm reports that on every install until a fresh one): rm -rf node_modules && pnpm install, once",
  npmAllowScriptsAdded: (file: string) =>
    `"allowScripts" in ${file}: false for revtrail's @ast-grep parsers (they ship prebuilt; npm 11 lists them after every install, npm 12 blocks them)`,
  npmAllowScriptsRemoved: (file: string) => `removed revtrail's "allowScripts" entries from ${file}`,
  pnpmBuildsRemoved: (file: string) => `removed revtrail's allowBuilds entries from ${file}`,
  pnpmBuildsAdd: (file: string, lines: string) =>
    `with pnpm 10 or later, add these lines to ${file} (revtrail's @ast-grep parsers ship prebuilt; without them pnpm 10 warns on every install and pnpm 11 refuses it; pnpm 9 needs nothing):\n\n${lines}`,
  repairSimpleGitHooks: (file: string) =>
    `${file} was written by simple-git-hooks, which writes into core.hooksPath on every install: a repair would not last`,
  repairSimpleGitHooksRemedy:
    'revtrail uninstall, then revtrail install --simple-git-hooks (revtrail goes into its config, beside your hooks)',
  repairBoth: (stub: string, target: string) => `${stub} is not husky's runner, and ${target} holds another script`,
  repairBothRemedy:
    'Merge the two into .git/hooks/ yourself (or delete the one you do not want), then run revtrail install --repair again.',
  repairMoved: (stub: string, target: string) =>
    `moved ${stub} to ${target} (chained from .husky/; husky's runner written back)`,
  chained: (file: string, previous: string) => `${file} also runs ${previous}, as git did before (chain block)`,
  chainUnchanged: (file: string) => `${file}: chain block up to date`,
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
  scriptUpgraded: (file: string, name: string, value: string) =>
    `"${name}" in ${file} is now "${value}" (a bare husky fails under pnpm)`,
  scriptAppended: (file: string, name: string, value: string) =>
    `"${name}" in ${file} is now "${value}" (your script runs first)`,
  scriptKept: (file: string, name: string, value: string) => `${file} already has "${name}": ${value}; left as is`,
  scriptSuggested: (file: string, name: string, value: string) =>
    `${file} has no "${name}": fresh clones get no hooks. Add "${name}": "${value}" there (revtrail install --append-prepare writes it)`,
  scriptAppendSuggested: (file: string, name: string, current: string, appended: string) =>
    `${file} already has "${name}": "${current}"; to set the hooks up in fresh clones too, make it "${appended}" (revtrail install --append-prepare writes that)`,
  huskyNotADependency: (file: string, name: string, current: string) =>
    `"${name}": "${current}" in ${file} runs husky, which is not a dependency of that package: pnpm cannot run it. Use "revtrail install --from-prepare || true" instead`,
  berryPnp:
    "yarn berry with Plug'n'Play has no node_modules/.bin/revtrail for the hooks to call: set nodeLinker: node-modules in .yarnrc.yml",
  berryPublishable: (file: string) =>
    `${file} is publishable (no "private": true) and yarn berry needs "postinstall", which also runs in your users' installs (it does nothing there); strip it when packing (pinst) or mark the package private`,
  scriptRestored: (file: string, name: string) => `restored "${name}" in ${file}`,
  removedScript: (file: string, name: string, value: string) => `removed "${name}": "${value}" from ${file}`,
  cliAt: (path: string) => `the hooks run ${path}`,
  cliFallback:
    'no revtrail install found in node_modules; the hooks use revtrail on PATH (add revtrail to devDependencies: a tarball or git URL, see its README)',
  commitThem: (files: readonly string[], pkg: string | null) =>
    `Commit ${files.join(', ')}${pkg ? ` and ${pkg}` : ''} so the team gets the hooks.`,
  cliOnPath:
    'the hooks call revtrail on PATH: each teammate installs it once for their user (npm i -g of its tarball; npm i -g revtrail once it is published)',
  noPackageJson:
    'no package.json here, so no package install sets the hooks up in a fresh clone: each teammate runs revtrail install once in their clone. A team on the pre-commit framework or lefthook can take revtrail from its repository instead (a repo: entry for its .pre-commit-hooks.yaml, a remotes entry for hooks/lefthook.yml): docs/hooks.md, "Repositories that are not Node projects"',
  undo: 'Undo: revtrail uninstall',
  otherWorktrees:
    'Worktrees that exist already share core.hooksPath but not .husky/_: run revtrail install (or npm install) in each; ones added from now on get it from post-checkout.',
  fromPrepareElsewhere: (value: string) =>
    `revtrail: core.hooksPath is "${value}", not husky's; hooks not set up (revtrail doctor says more)`,
  fromPrepareFailed: (why: string) =>
    `revtrail: could not set the git hooks up: ${why} (revtrail doctor says more); the install goes on`,
  fromPrepareUnchained: (files: readonly string[]) =>
    `revtrail: git runs .husky/_ now, so ${files.join(', ')} no longer ${files.length === 1 ? 'runs' : 'run'} here: revtrail install chains ${files.length === 1 ? 'it' : 'them'} from .husky/`,
  fromPrepareNoHooks:
    'revtrail: husky is set up, but .husky/ has no revtrail hooks yet: run revtrail install once and commit .husky/',
  installed: 'revtrail: hooks installed',
  notInstalled: 'revtrail: nothing to uninstall (no revtrail block in any .husky/ hook file)',
  uninstalled: 'revtrail: hooks uninstalled',
  removedFile: (file: string) => `removed ${file}`,
  removedBlock: (file: string) => `removed the revtrail block from ${file} (your lines are kept)`,
  hooksPathRestored: (value: string) => `core.hooksPath = ${value} (restored)`,
  hooksPathUnset: 'core.hooksPath unset',
  removedHuskyDir: (dir: string) => `removed ${dir}`,
  keptHooksPath: (value: string) =>
    `core.hooksPath = ${value} kept (it was set before revtrail install, or other husky hooks use it)`,
  badPackageJson: (file: string, why: string) =>
    `${file} is not valid JSON (${why}); its prepare script was not changed`,
};

export const doctorMessages = {
  title: (top: string) => `revtrail doctor: ${top}`,
  allGood: 'Everything is set up: the hooks run revtrail on commit and push.',
  allGoodWarned: (count: number) =>
    `The hooks run revtrail on commit and push; ${n(count, 'warning')} above to look at.`,
  needsFixing: (count: number) => `${n(count, 'thing')} to fix (above); then run revtrail doctor again.`,
  levels: { ok: 'ok', info: 'info', warn: 'warn', fail: 'FAIL' } as Record<string, string>,
  fixPrefix: 'fix: ',

  runInstall: 'revtrail install',
  hooksPathUnset: 'core.hooksPath is not set: git runs no revtrail hook in this clone',
  hooksPathElsewhere: (value: string, scope: string) =>
    `core.hooksPath is "${value}" (${scope} config), not husky's .husky/_: the revtrail hooks do not run`,
  hooksPathElsewhereFix:
    'move those hooks into .husky/, then revtrail install --force (uninstall restores the old value)',
  hooksPathOk: (value: string) => `core.hooksPath = ${value}`,

  notInstalled: 'revtrail is not installed in this clone: core.hooksPath is not set and .husky/ has no revtrail hook',
  notInManager: (manager: string, evidence: string) =>
    `revtrail is not set up in ${manager}, which runs this repository's hooks (${evidence})`,
  runManagerInstall: (manager: string) => `revtrail install --${manager}`,
  managerConfigMissing: (file: string, hooks: readonly string[]) =>
    `${file} does not run revtrail at ${hooks.join(' and ')}: commits and pushes here are not reviewed`,
  managerConfigNotCommitted: (file: string, hooks: readonly string[]) =>
    `${file} runs revtrail at ${hooks.join(' and ')} in this work tree, but the committed one (HEAD) does not: a teammate's clone is not reviewed`,
  managerConfigNotCommittedFix: (files: readonly string[]) =>
    `git add ${files.join(' ')} && git commit -m "chore: revtrail hooks"`,
  managerConfigEdited: (file: string) =>
    `${file} has changes that are not committed: a teammate's clone runs the committed one (HEAD)`,
  managerConfigEditedFix: (file: string) => `git diff HEAD -- ${file}, then commit what the team should run`,
  managerConfigOk: (file: string, hooks: readonly string[]) =>
    `${file} as committed runs revtrail at ${hooks.join(' and ')}`,
  preCommitNotInstalled: (file: string, hooks: readonly string[]) =>
    `${file} as committed does not list ${hooks.join(' and ')} in default_install_hook_types: pre-commit install in a teammate's clone installs no such hook`,
  managerConfigFix: (manager: string) => `revtrail install --${manager} (it adds its entries to the config in place)`,
  thisWorktree: 'this worktree',
  worktreeGone: (dir: string) => `worktree ${dir} is registered but its folder is gone`,
  worktreeGoneFix: 'git worktree prune',
  noRunner: "no .husky/_ (husky's runner is not committed), so git runs no hook there",
  hooksMissing: (files: readonly string[]) => `no revtrail block in ${files.join(', ')}`,
  worktreeProblems: (where: string, problems: readonly string[]) => `${where}: ${problems.join('; ')}`,
  worktreeFix: (dir: string | null, hooks: boolean, pmInstall = 'npm install') =>
    `${dir ? `cd ${dir} && ` : ''}revtrail install${hooks ? ', then commit .husky/ (or bring in a commit that has it)' : ` (or ${pmInstall} there)`}`,
  // Hooks whose record says `missing: 'warn'` (post-checkout: worktrees added later get no hooks).
  hooksMissingWarn: (where: string, files: readonly string[]) =>
    `${where}: no revtrail block in ${files.join(', ')}: commits and pushes are still reviewed, but what ${files.length === 1 ? 'it does' : 'they do'} is missing (docs/hooks.md)`,
  hooksOk: (where: string) => `${where}: husky's runner and the revtrail hooks are in place`,

  noCli: (configured: string) =>
    `the hooks find no revtrail to call (${configured}, the main worktree's, PATH): each commit says "not found" and is not reviewed`,
  noCliUserFix:
    'install revtrail for your user so the hooks find it on PATH: npm i -g of its tarball (npm i -g revtrail once it is published)',
  noCliFix: (pmInstall: string) =>
    `${pmInstall} (with revtrail in devDependencies: a tarball or git URL until it is published, see the README)`,
  cliOk: (cli: string) => `the hooks call ${cli}`,

  hooksUncommitted: (files: readonly string[]) =>
    `${files.join(', ')} ${files.length === 1 ? 'is' : 'are'} not committed: a teammate's clone gets no hooks (they work here only)`,
  hooksUncommittedFix: (files: readonly string[]) =>
    `git add ${files.join(' ')} && git commit -m "chore: revtrail hooks"`,
  hooksCommitted: 'the hook files are committed: every clone gets them',
  runnerReplaced: (where: string, files: readonly string[]) =>
    `${where}: ${files.join(', ')} ${files.length === 1 ? 'is' : 'are'} no longer husky's runner (another tool wrote into core.hooksPath): revtrail's hook there does not run`,
  runnerReplacedFix: (simpleGitHooks: boolean) =>
    simpleGitHooks
      ? 'simple-git-hooks writes into core.hooksPath on every install: revtrail uninstall, then revtrail install --simple-git-hooks (revtrail goes into its config)'
      : 'revtrail install --repair (the script moves to .git/hooks/ and keeps running, chained from .husky/; husky writes its runner back)',
  unchained: (files: readonly string[]) =>
    `${files.join(', ')}: git no longer runs ${files.length === 1 ? 'this hook' : 'these hooks'} (core.hooksPath is husky's) and no .husky/ file chains ${files.length === 1 ? 'it' : 'them'}`,
  unchainedFix: 'revtrail install (a chain block in .husky/ runs each again; or delete the ones you no longer want)',
  ignoredNeeded: (files: readonly string[]) =>
    `${files.join(', ')} ${files.length === 1 ? 'is' : 'are'} ignored (.gitignore): git add skips ${files.length === 1 ? 'it' : 'them'} without a word, so a teammate's clone lacks ${files.length === 1 ? 'it' : 'them'}`,
  ignoredNeededFix: (files: readonly string[]) =>
    `git add -f ${files.join(' ')} (and add !${files[0]} to .gitignore so the next one is not skipped), then commit`,
  tarballUntracked: (file: string) =>
    `package.json installs revtrail from ${file}, which is not committed: a teammate's npm install fails (ENOENT)`,
  tarballUntrackedFix: (file: string) => `git add -f ${file} && git commit -m "chore: vendor revtrail"`,
  tarballTracked: (file: string) => `the vendored ${file} is committed`,
  tarballStaged: (file: string) =>
    `the vendored ${file} is staged but not committed: a teammate's clone of HEAD lacks it, and npm install there fails (ENOENT)`,
  tarballStagedFix: 'git commit (the staged tarball goes in with it)',
  preCommitNoConfig: "revtrail's pre-commit scripts are here, but there is no .pre-commit-config.yaml to run them",
  preCommitBadConfig: (file: string, why: string) => `${file} cannot be read as YAML (${why})`,
  preCommitConfigFix: 'revtrail install --pre-commit (it adds its entries to the config in place)',
  preCommitStagesLoose: (file: string, ids: readonly string[]) =>
    `${file} installs more hook types than pre-commit and has no default_stages: ${ids.join(', ')} (no stages of their own) run at every one of them, at commit-msg and pre-push too`,
  preCommitStagesFix: 'add default_stages: [pre-commit] (pre-commit before 3.2: [commit]) to keep them where they were',
  preCommitConfigOk: (file: string) => `${file} runs revtrail's entries; the other hooks keep their stages`,
  pnpmBuildsOk: (file: string) => `${file} decides the install scripts of revtrail's @ast-grep parsers (allowBuilds)`,
  pnpmBuildsUndecided: (file: string, names: readonly string[]) =>
    `${file} does not decide the install scripts of ${names.join(', ')}: pnpm 10 warns on every install, pnpm 11 refuses it (ERR_PNPM_IGNORED_BUILDS)`,
  pnpmBuildsUnreadable: (file: string, why: string) => `${file} cannot be read as YAML (${why})`,
  pnpmBuildsFix: (file: string, lines: string) =>
    `revtrail install writes them, or add to ${file} (the parsers ship prebuilt, so no script is needed): ${lines.trim().replace(/\n\s*/g, ' ')}`,
  scriptsDisabled: (where: string) =>
    `ignore-scripts is on (${where}): the package install runs no lifecycle script, so a fresh clone gets no hooks`,
  scriptsDisabledFix: 'in each clone run npx revtrail install once (or turn ignore-scripts off for this project)',
  managerHooksMissing: (manager: string, hooks: readonly string[]) =>
    `revtrail is set up for ${manager}, but git's ${hooks.join(' and ')} hook${hooks.length === 1 ? ' is' : 's are'} not ${manager}'s: its hooks do not run here`,
  managerInstallFix: (manager: string) =>
    manager === 'lefthook'
      ? 'npx lefthook install'
      : 'pre-commit install (the config lists every hook type revtrail needs)',
  preCommitRouteInstallFix:
    "pre-commit install --hook-type commit-msg --hook-type pre-push (once in each clone; it writes git's hooks)",
  preCommitGone: (python: string) =>
    `git's hooks call pre-commit through ${python}, which is gone, and no pre-commit is on PATH: every commit stops with "pre-commit not found"`,
  preCommitGoneFix:
    'install pre-commit again (or activate its virtualenv), then pre-commit install --hook-type commit-msg --hook-type pre-push',
  preCommitRouteHooksOk: (hooks: readonly string[]) =>
    `git's ${hooks.join(' and ')} hook${hooks.length === 1 ? ' is' : 's are'} pre-commit's, which runs revtrail's entries`,
  preCommitRouteMissing: (file: string, repo: string, hooks: readonly string[]) =>
    `${file} takes revtrail from ${repo} but has no ${hooks.map((h) => `revtrail-${h}`).join(' or ')} entry: ${hooks.join(' and ')} ${hooks.length === 1 ? 'is' : 'are'} not reviewed`,
  preCommitRouteMissingFix: (hooks: readonly string[]) =>
    `add ${hooks.map((h) => `- id: revtrail-${h}`).join(' and ')} under that repo's hooks: (revtrail's .pre-commit-hooks.yaml has both), then commit the config`,
  preCommitRouteOk: (file: string, repo: string, hooks: readonly string[]) =>
    `${file} as committed runs revtrail at ${hooks.join(' and ')} from ${repo} (its .pre-commit-hooks.yaml)`,
  preCommitRouteCli:
    "revtrail runs in pre-commit's own environment (built with the system's Node on the first hook run); to answer findings in the shell: npx revtrail verdict …, or a user-level install",
  lefthookRouteInstallFix:
    "lefthook install (once in each clone: it fetches the config's remotes and writes git's hooks)",
  lefthookGone:
    'git\'s hooks call lefthook, which is not found (not on PATH, not where lefthook install ran it from, not in node_modules): every hook prints "Can\'t find lefthook in PATH" and runs nothing',
  lefthookGoneFix: 'install lefthook again (or put it on PATH), then lefthook install',
  lefthookRemoteNotFetched: (remote: string, config: string) =>
    `lefthook has no copy of ${config} from ${remote} (under .git/info/lefthook-remotes/): its hooks run nothing of revtrail's`,
  lefthookRouteHooksOk: (hooks: readonly string[], config: string) =>
    `git's ${hooks.join(' and ')} hooks are lefthook's, which runs revtrail's ${config} from the fetched remote`,
  lefthookRouteNotCommitted: (file: string, remote: string) =>
    `${file} takes revtrail from ${remote} in this work tree, but the committed one (HEAD) does not: a teammate's clone is not reviewed`,
  lefthookRouteLocalFix: (file: string) =>
    `move the remotes: entry into ${file} and commit it (lefthook-local files are each developer's own)`,
  lefthookRouteOk: (file: string, remote: string, config: string) =>
    `${file} as committed runs revtrail's ${config} from ${remote} (lefthook remotes)`,
  lefthookRouteNoCli: (config: string) =>
    `revtrail is not on PATH: the hooks of ${config} skip the review with one line ("not on PATH"), so nothing is reviewed`,
  managerOk: (manager: string) => `git's hooks run ${manager}, which runs revtrail's scripts`,
  npxRegistry: (dir: string, bin: string) =>
    `${dir} has no ${bin}: npx revtrail there asks the npm registry for a package named revtrail, which is not this one`,
  npxRegistryFix: (dir: string, bin: string, target: string, pmInstall = 'npm install') =>
    `mkdir -p '${dir}/${bin.replace(/\/[^/]*$/, '')}' && ln -s '${target}' '${dir}/${bin}' (or ${pmInstall} there)`,
  noNode: 'node is not on PATH: the hooks cannot run revtrail',
  noNodeFix: (dir: string) => `put node's folder on PATH (this revtrail runs on the node in ${dir})`,
  nodePrivate: (dir: string) =>
    `node is in ${dir}, which a GUI git client may not have on PATH (its commits would say "node is not on this hook's PATH")`,
  nodePrivateFix: (initFile: string, dir: string) =>
    `add export PATH="${dir}:$PATH" to ${initFile} (husky reads it before every hook)`,
  nodeOk: (dir: string) => `node is in ${dir}, on the PATH git clients start hooks with`,

  noPackageJson: 'no package.json: teammates run revtrail install after cloning',
  badPackageJson: (file: string, why: string) => `${file} is not valid JSON (${why})`,
  badPackageJsonFix: 'fix the file, then revtrail install',
  noScript: (file: string, name: string, pm: string) =>
    `${file} has no "${name}" that sets the hooks up (${pm}): a teammate's fresh clone gets no hooks`,
  noScriptFix: (name: string) =>
    `revtrail install (it adds "${name}"; with a script of your own: revtrail install --append-prepare)`,
  berryNeedsPostinstall: (file: string, pm: string) =>
    `${file} sets the hooks up in "prepare", which yarn berry never runs (${pm})`,
  berryPnp: (pm: string) => `yarn berry with Plug'n'Play (${pm}): there is no node_modules/.bin/revtrail for the hooks`,
  berryPnpFix: 'set nodeLinker: node-modules in .yarnrc.yml and run yarn install',
  bareHusky: (file: string, name: string, value: string, pm: string) =>
    `"${name}": "${value}" in ${file} runs husky, which is not a dependency of that package (${pm}): pnpm cannot find it`,
  bareHuskyFix: 'revtrail install (it makes the script revtrail install --from-prepare || true)',
  scriptOk: (file: string, name: string, value: string, pm: string) =>
    `"${name}": "${value}" in ${file} sets the hooks up in fresh clones (${pm})`,

  badConfig: (why: string) => `the configuration does not load: ${why}`,
  badConfigFix: 'revtrail knowledge check shows the problems',
  trusted: (command: string) => `the configured reviewer program (${command}) is trusted in this clone`,
  untrusted: (command: string) =>
    `the configured reviewer program (${command}) is not trusted in this clone: reviews run without it`,
  trustChanged: (command: string) =>
    `the configured reviewer program changed to ${command} since it was trusted: reviews run without it`,
  trustFix: 'read the command in revtrail.config.json, then revtrail trust (or remove reviewer.command)',

  noBundle: (dir: string) =>
    `no knowledge bundle at ${dir}: only the built-in rules run (revtrail init writes a starter)`,
  bundleSummary: (dir: string, concepts: number, rules: number, errors: number, warnings: number) =>
    `bundle ${dir}: ${n(concepts, 'document')}, ${n(rules, 'rule')}, ${n(errors, 'error')}, ${n(warnings, 'warning')}`,
  bundleFix: (dir: string) => `revtrail knowledge check ${dir}`,
};

/** `revtrail install --lefthook` / `--pre-commit` (lib/install/manager.ts). */
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
  configEdited: (file: string, hooks: readonly string[]) =>
    `added revtrail's ${hooks.join(', ')} to ${file} (your entries, comments and layout kept)`,
  configUnreadable: (file: string, why: string) => `${file} cannot be edited: ${why}`,
  configUnreadableRemedy:
    'fix the file (lefthook validate, pre-commit validate-config), then run revtrail install again',
  configRestored: (file: string) => `${file} given back as install found it`,
  configEntriesRemoved: (file: string) => `revtrail's entries taken out of ${file} (yours kept)`,
  configLeft: (file: string) =>
    `${file} still names revtrail in a form uninstall does not recognise: take those lines out by hand`,
  gitHookRestored: (hook: string, removed: boolean) =>
    removed
      ? `removed git's ${hook} hook (the manager wrote it for revtrail)`
      : `git's ${hook} hook given back as it was`,
  recordHooksLeftOut: (manager: string) =>
    `only commit-msg and pre-push: --record-hooks adds the hooks that carry the record through amends, rebases and merges, each one more ${manager} launch on every commit`,
  recordHooksCost: (manager: string, hooks: readonly string[]) =>
    `${hooks.join(', ')} keep the record through amends, rebases and merges: each is one more ${manager} launch on every commit (--no-verify ones too)`,
  addToConfig: (file: string, entries: string) =>
    `${file} is your team's: add these entries to it (revtrail does not edit it):\n\n${entries}`,
  cliAt: (path: string) => `the hooks run ${path}`,
  cliFallback: 'no revtrail install found in node_modules; the hooks use revtrail on PATH',
  lefthookNext:
    "then: npx lefthook install (lefthook also writes git's hooks on its next run, and its npm package on npm install in every clone)",
  preCommitNext:
    'then: pre-commit install (every clone runs it once; it installs the hook types the config lists). pre-commit passes revtrail only the first ref of a push: see docs/hooks.md',
  commitThem: (files: readonly string[]) => `Commit ${files.join(' and ')} so the team gets the hooks.`,
  bothManagers:
    '--lefthook, --pre-commit and --simple-git-hooks exclude each other: choose the one that owns your hooks',
  noPackageJson: "no package.json at the top level for simple-git-hooks' config",
  noPackageJsonRemedy:
    'run it where package.json names "simple-git-hooks", or add the entries to your config file yourself',
  sghConfigured: 'package.json "simple-git-hooks": revtrail\'s script joined to each hook\'s command (yours kept)',
  sghUnconfigured: 'package.json "simple-git-hooks": revtrail\'s commands taken out (yours kept)',
  sghRan: "ran simple-git-hooks: the hooks in git's hooks folder run revtrail now",
  sghRanWithout: "ran simple-git-hooks: the hooks in git's hooks folder run your commands only",
  sghNext: 'then: npx simple-git-hooks (your postinstall runs it in every clone)',
  sghFailed: (why: string) => `simple-git-hooks did not run: ${why}; run npx simple-git-hooks`,
};

/** `revtrail install --server` / `uninstall --server` (lib/install/server.ts). */
export const serverInstallMessages = {
  notARepository: (path: string) => `${path} is not a git repository`,
  notARepositoryRemedy: 'Name the repository folder the server pushes into (for example /srv/git/project.git).',
  hookExists: (file: string) =>
    `${file} exists and was not written by revtrail; it is left as it is. Call revtrail from it (revtrail install --print-server-hook shows the lines), or put revtrail in hooks/pre-receive.d/ if your server runs that folder`,
  installedServer: (file: string) => `revtrail: server hook written: ${file}`,
  serverUpToDate: (file: string) => `revtrail: ${file} is up to date`,
  serverRuns: (node: string, cli: string) => `  it runs ${node} ${cli}`,
  serverFailMode:
    '  a hook that cannot run rejects the push; git config revtrail.failOpen true (in that repository) accepts instead',
  uninstalledServer: (file: string) => `revtrail: removed ${file}`,
  notInstalledServer: (repo: string) => `revtrail: no revtrail server hook in ${repo}`,
  notOurs: (file: string) => `${file} was not written by revtrail; left as it is`,
  policyRefFirst: (key: string) =>
    `Push the branch that holds the team's policy first (git push origin main), then install; where HEAD names another branch, set git config ${key} refs/heads/main in the repository`,
  policyFrom: (ref: string) => `  every push is reviewed with the policy ${ref} has before it`,
};

/** Why package.json could not be read as revtrail reads it (lib/install/package-json.ts), after the file's name. */
export const packageJsonMessages = {
  notObject: 'not a JSON object',
  sectionNotObject: (section: string) => `"${section}" is not an object`,
  unterminatedString: 'unterminated string',
  unterminatedValue: 'unterminated value',
  expectedColon: 'expected ":"',
  expectedCommaOrBrace: 'expected "," or "}"',
};
