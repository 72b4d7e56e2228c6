/**
 * `revtrail install --lefthook` / `--pre-commit` / `--simple-git-hooks` (docs/hooks.md, "Other
 * hook managers"): revtrail's hook scripts, the same ones husky runs, set up inside a hook
 * manager the team already uses, which owns .git/hooks (or core.hooksPath) itself. revtrail
 * writes its scripts and, where the team has no config for that manager yet, the config; an
 * existing YAML config is never edited (it is the team's): install prints the entries to add.
 * simple-git-hooks' config in package.json is JSON, edited as text (package-json.ts): each hook's
 * command gains revtrail's script, and simple-git-hooks is run to write the hooks. Nothing here
 * touches core.hooksPath.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { dirname, join } from 'node:path';
import { findRepo } from '../core/git/repo.js';
import { RevtrailError } from '../core/errors.js';
import { HOOKS, hookBlock, locateCli, pnpmBuilds, type HookName } from './install.js';
import { packageFile } from './script.js';
import { hookRecord } from '../hooks/registry.js';
import { managerMessages as m } from '../messages/install.js';
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

/** revtrail's hooks that `manager` runs. */
export function managerHooks(manager: Manager): readonly HookName[] {
  return manager === 'pre-commit' ? HOOKS.filter((h) => PRE_COMMIT_HOOK_TYPES.has(h)) : HOOKS;
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

/** The config entries that run revtrail's scripts. */
/** pre-commit before 3.2 (Debian 12 ships 3.0.4) names these stages the old way; later ones take git's names. */
const OLD_STAGES: Record<string, string> = {
  'pre-commit': 'commit',
  'pre-push': 'push',
  'pre-merge-commit': 'merge-commit',
};

/** Whether the pre-commit on PATH is one that knows only the old stage names (null: none found). */
export async function preCommitOldStages(cwd: string): Promise<boolean> {
  const version = await new Promise<string | null>((done) =>
    execFile('pre-commit', ['--version'], { cwd, timeout: 20_000 }, (error, stdout) => done(error ? null : stdout)),
  );
  const m = /(\d+)\.(\d+)/.exec(version ?? '');
  return m !== null && (Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 2));
}

export function managerConfig(manager: Manager, options: { oldStages?: boolean } = {}): string {
  if (manager === 'simple-git-hooks') {
    const entries = managerHooks(manager).map(
      (hook) => `  ${JSON.stringify(hook)}: ${JSON.stringify(sghCommand(hook))}`,
    );
    return `{\n${entries.join(',\n')}\n}\n`;
  }
  if (manager === 'lefthook') {
    const lines = [
      '# revtrail: reviews commits and pushes and keeps the record (revtrail install --lefthook; docs/hooks.md in revtrail)',
    ];
    for (const hook of HOOKS) {
      lines.push(`${hook}:`, '  scripts:', '    "revtrail":', '      runner: sh');
      if (hookRecord(hook)?.stdin) lines.push('      use_stdin: true');
    }
    return `${lines.join('\n')}\n`;
  }
  const stage = (hook: string) => (options.oldStages ? (OLD_STAGES[hook] ?? hook) : hook);
  const lines = [
    '# revtrail: reviews commits and pushes and keeps the record (revtrail install --pre-commit; docs/hooks.md in revtrail)',
    `default_install_hook_types: [pre-commit, ${managerHooks('pre-commit').join(', ')}]`,
    // Without it every hook that names no stages runs at each installed hook type (a formatter at commit-msg).
    `default_stages: [${stage('pre-commit')}]`,
    'repos:',
    '  - repo: local',
    '    hooks:',
  ];
  for (const hook of managerHooks('pre-commit')) {
    const fileArg = hook === 'commit-msg' || hook === 'prepare-commit-msg';
    lines.push(
      `      - id: revtrail-${hook}`,
      `        name: revtrail ${hook}`,
      `        entry: sh ${scriptPath('pre-commit', hook)}`,
      '        language: system', // pre-commit 4.4 calls it unsupported and still takes system; older ones know only system
      `        stages: [${stage(hook)}]`,
      '        always_run: true',
      `        pass_filenames: ${fileArg ? 'true' : 'false'}`,
      '        verbose: true', // pre-commit hides a passing hook's output: the findings would not show
    );
  }
  return `${lines.join('\n')}\n`;
}

export interface ManagerReport {
  top: string;
  manager: Manager;
  actions: string[];
  notes: string[];
  cli: string | null;
}

export async function installManager(cwd: string, manager: Manager): Promise<ManagerReport> {
  const repo = await findRepo(cwd);
  const { top } = repo;
  const cli = locateCli(repo);
  const actions: string[] = [];
  const notes: string[] = [];
  for (const hook of managerHooks(manager)) {
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
  const config = managerConfig(manager, { oldStages: manager === 'pre-commit' && (await preCommitOldStages(top)) });
  const existing = CONFIGS[manager].find((c) => existsSync(join(top, c)));
  if (!existing) {
    await writeFileAtomic(join(top, CONFIGS[manager][0]!), config);
    actions.push(m.created(CONFIGS[manager][0]!));
  } else {
    const text = await readFile(join(top, existing), 'utf8');
    if (text.includes('revtrail')) actions.push(m.configNamesUs(existing));
    else notes.push(m.addToConfig(existing, config));
  }
  await managerPnpmBuilds(top, cli, { actions, notes });
  notes.push(cli ? m.cliAt(cli) : m.cliFallback);
  notes.push(manager === 'lefthook' ? m.lefthookNext : m.preCommitNext);
  notes.push(
    m.commitThem([manager === 'lefthook' ? '.lefthook/' : '.revtrail-hooks/', existing ?? CONFIGS[manager][0]!]),
  );
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
    notes.push(m.addToConfig(existing, managerConfig('simple-git-hooks')));
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
async function runSimpleGitHooks(top: string, actions: string[], notes: string[]): Promise<void> {
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
  if (failed === null) actions.push(m.sghRan);
  else notes.push(m.sghFailed(failed));
}

/** Removes revtrail's scripts, and the config when it is still exactly the one install wrote. */
export async function uninstallManager(cwd: string, manager: Manager): Promise<{ top: string; actions: string[] }> {
  const { top } = await findRepo(cwd);
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
    await runSimpleGitHooks(top, actions, notes);
    actions.push(...notes);
    return { top, actions };
  }
  const config = join(top, CONFIGS[manager][0]!);
  const written = existsSync(config) ? await readFile(config, 'utf8') : null;
  if (written === managerConfig(manager) || written === managerConfig(manager, { oldStages: true })) {
    await rm(config);
    actions.push(m.removed(CONFIGS[manager][0]!));
  }
  return { top, actions };
}
