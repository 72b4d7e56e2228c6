/**
 * `revtrail install --lefthook` / `--pre-commit` / `--simple-git-hooks` (docs/hooks.md, "Other
 * hook managers"): revtrail's hook scripts, the same ones husky runs, set up inside a hook
 * manager the team already uses, which owns .git/hooks (or core.hooksPath) itself. revtrail
 * writes its scripts and adds its entries to the team's YAML config in place (manager-config.ts:
 * every byte of the team's kept), for commit-msg and pre-push only unless the record-keeping
 * hooks are asked for (each is one more manager launch per commit). uninstall gives the config
 * and git's hook files back as install found them (the install record).
 * simple-git-hooks' config in package.json is JSON, edited as text (package-json.ts): each hook's
 * command gains revtrail's script, and simple-git-hooks is run to write the hooks. Nothing here
 * touches core.hooksPath.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { dirname, join, resolve } from 'node:path';
import { run, gitPath } from '../core/git/commands.js';
import { findRepo } from '../core/git/repo.js';
import { RevtrailError } from '../core/errors.js';
import { HOOKS, hookBlock, locateCli, pnpmBuilds, type HookName } from './install.js';
import { packageFile } from './script.js';
import { hookRecord } from '../hooks/registry.js';
import { installMessages as im, managerMessages as m } from '../messages/install.js';
import { addLefthook, addPreCommit, ConfigShapeError, removeLefthook, removePreCommit } from './manager-config.js';
import { readInstallRecord, writeInstallRecord } from './record.js';
import { detectPackageManager } from './package-manager.js';
import { removeAllowBuilds, removeNpmAllowScripts, WORKSPACE_FILE } from './pnpm-builds.js';
import { LEFTHOOK_FILES, PRE_COMMIT_FILES, simpleGitHooksConfig } from './existing.js';
import { addScript, readPackage, removeScript, replaceScript } from './package-json.js';
import { execFile } from 'node:child_process';

export type Manager = 'lefthook' | 'pre-commit' | 'simple-git-hooks';

/** Where each manager looks for its config, in its own order of preference. */
const CONFIGS: Record<Manager, readonly string[]> = {
  lefthook: LEFTHOOK_FILES,
  'pre-commit': PRE_COMMIT_FILES,
  'simple-git-hooks': ['package.json'],
};

/** The package.json section simple-git-hooks reads its config from. */
const SGH_SECTION = 'simple-git-hooks';

/**
 * The git hooks pre-commit can install and run (its clientlib HOOK_TYPES): a hook outside them
 * would make pre-commit reject the whole config, so revtrail's other hooks are left out there.
 * lefthook runs any git hook.
 */
const PRE_COMMIT_HOOK_TYPES = new Set([
  'commit-msg',
  'post-checkout',
  'post-commit',
  'post-merge',
  'post-rewrite',
  'pre-commit',
  'pre-merge-commit',
  'pre-push',
  'pre-rebase',
  'prepare-commit-msg',
]);

/** The hooks that review: all a manager runs unless the record-keeping ones are asked for. */
export const REVIEW_HOOKS: readonly HookName[] = ['commit-msg', 'pre-push'];

/**
 * revtrail's hooks that `manager` runs. lefthook and pre-commit run commit-msg and pre-push
 * only, unless `record` asks for the hooks that keep the record through amends, rebases and
 * squashes: each is one more manager launch on every commit, --no-verify ones too (docs/hooks.md,
 * "Other hook managers"). Under pre-commit prepare-commit-msg stays out even then: pre-commit's
 * "configuration is unstaged" check would abort a --no-verify commit there.
 */
export function managerHooks(manager: Manager, options: { record?: boolean } = {}): readonly HookName[] {
  if (manager === 'simple-git-hooks') return HOOKS;
  if (!options.record) return REVIEW_HOOKS;
  return manager === 'pre-commit'
    ? HOOKS.filter((h) => PRE_COMMIT_HOOK_TYPES.has(h) && h !== 'prepare-commit-msg')
    : HOOKS;
}

/** The script of `hook` for `manager`, relative to the top level. */
export function scriptPath(manager: Manager, hook: HookName): string {
  // lefthook runs .lefthook/<hook>/<script> itself (its "scripts", with the hook's arguments).
  return manager === 'lefthook' ? `.lefthook/${hook}/revtrail` : `.revtrail-hooks/${hook}`;
}

