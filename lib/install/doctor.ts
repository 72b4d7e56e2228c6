/**
 * `revtrail doctor`: is this clone set up so that the hooks run, and what to fix where not
 * (docs/hooks.md, "Doctor"). Every check reads; nothing is changed.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readFailure, readRegularFile } from '../core/fs/read.js';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { contains, toPosix } from '../core/fs/path.js';
import { homedir, tmpdir } from 'node:os';
import { findRepo } from '../core/git/repo.js';
import { changedFiles, gitPath, ignoredFiles, run, trackedFiles, worktreeList } from '../core/git/commands.js';
import { loadConfig } from '../config/load.js';
import { loadBundle } from '../bundle/load.js';
import { trustState } from '../config/trust.js';
import { findBlock } from './block.js';
import { hookFiles, LEFTHOOK_FILES, readHookSetup } from './existing.js';
import { unchainedHooks } from './chain.js';
import { allowBuildsEntries, buildsState, dependsOnRevtrail, pnpmMajor, WORKSPACE_FILE } from './pnpm-builds.js';
import { HOOKS, HUSKY_DIR, HUSKY_PATH, isHuskyPath, readHooksPath } from './install.js';
import { packageFile } from './script.js';
import {
  detectPackageManager,
  INSTALL_COMMAND,
  lifecycleScript,
  PM_LABEL,
  SETUP_COMMAND,
  setsUpHooks,
} from './package-manager.js';
import { managerConfigFile, REVIEW_HOOKS, scriptPath, type Manager } from './manager.js';
import {
  ConfigShapeError,
  lefthookMissing,
  lefthookRoute,
  preCommitRoute,
  preCommitState,
  repositoryName,
  type LefthookRoute,
} from './manager-config.js';
import { fileVersions } from '../core/git/versions.js';
import { doctorMessages as m } from '../messages/install.js';
import { hookRecord } from '../hooks/registry.js';

export type Level = 'ok' | 'info' | 'warn' | 'fail';

/** The most of one file doctor reads (a hook, package.json, init.sh): only regular files, never a device (docs/trust.md "Fails closed"). */
const MAX_READ_BYTES = 1024 * 1024;
const readText = (file: string) => readRegularFile(file, { maxBytes: MAX_READ_BYTES }).bytes.toString('utf8');

export interface Check {
  /** What was checked: hooks-path, worktree, hooks, cli, node, script, trust, bundle. */
  check: string;
  level: Level;
  message: string;
  /** What to do about it (warn and fail). */
  fix?: string;
}

export interface DoctorReport {
  top: string;
  checks: Check[];
  /** No check failed. */
  ok: boolean;
}

