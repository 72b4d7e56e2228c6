/**
 * `revtrail install --lefthook` / `--pre-commit` (docs/hooks.md, "Other hook managers"): revtrail's
 * hook scripts, the same ones husky runs, set up inside a hook manager the team already uses,
 * which owns .git/hooks (or core.hooksPath) itself. revtrail writes its scripts and, where the
 * team has no config for that manager yet, the config; an existing config is never edited (it is
 * the team's YAML): install prints the entries to add. Nothing here touches core.hooksPath.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { dirname, join } from 'node:path';
import { findRepo } from '../core/git/repo.js';
import { RevtrailError } from '../core/errors.js';
import { HOOKS, hookBlock, locateCli, type HookName } from './install.js';
import { hookRecord } from '../hooks/registry.js';
import { managerMessages as m } from '../messages/install.js';

export type Manager = 'lefthook' | 'pre-commit';

/** Where each manager looks for its config, in its own order of preference. */
const CONFIGS: Record<Manager, readonly string[]> = {
  lefthook: [
    'lefthook.yml',
    '.lefthook.yml',
    'lefthook.yaml',
    '.lefthook.yaml',
    '.config/lefthook.yml',
    '.config/lefthook.yaml',
    'lefthook.toml',
    'lefthook.json',
  ],
  'pre-commit': ['.pre-commit-config.yaml', '.pre-commit-config.yml'],
};

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
  const head = `#!/bin/sh\n# revtrail's ${hook} hook, run by ${manager} (${CONFIGS[manager][0]}). Written by revtrail install --${manager}.\n`;
  return prelude ? `${head}${prelude}\n${block}` : `${head}${block}`;
}

/** The config entries that run revtrail's scripts. */
export function managerConfig(manager: Manager): string {
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
  const lines = [
    '# revtrail: reviews commits and pushes and keeps the record (revtrail install --pre-commit; docs/hooks.md in revtrail)',
    `default_install_hook_types: [pre-commit, ${managerHooks('pre-commit').join(', ')}]`,
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
      `        stages: [${hook}]`,
      '        always_run: true',
      `        pass_filenames: ${fileArg ? 'true' : 'false'}`,
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
  const config = managerConfig(manager);
  const existing = CONFIGS[manager].find((c) => existsSync(join(top, c)));
  if (!existing) {
    await writeFileAtomic(join(top, CONFIGS[manager][0]!), config);
    actions.push(m.created(CONFIGS[manager][0]!));
  } else {
    const text = await readFile(join(top, existing), 'utf8');
    if (text.includes('revtrail')) actions.push(m.configNamesUs(existing));
    else notes.push(m.addToConfig(existing, config));
  }
  notes.push(cli ? m.cliAt(cli) : m.cliFallback);
  notes.push(manager === 'lefthook' ? m.lefthookNext : m.preCommitNext);
  notes.push(
    m.commitThem([manager === 'lefthook' ? '.lefthook/' : '.revtrail-hooks/', existing ?? CONFIGS[manager][0]!]),
  );
  return { top, manager, actions, notes, cli };
}

/** Removes revtrail's scripts, and the config when it is still exactly the one install wrote. */
export async function uninstallManager(cwd: string, manager: Manager): Promise<{ top: string; actions: string[] }> {
  const { top } = await findRepo(cwd);
  const actions: string[] = [];
  for (const hook of HOOKS) {
    const rel = scriptPath(manager, hook);
    const file = join(top, rel);
    if (!existsSync(file) || !(await readFile(file, 'utf8')).includes('# >>> revtrail >>>')) continue;
    await rm(file);
    await rmdir(dirname(file)).catch(() => undefined); // only when empty
    actions.push(m.removed(rel));
  }
  if (manager === 'pre-commit') await rmdir(join(top, '.revtrail-hooks')).catch(() => undefined);
  else await rmdir(join(top, '.lefthook')).catch(() => undefined);
  const config = join(top, CONFIGS[manager][0]!);
  if (existsSync(config) && (await readFile(config, 'utf8')) === managerConfig(manager)) {
    await rm(config);
    actions.push(m.removed(CONFIGS[manager][0]!));
  }
  return { top, actions };
}