/**
 * What simple-git-hooks runs for revtrail at `hook` (its command goes inline into the hook
 * script, so "$@" is git's arguments). A clone without the script (an older checkout, after
 * uninstall) runs nothing rather than failing every commit.
 */
export function sghCommand(hook: HookName): string {
  const file = scriptPath('simple-git-hooks', hook);
  return `{ test ! -f ${file} || sh ${file} "$@"; }`;
}

/**
 * The team's command for `hook` with revtrail's added: after it (its check sees the message
 * before revtrail adds trailers), or first for a hook reading stdin (revtrail's script reads it).
 */
export function sghJoined(hook: HookName, team: string | null): string {
  const ours = sghCommand(hook);
  if (!team) return ours;
  return hookRecord(hook)?.stdin ? `${ours} && ${team}` : `${team} && ${ours}`;
}

/** The team's command without revtrail's: null when revtrail's was all of it; the same text when revtrail's is not in it. */
export function sghWithout(hook: HookName, joined: string): string | null {
  const ours = sghCommand(hook);
  if (joined === ours) return null;
  if (joined.startsWith(`${ours} && `)) return joined.slice(ours.length + 4);
  if (joined.endsWith(` && ${ours}`)) return joined.slice(0, -(ours.length + 4));
  return joined;
}

/**
 * pre-commit hands its hooks neither git's arguments nor its stdin: it reads them itself and
 * passes what it understood as PRE_COMMIT_* variables. These lines give revtrail's scripts back
 * what git gave (for pre-push: the one ref pre-commit picked, rebuilt as git's ref line).
 */
const PRE_COMMIT_PRELUDE: Partial<Record<HookName, string>> = {
  'prepare-commit-msg':
    'set -- "$1" ${PRE_COMMIT_COMMIT_MSG_SOURCE:+"$PRE_COMMIT_COMMIT_MSG_SOURCE"} ${PRE_COMMIT_COMMIT_OBJECT_NAME:+"$PRE_COMMIT_COMMIT_OBJECT_NAME"}',
  'pre-push': [
    'if [ -n "${PRE_COMMIT_REMOTE_NAME-}" ]; then',
    '  revtrail_to=${PRE_COMMIT_TO_REF:-$(git rev-parse --verify -q "${PRE_COMMIT_LOCAL_BRANCH:-HEAD}^{commit}")}',
    '  revtrail_from=${PRE_COMMIT_FROM_REF:-$(printf %s "$revtrail_to" | tr 0-9a-f 0)}',
    '  set -- "$PRE_COMMIT_REMOTE_NAME" "${PRE_COMMIT_REMOTE_URL-}"',
    '  exec <<revtrail_pc_end',
    '${PRE_COMMIT_LOCAL_BRANCH:-HEAD} $revtrail_to ${PRE_COMMIT_REMOTE_BRANCH:-HEAD} $revtrail_from',
    'revtrail_pc_end',
    'else',
    '  exec </dev/null',
    'fi',
  ].join('\n'),
  'post-merge': 'set -- "${PRE_COMMIT_IS_SQUASH_MERGE:-0}"',
  'post-rewrite': 'set -- "${PRE_COMMIT_REWRITE_COMMAND-}"\nexec </dev/null',
  'post-checkout': 'set -- "${PRE_COMMIT_FROM_REF-}" "${PRE_COMMIT_TO_REF-}" "${PRE_COMMIT_CHECKOUT_TYPE-}"',
};

export async function managerScript(manager: Manager, hook: HookName, cli: string | null): Promise<string> {
  const block = await hookBlock(hook, cli);
  const prelude = manager === 'pre-commit' ? PRE_COMMIT_PRELUDE[hook] : undefined;
  const where = manager === 'simple-git-hooks' ? 'package.json "simple-git-hooks"' : CONFIGS[manager][0];
  const head = `#!/bin/sh\n# revtrail's ${hook} hook, run by ${manager} (${where}). Written by revtrail install --${manager}.\n`;
  return prelude ? `${head}${prelude}\n${block}` : `${head}${block}`;
}

/** Whether the pre-commit on PATH is one that knows only the old stage names (null: none found). */
export async function preCommitOldStages(cwd: string): Promise<boolean> {
  const version = await new Promise<string | null>((done) =>
    execFile('pre-commit', ['--version'], { cwd, timeout: 20_000 }, (error, stdout) => done(error ? null : stdout)),
  );
  const m = /(\d+)\.(\d+)/.exec(version ?? '');
  return m !== null && (Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 2));
}