const isExecutable = (file: string) => {
  try {
    return statSync(file).isFile() && (statSync(file).mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

/** The worktrees git knows, with whether their folder is there. */
async function worktrees(top: string): Promise<string[]> {
  const found = (await run(worktreeList, { cwd: top })).filter((w) => !w.bare).map((w) => w.path);
  return found.length ? found : [top];
}

/** The CLI the hooks of `dir` call, by the hook script's own order; null: none. */
export function hookCli(dir: string, main: string | null): { cli: string | null; configured: string } {
  let configured = '';
  try {
    const text = readText(join(dir, HUSKY_DIR, 'commit-msg'));
    const quoted = /^\s*revtrail_bin='((?:[^']|'\\'')*)'/m.exec(text)?.[1];
    configured = quoted?.replace(/'\\''/g, "'") ?? '';
  } catch {
    // no hook file: the defaults
  }
  const local = [configured, 'node_modules/.bin/revtrail'].filter(Boolean).map((p) => resolve(dir, p));
  const fromMain =
    main && main !== dir
      ? [configured || 'node_modules/.bin/revtrail', 'node_modules/.bin/revtrail'].map((p) => resolve(main, p))
      : [];
  const found = [...local, ...fromMain].find(isExecutable);
  if (found) return { cli: found, configured };
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, 'revtrail'))
    .find(isExecutable);
  return { cli: onPath ?? null, configured };
}

/**
 * A folder a package manager puts on PATH for the one command it runs (yarn berry's
 * /tmp/xfs-1a2b3c4d/, yarn classic's /tmp/yarn--1700000000-0.1/, npm's and pnpm's temp shims):
 * gone when the command ends, so never one to suggest for the hooks' PATH.
 */
export function isTemporaryFolder(dir: string): boolean {
  const d = resolve(dir);
  const temp = resolve(tmpdir());
  return contains(temp, d) || /[\\/](?:xfs-[0-9a-f]+|yarn--[\d.-]+)(?:[\\/]|$)/.test(d);
}

/** The PATH folder holding `name`; `temporary`: a package manager's temporary folders count too. */
function findOnPath(name: string, temporary = false): string | null {
  for (const d of (process.env.PATH ?? '').split(delimiter).filter(Boolean))
    if ((temporary || !isTemporaryFolder(d)) && isExecutable(join(d, name))) return d;
  return null;
}

/** The folder of the node running this: what a hook's PATH needs (never a package manager's shim folder). */
function realNodeDir(): string {
  try {
    return dirname(realpathSync(process.execPath));
  } catch {
    return dirname(process.execPath);
  }
}

/** Hook files with a revtrail block in `top`/.husky that are not committed as they are. */
async function uncommittedHooks(top: string): Promise<string[]> {
  const files = HOOKS.filter((name) => !missingHooks(top).includes(name)).map((name) => `${HUSKY_DIR}/${name}`);
  if (!files.length) return [];
  const tracked = new Set(await run(trackedFiles(files), { cwd: top }));
  const changed = await run(changedFiles(files), { cwd: top });
  return files.filter((f) => !tracked.has(f) || changed.includes(f));
}

/** Hooks of HOOKS without a revtrail block in `dir`'s .husky/. */
function missingHooks(dir: string): string[] {
  return HOOKS.filter((name) => {
    try {
      return !findBlock(readText(join(dir, HUSKY_DIR, name)));
    } catch {
      return true;
    }
  });
}

/** One line per worktree: husky's runner there, and the committed hooks with their block. */
function worktreeCheck(
  dir: string,
  here: boolean,
  add: (check: string, level: Level, message: string, fix?: string) => void,
  pmInstall: string,
): void {
  const label = here ? m.thisWorktree : dir;
  if (!existsSync(dir)) {
    add('worktree', 'warn', m.worktreeGone(dir), m.worktreeGoneFix);
    return;
  }
  const problems: string[] = [];
  if (!existsSync(join(dir, HUSKY_PATH, 'h'))) problems.push(m.noRunner);
  else {
    // Another tool that writes into core.hooksPath (simple-git-hooks, a hand-run script) replaces husky's runner for a hook.
    const replaced = hookFiles(join(dir, HUSKY_PATH)).filter((h) => HOOKS.includes(h.hook) && h.owner !== 'husky');
    if (replaced.length) {
      add(
        'runner',
        'fail',
        m.runnerReplaced(
          label,
          replaced.map((h) => `${HUSKY_PATH}/${h.hook} (${h.owner})`),
        ),
        m.runnerReplacedFix(replaced.some((h) => h.owner === 'simple-git-hooks')),
      );
      return;
    }
  }
  const missing = missingHooks(dir);
  const needed = missing.filter((h) => hookRecord(h)?.missing !== 'warn');
  if (needed.length) problems.push(m.hooksMissing(needed.map((h) => `${HUSKY_DIR}/${h}`)));
  if (problems.length)
    add(
      'worktree',
      'fail',
      m.worktreeProblems(label, problems),
      m.worktreeFix(here ? null : dir, needed.length > 0, pmInstall),
    );
  else if (missing.length)
    add(
      'worktree',
      'warn',
      m.hooksMissingWarn(
        label,
        missing.map((h) => `${HUSKY_DIR}/${h}`),
      ),
      m.worktreeFix(here ? null : dir, true),
    );
  else add('worktree', 'ok', m.hooksOk(label));
}

/** lefthook or pre-commit, when revtrail was set up inside one (docs/hooks.md, "Other hook managers"). */
function managerIn(top: string): Manager | null {
  if (existsSync(join(top, scriptPath('lefthook', 'commit-msg')))) return 'lefthook';
  try {
    // .revtrail-hooks/ serves pre-commit and simple-git-hooks; its scripts say which.
    return readText(join(top, scriptPath('pre-commit', 'commit-msg'))).includes('run by simple-git-hooks')
      ? 'simple-git-hooks'
      : 'pre-commit';
  } catch {
    return null;
  }
}

/** The files of `dir` (`folders`: its folders instead); none when it cannot be read. */
function readdirNames(dir: string, folders = false): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (folders ? e.isDirectory() : e.isFile()))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** `file` as committed at HEAD (null: not there, or no commit yet). */
async function atHead(top: string, file: string): Promise<string | null> {
  // Through the one reader of file versions (core/git/versions.ts): the doctor's reads share a process.
  const object = await fileVersions(top).object(`HEAD:${file}`);
  return object?.type === 'blob' ? object.bytes.toString('utf8') : null;
}