/** simple-git-hooks' entries, printed for a config file of its own that revtrail does not edit (a .js one). */
export function sghConfig(): string {
  const entries = managerHooks('simple-git-hooks').map(
    (hook) => `  ${JSON.stringify(hook)}: ${JSON.stringify(sghCommand(hook))}`,
  );
  return `{\n${entries.join(',\n')}\n}\n`;
}

export interface ManagerReport {
  top: string;
  manager: Manager;
  actions: string[];
  notes: string[];
  cli: string | null;
}

/** The config file `manager` reads in `top` (the first of its names that exists), or its first name. */
export function managerConfigFile(top: string, manager: Manager): { file: string; exists: boolean } {
  const found = CONFIGS[manager].find((c) => existsSync(join(top, c)));
  return { file: found ?? CONFIGS[manager][0]!, exists: found !== undefined };
}

/** The manager's own hook file in git's hooks folder, as base64 (null: none). */
async function gitHookSnapshot(top: string, hook: string): Promise<string | null> {
  const dir = await run(gitPath('hooks'), { cwd: top });
  try {
    return (await readFile(resolve(top, dir, hook))).toString('base64');
  } catch {
    return null;
  }
}

export async function installManager(
  cwd: string,
  manager: Manager,
  options: { record?: boolean } = {},
): Promise<ManagerReport> {
  const repo = await findRepo(cwd);
  const { top } = repo;
  const cli = locateCli(repo);
  const actions: string[] = [];
  const notes: string[] = [];
  const hooks = managerHooks(manager, options);
  for (const hook of hooks) {
    const rel = scriptPath(manager, hook);
    const file = join(top, rel);
    const text = await managerScript(manager, hook, cli);
    const before = existsSync(file) ? await readFile(file, 'utf8') : null;
    if (before !== null && !before.includes('# >>> revtrail >>>'))
      throw new RevtrailError(m.notOurs(rel), { exitCode: 2, remedy: m.notOursRemedy });
    if (before === text) {
      actions.push(m.unchanged(rel));
      continue;
    }
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, text, { mode: 0o755 });
    await chmod(file, 0o755);
    actions.push(before === null ? m.created(rel) : m.updated(rel));
  }
  if (manager === 'simple-git-hooks') {
    const existing = simpleGitHooksConfig(top);
    await sghConfigure(top, existing, actions, notes);
    await managerPnpmBuilds(top, cli, { actions, notes });
    notes.push(cli ? m.cliAt(cli) : m.cliFallback);
    notes.push(m.commitThem(['.revtrail-hooks/', existing ?? 'package.json']));
    return { top, manager, actions, notes, cli };
  }
  const { file, exists } = managerConfigFile(top, manager);
  const before = exists ? await readFile(join(top, file), 'utf8') : null;
  const managed = hooks.map((hook) => ({
    hook,
    stdin: hookRecord(hook)?.stdin === true,
    script: scriptPath(manager, hook),
  }));
  let after: string;
  try {
    after =
      manager === 'lefthook'
        ? addLefthook(before ?? '', managed)
        : addPreCommit(before ?? '', managed, await preCommitOldStages(top));
  } catch (error) {
    if (!(error instanceof ConfigShapeError)) throw error;
    throw new RevtrailError(m.configUnreadable(file, error.message), { exitCode: 2, remedy: m.configUnreadableRemedy });
  }
  const { commonDir } = repo;
  const record = await readInstallRecord(commonDir);
  const previous = record.managers?.[top];
  if (after !== before) {
    await writeFileAtomic(join(top, file), after);
    actions.push(before === null ? m.created(file) : m.configEdited(file, hooks));
  } else actions.push(m.configNamesUs(file));
  const gitHooks: Record<string, string | null> = { ...previous?.gitHooks };
  for (const hook of hooks) if (!(hook in gitHooks)) gitHooks[hook] = await gitHookSnapshot(top, hook);
  record.managers = {
    ...record.managers,
    [top]: {
      manager,
      config: file,
      // A second install keeps what the first one found.
      before: previous && previous.config === file ? previous.before : before,
      after,
      gitHooks,
    },
  };
  await writeInstallRecord(commonDir, record);
  await managerPnpmBuilds(top, cli, { actions, notes });
  notes.push(cli ? m.cliAt(cli) : m.cliFallback);
  if (!options.record) notes.push(m.recordHooksLeftOut(manager));
  else
    notes.push(
      m.recordHooksCost(
        manager,
        hooks.filter((h) => !REVIEW_HOOKS.includes(h)),
      ),
    );
  notes.push(manager === 'lefthook' ? m.lefthookNext : m.preCommitNext);
  notes.push(m.commitThem([manager === 'lefthook' ? '.lefthook/' : '.revtrail-hooks/', file]));
  return { top, manager, actions, notes, cli };
}