/** What the manager's config makes it run for revtrail: the review hooks without an entry, and for pre-commit those it will not install. */
function configGaps(
  manager: Manager,
  text: string | null,
): { missing: string[]; notInstalled: string[]; loose: string[] } {
  if (manager === 'lefthook') return { missing: lefthookMissing(text, REVIEW_HOOKS), notInstalled: [], loose: [] };
  if (text === null) return { missing: [...REVIEW_HOOKS], notInstalled: [], loose: [] };
  const state = preCommitState(text, REVIEW_HOOKS);
  return { missing: state.missing, notInstalled: state.notInstalled, loose: state.loose };
}

/**
 * The manager's config as a teammate's clone gets it: the one committed at HEAD runs revtrail at
 * commit-msg and pre-push, and (pre-commit) lists those hook types for its install; what the
 * work tree has that HEAD has not is said (docs/hooks.md, "Doctor").
 */
async function managerConfigCheck(
  top: string,
  manager: Manager,
  add: (check: string, level: Level, message: string, fix?: string) => void,
): Promise<void> {
  if (manager === 'simple-git-hooks') return;
  const check = manager === 'pre-commit' ? 'pre-commit' : 'config';
  const { file, exists } = managerConfigFile(top, manager);
  if (!exists && manager === 'pre-commit') {
    add(check, 'fail', m.preCommitNoConfig, m.preCommitConfigFix);
    return;
  }
  const here = exists ? readText(join(top, file)) : null;
  const head = await atHead(top, file);
  let now: ReturnType<typeof configGaps>;
  let committed: ReturnType<typeof configGaps>;
  try {
    now = configGaps(manager, here);
  } catch (error) {
    add(check, 'fail', m.preCommitBadConfig(file, (error as Error).message), m.managerConfigFix(manager));
    return;
  }
  try {
    committed = configGaps(manager, head);
  } catch (error) {
    if (!(error instanceof ConfigShapeError)) throw error;
    committed = { missing: [...REVIEW_HOOKS], notInstalled: [...REVIEW_HOOKS], loose: [] };
  }
  if (now.missing.length) {
    add(check, 'fail', m.managerConfigMissing(file, now.missing), m.managerConfigFix(manager));
    return;
  }
  if (now.notInstalled.length) {
    add(check, 'fail', m.preCommitNotInstalled(file, now.notInstalled), m.managerConfigFix(manager));
    return;
  }
  const scripts = REVIEW_HOOKS.map((h) => scriptPath(manager, h));
  if (committed.missing.length || committed.notInstalled.length) {
    add(
      check,
      'fail',
      committed.missing.length
        ? m.managerConfigNotCommitted(file, committed.missing)
        : m.preCommitNotInstalled(`${file} (HEAD)`, committed.notInstalled),
      m.managerConfigNotCommittedFix([file, ...scripts]),
    );
    return;
  }
  if (now.loose.length) {
    add(check, 'fail', m.preCommitStagesLoose(file, now.loose), m.preCommitStagesFix);
    return;
  }
  if (here !== head) add(check, 'warn', m.managerConfigEdited(file), m.managerConfigEditedFix(file));
  else add(check, 'ok', manager === 'pre-commit' ? m.preCommitConfigOk(file) : m.managerConfigOk(file, REVIEW_HOOKS));
}

/**
 * The pre-commit framework's `repo:` route (docs/hooks.md, "Repositories that are not Node
 * projects"): the config takes revtrail's hooks from its .pre-commit-hooks.yaml, and
 * `pre-commit install --hook-type commit-msg --hook-type pre-push` wrote git's hooks. False: the
 * config does not name revtrail that way (or cannot be read), so the other checks apply.
 */
async function preCommitRouteChecks(
  top: string,
  add: (check: string, level: Level, message: string, fix?: string) => void,
): Promise<boolean> {
  const { file, exists } = managerConfigFile(top, 'pre-commit');
  if (!exists) return false;
  let here: string;
  let route: ReturnType<typeof preCommitRoute>;
  try {
    here = readText(join(top, file));
    route = preCommitRoute(here, REVIEW_HOOKS);
  } catch {
    return false;
  }
  if (!route) return false;
  const hooksDir = resolve(top, await run(gitPath('hooks'), { cwd: top }));
  const notInstalled: string[] = [];
  let gone: string | null = null;
  for (const hook of route.runs) {
    let text = '';
    try {
      text = readText(join(hooksDir, hook));
    } catch {
      // none: not installed
    }
    if (!text.includes('File generated by pre-commit')) {
      notInstalled.push(hook);
      continue;
    }
    // The hook calls the Python pre-commit was installed with, else pre-commit on PATH.
    const python = /^INSTALL_PYTHON=['"]?([^'"\n]+)/m.exec(text)?.[1]?.trim() ?? '';
    if (!(python && isExecutable(python)) && !findOnPath('pre-commit')) gone = python || 'pre-commit';
  }
  if (notInstalled.length)
    add('manager', 'fail', m.managerHooksMissing('pre-commit', notInstalled), m.preCommitRouteInstallFix);
  else if (gone) add('manager', 'fail', m.preCommitGone(gone), m.preCommitGoneFix);
  else add('manager', 'ok', m.preCommitRouteHooksOk(route.runs));
  const shown = route.rev ? `${route.repo} @ ${route.rev}` : route.repo;
  if (route.missing.length)
    add(
      'pre-commit',
      'fail',
      m.preCommitRouteMissing(file, shown, route.missing),
      m.preCommitRouteMissingFix(route.missing),
    );
  else {
    const head = await atHead(top, file);
    let committed: ReturnType<typeof preCommitRoute> = null;
    try {
      committed = head === null ? null : preCommitRoute(head, REVIEW_HOOKS);
    } catch {
      // unreadable at HEAD: runs nothing in a teammate's clone
    }
    const headMissing = committed ? committed.missing : [...REVIEW_HOOKS];
    if (headMissing.length)
      add('pre-commit', 'fail', m.managerConfigNotCommitted(file, headMissing), m.managerConfigNotCommittedFix([file]));
    else if (here !== head) add('pre-commit', 'warn', m.managerConfigEdited(file), m.managerConfigEditedFix(file));
    else add('pre-commit', 'ok', m.preCommitRouteOk(file, shown, REVIEW_HOOKS));
  }
  add('cli', 'info', m.preCommitRouteCli);
  return true;
}

/** lefthook's local config names (personal, usually not committed), beside LEFTHOOK_FILES. */
const LEFTHOOK_LOCAL_FILES = LEFTHOOK_FILES.map((f) => f.replace('lefthook.', 'lefthook-local.'));

/**
 * Where git's lefthook hook finds lefthook, by the hook's own order: $LEFTHOOK_BIN, lefthook on
 * PATH, the binary `lefthook install` ran from, the project's node_modules, then tools (go,
 * bundler, yarn, mise, ...) doctor accepts when a file of the project names lefthook.
 */
function lefthookReachable(top: string, hookText: string): boolean {
  if (process.env.LEFTHOOK_BIN && isExecutable(process.env.LEFTHOOK_BIN)) return true;
  if (findOnPath('lefthook', true)) return true;
  for (const [, bin] of hookText.matchAll(/^\s*elif (\/\S+) -h\b/gm)) if (isExecutable(bin!)) return true;
  const modules = join(top, 'node_modules');
  if (existsSync(join(modules, 'lefthook', 'bin', 'index.js'))) return true;
  if (existsSync(join(modules, '@evilmartians', 'lefthook-installer', 'bin', 'lefthook'))) return true;
  if (readdirNames(modules, true).some((d) => /^lefthook-/.test(d) && existsSync(join(modules, d, 'bin', 'lefthook'))))
    return true;
  if (existsSync(join(modules, '@evilmartians', 'lefthook'))) return true;
  const tools = ['go.mod', 'Gemfile', 'package.json', 'mise.toml', '.mise.toml', 'devbox.json', 'composer.json'];
  return tools.some((f) => {
    try {
      return readText(join(top, f)).includes('lefthook');
    } catch {
      return false;
    }
  });
}

/**
 * lefthook's `remotes:` route (docs/hooks.md, "Repositories that are not Node projects"): the
 * team's lefthook config takes revtrail's hooks/lefthook.yml from a remote, `lefthook install`
 * fetched it and wrote git's hooks, and those hooks call revtrail on PATH. False: no config names
 * revtrail that way (or none can be read), so the other checks apply.
 */
async function lefthookRouteChecks(
  top: string,
  add: (check: string, level: Level, message: string, fix?: string) => void,
): Promise<boolean> {
  // lefthook keeps each remote fetched under .git/info/lefthook-remotes/<name>[-<ref>]/ (lefthook install fetches it).
  const remotesDir = resolve(top, await run(gitPath('info/lefthook-remotes'), { cwd: top }));
  const fetchedCopy = (route: LefthookRoute): string | null => {
    const name = repositoryName(route.gitUrl);
    for (const d of readdirNames(remotesDir, true)) {
      if (d !== name && !d.startsWith(`${name}-`)) continue;
      try {
        return readText(join(remotesDir, d, route.config));
      } catch {
        // not fetched under this name
      }
    }
    return null;
  };
  const isRevtrail = (route: LefthookRoute) => /\brevtrail hook commit-msg\b/.test(fetchedCopy(route) ?? '');
  let found: { file: string; text: string; route: LefthookRoute } | null = null;
  const yamlish = (f: string) => /\.(ya?ml|json)$/.test(f);
  // lefthook reads the first main config it finds, then merges the local one over it.
  const main = LEFTHOOK_FILES.find((f) => existsSync(join(top, f)));
  const local = LEFTHOOK_LOCAL_FILES.find((f) => existsSync(join(top, f)));
  for (const file of [main, local]) {
    if (!file || !yamlish(file)) continue;
    try {
      const text = readText(join(top, file));
      const route = lefthookRoute(text, isRevtrail);
      if (route) {
        found = { file, text, route };
        break;
      }
    } catch {
      // unreadable: lefthook refuses it too; the other checks say so
    }
  }
  if (!found) return false;
  const { file, text, route } = found;
  const shown = route.ref ? `${route.gitUrl} @ ${route.ref}` : route.gitUrl;
  const hooksDir = resolve(top, await run(gitPath('hooks'), { cwd: top }));
  const notInstalled: string[] = [];
  let reachable = true;
  for (const hook of REVIEW_HOOKS) {
    let hookText = '';
    try {
      hookText = readText(join(hooksDir, hook));
    } catch {
      // none: not installed
    }
    if (!/call_lefthook run|lefthook run/.test(hookText)) notInstalled.push(hook);
    else reachable &&= lefthookReachable(top, hookText);
  }
  const fetched = fetchedCopy(route) !== null;
  if (notInstalled.length)
    add('manager', 'fail', m.managerHooksMissing('lefthook', notInstalled), m.lefthookRouteInstallFix);
  else if (!reachable) add('manager', 'fail', m.lefthookGone, m.lefthookGoneFix);
  else if (!fetched) add('manager', 'fail', m.lefthookRemoteNotFetched(shown, route.config), m.lefthookRouteInstallFix);
  else add('manager', 'ok', m.lefthookRouteHooksOk(REVIEW_HOOKS, route.config));
  const head = await atHead(top, file);
  let committed: ReturnType<typeof lefthookRoute> = null;
  try {
    committed = head === null ? null : lefthookRoute(head, isRevtrail);
  } catch {
    // unreadable at HEAD: runs nothing in a teammate's clone
  }
  if (!committed)
    add(
      'lefthook',
      file === local ? 'warn' : 'fail',
      m.lefthookRouteNotCommitted(file, shown),
      file === local ? m.lefthookRouteLocalFix(main ?? LEFTHOOK_FILES[0]!) : m.managerConfigNotCommittedFix([file]),
    );
  else if (text !== head) add('lefthook', 'warn', m.managerConfigEdited(file), m.managerConfigEditedFix(file));
  else add('lefthook', 'ok', m.lefthookRouteOk(file, shown, route.config));
  const cli = findOnPath('revtrail', true);
  if (cli) add('cli', 'ok', m.cliOk(join(cli, 'revtrail')));
  else add('cli', 'fail', m.lefthookRouteNoCli(route.config), m.noCliUserFix);
  return true;
}

/** The committed files the team's clones need, ignored by .gitignore (git add skips them with exit 0). */
async function ignoredNeeded(top: string, files: string[]): Promise<string[]> {
  if (!files.length) return [];
  const ignored = await run(ignoredFiles(files), { cwd: top });
  if (!ignored.length) return [];
  // Once committed (git add -f), an ignored file stays in every clone.
  const tracked = new Set(await run(trackedFiles(ignored), { cwd: top }));
  return ignored.filter((f) => !tracked.has(f));
}

/** A revtrail dependency from a file in the repository (a vendored tarball): its path, relative to the top level. */
function vendoredTarball(top: string, pkgRel: string): string | null {
  try {
    const json = JSON.parse(readText(join(top, pkgRel))) as Record<string, Record<string, unknown> | undefined>;
    const spec = json.devDependencies?.revtrail ?? json.dependencies?.revtrail;
    if (typeof spec !== 'string' || !spec.startsWith('file:') || !/\.(tgz|tar\.gz)$/.test(spec)) return null;
    const rel = toPosix(relative(top, resolve(top, dirname(pkgRel), spec.slice(5))));
    return rel.startsWith('..') ? null : rel;
  } catch {
    return null;
  }
}

/** npm's and pnpm's ignore-scripts setting from the project's and the user's .npmrc, or the environment. */
function scriptsDisabled(top: string, pkgDir: string): string | null {
  if (/^(true|1)$/i.test(process.env.npm_config_ignore_scripts ?? '')) return 'npm_config_ignore_scripts';
  for (const file of [join(top, pkgDir, '.npmrc'), join(top, '.npmrc'), join(homedir(), '.npmrc')]) {
    try {
      if (/^\s*ignore-scripts\s*=\s*true\s*$/m.test(readText(file))) return file;
    } catch {
      // none
    }
  }
  return null;
}

/** The manager's own hooks in git's hooks folder, revtrail's scripts committed, the CLI they call. */
async function managerChecks(
  top: string,
  manager: Manager,
  add: (check: string, level: Level, message: string, fix?: string) => void,
): Promise<string | null> {
  const hooksDir = await run(gitPath('hooks'), { cwd: top });
  // What git's hook file must hold for the manager to reach revtrail's script.
  const word = manager === 'simple-git-hooks' ? (hook: string) => scriptPath(manager, hook) : () => manager;
  const missing = ['commit-msg', 'pre-push'].filter((hook) => {
    try {
      return !readText(resolve(top, hooksDir, hook)).includes(word(hook));
    } catch {
      return true;
    }
  });
  if (missing.length) add('manager', 'fail', m.managerHooksMissing(manager, missing), m.managerInstallFix(manager));
  else add('manager', 'ok', m.managerOk(manager));
  await managerConfigCheck(top, manager, add);
  const files = HOOKS.map((hook) => scriptPath(manager, hook)).filter((f) => existsSync(join(top, f)));
  const tracked = new Set(await run(trackedFiles(files), { cwd: top }));
  const changed = await run(changedFiles(files), { cwd: top });
  const uncommitted = files.filter((f) => !tracked.has(f) || changed.includes(f));
  if (uncommitted.length) add('committed', 'fail', m.hooksUncommitted(uncommitted), m.hooksUncommittedFix(uncommitted));
  else add('committed', 'ok', m.hooksCommitted);
  let configured = '';
  try {
    configured =
      /^\s*revtrail_bin='((?:[^']|'\\'')*)'/m.exec(readText(join(top, scriptPath(manager, 'commit-msg'))))?.[1] ?? '';
  } catch {
    // unreadable: the default
  }
  const cli =
    [configured, 'node_modules/.bin/revtrail']
      .filter(Boolean)
      .map((p) => resolve(top, p))
      .find(isExecutable) ?? null;
  if (!cli) add('cli', 'fail', m.noCli(configured || 'node_modules/.bin/revtrail'), m.noCliFix(installCommand(top)));
  else add('cli', 'ok', m.cliOk(cli));
  return cli;
}