/** The pnpm step of install (pnpm-builds.ts) for a manager's project too: it needs revtrail installed as much. */
async function managerPnpmBuilds(top: string, cli: string | null, out: { actions: string[]; notes: string[] }) {
  const pkg = packageFile(top, cli, existsSync);
  if (pkg) await pnpmBuilds(top, pkg, out);
}

/**
 * revtrail's commands into simple-git-hooks' config in package.json (each hook's command kept,
 * revtrail's joined to it), then simple-git-hooks run so the hooks are written now; another
 * config file (a .js one) gets the entries printed instead.
 */
async function sghConfigure(top: string, existing: string | null, actions: string[], notes: string[]): Promise<void> {
  if (existing !== null && existing !== 'package.json') {
    notes.push(m.addToConfig(existing, sghConfig()));
    return;
  }
  const file = join(top, 'package.json');
  const pkg = await readPackage(file);
  if (!pkg) throw new RevtrailError(m.noPackageJson, { exitCode: 2, remedy: m.noPackageJsonRemedy });
  const config = (pkg.json[SGH_SECTION] ?? {}) as Record<string, unknown>;
  let changed = false;
  for (const hook of managerHooks('simple-git-hooks')) {
    const team = typeof config[hook] === 'string' ? (config[hook] as string) : null;
    if (team !== null && sghWithout(hook, team) !== team) continue; // revtrail's is in it
    if (team === null) await addScript(file, hook, sghJoined(hook, null), SGH_SECTION);
    else await replaceScript(file, hook, team, { value: sghJoined(hook, team) }, SGH_SECTION);
    changed = true;
  }
  actions.push(changed ? m.sghConfigured : m.configNamesUs('package.json "simple-git-hooks"'));
  await runSimpleGitHooks(top, actions, notes);
}

/** simple-git-hooks writes the hooks from its config; where it is not installed, how to run it. */
async function runSimpleGitHooks(
  top: string,
  actions: string[],
  notes: string[],
  options: { uninstalled?: boolean } = {},
): Promise<void> {
  const bin = join(top, 'node_modules', '.bin', 'simple-git-hooks');
  if (!existsSync(bin)) {
    notes.push(m.sghNext);
    return;
  }
  const failed = await new Promise<string | null>((done) =>
    execFile(bin, [], { cwd: top, timeout: 60_000 }, (error, stdout, stderr) =>
      // Its CLI exits 0 on a bad config too, saying [ERROR] on stdout.
      done(error || stdout.includes('[ERROR]') ? (`${stderr}${stdout}`.trim().split('\n').at(-1) ?? 'failed') : null),
    ),
  );
  if (failed === null) actions.push(options.uninstalled ? m.sghRanWithout : m.sghRan);
  else notes.push(m.sghFailed(failed));
}

/**
 * Removes revtrail's scripts and entries: the config as install found it when nobody edited it
 * since (the install record), else revtrail's entries cut out; git's hook files the manager
 * added for revtrail's hooks as they were; the install-script entries install added.
 */