/** The command that installs the project's dependencies, by its lockfile (pnpm install in a pnpm project). */
function installCommand(top: string): string {
  const pkg = packageFile(top, null, existsSync);
  return INSTALL_COMMAND[detectPackageManager(pkg ? dirname(join(top, pkg)) : top, top).pm];
}

/** Folders a GUI git client has on PATH without a login shell (macOS launchd, desktop Linux). */
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/local/bin', '/opt/homebrew/bin', '/usr/sbin', '/sbin'];

export async function doctor(cwd: string): Promise<DoctorReport> {
  const repo = await findRepo(cwd);
  const { top } = repo;
  const checks: Check[] = [];
  const add = (check: string, level: Level, message: string, fix?: string) =>
    checks.push({ check, level, message, ...(fix ? { fix } : {}) });

  const hooksPath = await readHooksPath(top);
  const trees = await worktrees(top);
  const hooksHere = missingHooks(top);
  const manager = hooksHere.length === HOOKS.length ? managerIn(top) : null;
  const installed = (hooksPath && isHuskyPath(hooksPath.value, top)) || hooksHere.length < HOOKS.length;
  let cli: string | null = null;
  if (manager) cli = await managerChecks(repo.top, manager, add);
  else if (!installed && !hooksPath && (await preCommitRouteChecks(top, add))) {
    // The framework runs revtrail from its own environment: no script, CLI or package.json of the repository's.
  } else if (!installed && !hooksPath && (await lefthookRouteChecks(top, add))) {
    // revtrail's hooks/lefthook.yml calls revtrail on PATH: no script or package.json of the repository's.
  } else if (!installed && !hooksPath) {
    // A team whose hooks a manager runs is told that manager's route, never husky's (which would refuse).
    const [owner] = readHookSetup(top, repo.commonDir, null).managers;
    if (owner)
      add('install', 'fail', m.notInManager(owner.manager, owner.evidence), m.runManagerInstall(owner.manager));
    else add('install', 'fail', m.notInstalled, m.runInstall);
  } else {
    if (!hooksPath) add('hooks-path', 'fail', m.hooksPathUnset, m.runInstall);
    else if (!isHuskyPath(hooksPath.value, top))
      add('hooks-path', 'fail', m.hooksPathElsewhere(hooksPath.value, hooksPath.scope), m.hooksPathElsewhereFix);
    else add('hooks-path', 'ok', m.hooksPathOk(hooksPath.value));

    const common = repo.commonDir.replace(/[\\/]\.git$/, '');
    const main = trees.includes(common) ? common : null;
    for (const dir of [top, ...trees.filter((t) => t !== top)])
      worktreeCheck(dir, dir === top, add, installCommand(top));
    if (hooksPath && isHuskyPath(hooksPath.value, top)) {
      const uncommitted = await uncommittedHooks(top);
      if (uncommitted.length)
        add('committed', 'fail', m.hooksUncommitted(uncommitted), m.hooksUncommittedFix(uncommitted));
      else add('committed', 'ok', m.hooksCommitted);
      const unchained = unchainedHooks(top, repo.commonDir);
      if (unchained.length) add('chain', 'fail', m.unchained(unchained), m.unchainedFix);
    }
    const found = hookCli(top, main);
    // npx looks for node_modules/.bin up from the folder it runs in; a linked worktree outside
    // the main one has none unless post-checkout linked it (docs/hooks.md, "Worktrees").
    const bin = found.configured || 'node_modules/.bin/revtrail';
    if (main && existsSync(join(main, bin))) {
      for (const dir of trees) {
        if (contains(main, dir) || !existsSync(dir)) continue;
        let has = existsSync(join(dir, bin));
        try {
          has ||= lstatSync(join(dir, bin)).isSymbolicLink();
        } catch {
          // nothing there
        }
        if (!has)
          add('npx', 'warn', m.npxRegistry(dir, bin), m.npxRegistryFix(dir, bin, join(main, bin), installCommand(top)));
      }
    }
    cli = found.cli;
    if (!cli)
      add(
        'cli',
        'fail',
        m.noCli(found.configured || 'node_modules/.bin/revtrail'),
        packageFile(top, null, existsSync) ? m.noCliFix(installCommand(top)) : m.noCliUserFix,
      );
    else add('cli', 'ok', m.cliOk(cli));
  }

  const nodeDir = findOnPath('node');
  if (!nodeDir) add('node', 'fail', m.noNode, m.noNodeFix(realNodeDir()));
  else {
    const initFile = join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'husky', 'init.sh');
    let init = '';
    try {
      init = readText(initFile);
    } catch {
      // none, or not a file doctor reads: as if it did not name node's folder
    }
    if (SYSTEM_DIRS.includes(nodeDir) || init.includes(nodeDir)) add('node', 'ok', m.nodeOk(nodeDir));
    else add('node', 'warn', m.nodePrivate(nodeDir), m.nodePrivateFix(initFile, nodeDir));
  }

  // lefthook sets itself up on npm install (its own postinstall); pre-commit has `pre-commit install`.
  const pkgRel =
    installed && !manager
      ? packageFile(top, cli?.startsWith(top) ? cli.slice(top.length + 1) : null, existsSync)
      : null;
  if (installed && !manager && !pkgRel) add('script', 'info', m.noPackageJson);
  else if (pkgRel) {
    checks.push(scriptCheck(top, pkgRel));
    const off = scriptsDisabled(top, dirname(pkgRel));
    if (off) add('script', 'fail', m.scriptsDisabled(off), m.scriptsDisabledFix);
  }
  const pnpmPkg = pkgRel ?? (manager ? packageFile(top, null, existsSync) : null);
  if (pnpmPkg) await pnpmCheck(top, pnpmPkg, add);
  // What a teammate's clone needs from the commit: .gitignore must not drop it silently.
  if (installed || manager) {
    const needed = [
      ...(manager
        ? HOOKS.map((h) => scriptPath(manager, h))
        : readdirNames(join(top, HUSKY_DIR)).map((f) => `${HUSKY_DIR}/${f}`)),
    ].filter((f) => existsSync(join(top, f)));
    const pkg = packageFile(top, null, existsSync);
    const tarball = pkg ? vendoredTarball(top, pkg) : null;
    const ignored = await ignoredNeeded(top, tarball ? [...needed, tarball] : needed);
    if (ignored.length) add('ignored', 'fail', m.ignoredNeeded(ignored), m.ignoredNeededFix(ignored));
    if (tarball) {
      const tracked = existsSync(join(top, tarball)) && (await run(trackedFiles([tarball]), { cwd: top })).length > 0;
      // In the index is not yet in HEAD: a staged tarball is in no teammate's clone.
      const committed = tracked && (await fileVersions(top).info(`HEAD:${tarball}`)) !== null;
      if (!tracked) add('vendored', 'fail', m.tarballUntracked(tarball), m.tarballUntrackedFix(tarball));
      else if (!committed) add('vendored', 'fail', m.tarballStaged(tarball), m.tarballStagedFix);
      else add('vendored', 'ok', m.tarballTracked(tarball));
    }
  }

  let config: Awaited<ReturnType<typeof loadConfig>>['config'] | null = null;
  try {
    config = (await loadConfig(top)).config;
  } catch (error) {
    add('config', 'fail', m.badConfig((error as Error).message), m.badConfigFix);
  }
  // A reviewer program from the config runs only once trusted in this clone (docs/trust.md).
  const command = config?.reviewer.command;
  if (command) {
    const trust = await trustState(repo.commonDir, command);
    const shown = command.join(' ');
    if (trust.state === 'trusted') add('trust', 'ok', m.trusted(shown));
    else
      add(
        'trust',
        config!.reviewer.required ? 'fail' : 'warn',
        trust.state === 'changed' ? m.trustChanged(shown) : m.untrusted(shown),
        m.trustFix,
      );
  }

  if (config) {
    const dir = resolve(top, config.knowledge);
    const docMap = config.docMap === undefined ? undefined : { file: resolve(top, config.docMap), top };
    if (!existsSync(dir) && !docMap) add('bundle', 'info', m.noBundle(config.knowledge));
    else {
      const bundle = await loadBundle(dir, { base: top, docMap });
      const errors = bundle.diagnostics.filter((d) => d.level === 'error').length;
      const warnings = bundle.diagnostics.length - errors;
      const rules = bundle.concepts.reduce((n, c) => n + c.rules.length + (c.structural?.length ?? 0), 0);
      const summary = m.bundleSummary(config.knowledge, bundle.concepts.length, rules, errors, warnings);
      add(
        'bundle',
        errors ? 'fail' : warnings ? 'warn' : 'ok',
        summary,
        errors || warnings ? m.bundleFix(config.knowledge) : undefined,
      );
    }
  }
  return { top, checks, ok: !checks.some((c) => c.level === 'fail') };
}

/** Under pnpm: revtrail's unneeded install scripts are decided, or pnpm 10 warns and pnpm 11 refuses (./pnpm-builds.ts). */
async function pnpmCheck(
  top: string,
  pkgRel: string,
  add: (check: string, level: Level, message: string, fix?: string) => void,
): Promise<void> {
  const detected = detectPackageManager(dirname(join(top, pkgRel)), top);
  if (detected.pm !== 'pnpm' || !dependsOnRevtrail(join(top, pkgRel))) return;
  const root = detected.root ?? dirname(join(top, pkgRel));
  const shown = toPosix(relative(top, join(root, WORKSPACE_FILE)));
  const state = await buildsState(root);
  if (state.kind === 'decided') add('pnpm', 'ok', m.pnpmBuildsOk(shown));
  else {
    // pnpm 9 runs the scripts and needs nothing; a version doctor cannot learn is a warning.
    const major = await pnpmMajor(root);
    if (major !== null && major < 10) return;
    add(
      'pnpm',
      major === null ? 'warn' : 'fail',
      state.kind === 'unreadable'
        ? m.pnpmBuildsUnreadable(shown, state.why)
        : m.pnpmBuildsUndecided(shown, state.names),
      m.pnpmBuildsFix(shown, allowBuildsEntries(state.kind === 'undecided' ? state.names : undefined)),
    );
  }
}