export async function uninstallManager(cwd: string, manager: Manager): Promise<{ top: string; actions: string[] }> {
  const { top, commonDir } = await findRepo(cwd);
  const actions: string[] = [];
  if (manager === 'simple-git-hooks' && simpleGitHooksConfig(top) === 'package.json') {
    const file = join(top, 'package.json');
    const config = ((await readPackage(file))?.json[SGH_SECTION] ?? {}) as Record<string, unknown>;
    for (const [hook, value] of Object.entries(config)) {
      if (typeof value !== 'string') continue;
      const team = sghWithout(hook, value);
      if (team === value) continue;
      if (team === null) await removeScript(file, hook, value, false, SGH_SECTION);
      else await replaceScript(file, hook, value, { value: team }, SGH_SECTION);
    }
    actions.push(m.sghUnconfigured);
  }
  for (const hook of HOOKS) {
    const rel = scriptPath(manager, hook);
    const file = join(top, rel);
    if (!existsSync(file) || !(await readFile(file, 'utf8')).includes('# >>> revtrail >>>')) continue;
    await rm(file);
    await rmdir(dirname(file)).catch(() => undefined); // only when empty
    actions.push(m.removed(rel));
  }
  if (manager === 'lefthook') await rmdir(join(top, '.lefthook')).catch(() => undefined);
  else await rmdir(join(top, '.revtrail-hooks')).catch(() => undefined);
  if (manager === 'simple-git-hooks') {
    const notes: string[] = [];
    await runSimpleGitHooks(top, actions, notes, { uninstalled: true });
    actions.push(...notes);
    await removeInstallScriptEntries(top, actions);
    return { top, actions };
  }
  const record = await readInstallRecord(commonDir);
  const entry = record.managers?.[top];
  const { file, exists } = managerConfigFile(top, manager);
  const now = exists ? await readFile(join(top, file), 'utf8') : null;
  if (entry && entry.manager === manager && entry.config === file && now === entry.after) {
    if (entry.before === null) {
      await rm(join(top, file));
      actions.push(m.removed(file));
    } else {
      await writeFileAtomic(join(top, file), entry.before);
      actions.push(m.configRestored(file));
    }
  } else if (now !== null) {
    let without: string | null = null;
    try {
      without = manager === 'lefthook' ? removeLefthook(now) : removePreCommit(now, HOOKS);
    } catch {
      // unreadable: left as it is, said below
    }
    if (without !== null) {
      await writeFileAtomic(join(top, file), without);
      actions.push(m.configEntriesRemoved(file));
    } else if (/revtrail/.test(now)) actions.push(m.configLeft(file));
  }
  if (entry && entry.manager === manager) {
    const dir = resolve(top, await run(gitPath('hooks'), { cwd: top }));
    for (const [hook, was] of Object.entries(entry.gitHooks)) {
      const path = join(dir, hook);
      let current: Buffer | null = null;
      try {
        current = await readFile(path);
      } catch {
        // none now
      }
      const before = was === null ? null : Buffer.from(was, 'base64');
      if (current === null || (before !== null && current.equals(before))) continue;
      // Only a file of the manager's own (its install wrote it for revtrail's entry) is given back.
      if (!current.toString('utf8').includes(manager)) continue;
      if (before === null) await rm(path);
      else await writeFileAtomic(path, before, { mode: 0o755 });
      actions.push(m.gitHookRestored(hook, before === null));
    }
    delete record.managers![top];
    await writeInstallRecord(commonDir, record);
  }
  await removeInstallScriptEntries(top, actions);
  return { top, actions };
}

/**
 * The manager revtrail was installed into here, so that plain `revtrail uninstall` takes the
 * manager's route: the install record's, else the scripts a clone has (a teammate's, no record).
 */
export async function installedManager(cwd: string): Promise<Manager | null> {
  const { top, commonDir } = await findRepo(cwd);
  const recorded = (await readInstallRecord(commonDir)).managers?.[top]?.manager;
  if (recorded === 'lefthook' || recorded === 'pre-commit') return recorded;
  if (existsSync(join(top, scriptPath('lefthook', 'commit-msg')))) return 'lefthook';
  const script = join(top, scriptPath('pre-commit', 'commit-msg'));
  if (!existsSync(script)) return null;
  return (await readFile(script, 'utf8')).includes('run by simple-git-hooks') ? 'simple-git-hooks' : 'pre-commit';
}

/** The install-script decisions install wrote for revtrail's dependencies (pnpm-builds.ts), as uninstall does under husky. */
async function removeInstallScriptEntries(top: string, actions: string[]): Promise<void> {
  const pkgRel = packageFile(top, null, existsSync);
  if (!pkgRel) return;
  const detected = detectPackageManager(dirname(join(top, pkgRel)), top);
  if (detected.pm === 'pnpm' && (await removeAllowBuilds(detected.root ?? dirname(join(top, pkgRel)))))
    actions.push(im.pnpmBuildsRemoved(WORKSPACE_FILE));
  if (detected.pm === 'npm' && (await removeNpmAllowScripts(join(top, pkgRel)).catch(() => false)))
    actions.push(im.npmAllowScriptsRemoved(pkgRel));
}