function scriptCheck(top: string, rel: string): Check {
  const file = join(top, rel);
  const detected = detectPackageManager(resolve(file, '..'), top);
  const pm = `${PM_LABEL[detected.pm]}, from ${detected.evidence}`;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readText(file)) as Record<string, unknown>;
  } catch (error) {
    return {
      check: 'script',
      level: 'fail',
      message: m.badPackageJson(rel, error instanceof SyntaxError ? error.message : readFailure(error)),
      fix: m.badPackageJsonFix,
    };
  }
  const scripts = (json.scripts && typeof json.scripts === 'object' ? json.scripts : {}) as Record<string, unknown>;
  const name = lifecycleScript(detected.pm);
  const value = typeof scripts[name] === 'string' ? (scripts[name] as string) : null;
  if (detected.pm === 'yarn-berry' && detected.nodeLinker === 'pnp')
    return { check: 'script', level: 'fail', message: m.berryPnp(pm), fix: m.berryPnpFix };
  if (value === null || !setsUpHooks(value)) {
    const other =
      detected.pm === 'yarn-berry' && typeof scripts.prepare === 'string' && setsUpHooks(scripts.prepare as string);
    return {
      check: 'script',
      level: 'fail',
      message: other ? m.berryNeedsPostinstall(rel, pm) : m.noScript(rel, name, pm),
      fix: m.noScriptFix(name),
    };
  }
  const direct = ['dependencies', 'devDependencies'].some(
    (k) => json[k] && typeof json[k] === 'object' && 'husky' in (json[k] as object),
  );
  if (!value.includes(SETUP_COMMAND) && !direct) {
    const level = detected.pm === 'pnpm' ? 'fail' : 'warn';
    return { check: 'script', level, message: m.bareHusky(rel, name, value, pm), fix: m.bareHuskyFix };
  }
  return { check: 'script', level: 'ok', message: m.scriptOk(rel, name, value, pm) };
}
