/**
 * `revtrail install` (docs/hooks.md) on top of husky's own installer: husky sets core.hooksPath to
 * .husky/_ and writes its runner there; revtrail then writes .husky/<hook> for each of HOOKS
 * from hooks/ (or adds its marked block to a user's existing hook).
 */
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { contains, toPosix } from '../core/fs/path.js';
import { findRepo, type Repo } from '../core/git/repo.js';
import { run, scopedConfigValue, worktreeList } from '../core/git/commands.js';
import { packageRoot } from '../core/package-root.js';
import { RevtrailError } from '../core/errors.js';
import { readRegularFile } from '../core/fs/read.js';
import { findBlock, insertBlock, replaceBlock, shQuote } from './block.js';
import { packageFile, planScript } from './script.js';
import { readInstallRecord, writeInstallRecord, type WorktreeRecord } from './record.js';
import { installMessages as m } from '../messages/install.js';
import { CLIENT_HOOKS, hookRecord } from '../hooks/registry.js';
import { hookFiles, readHookSetup, type HookSetup } from './existing.js';
import { chainBlock, hooksToChain, withChain } from './chain.js';
import { detectPackageManager } from './package-manager.js';
import { addNpmAllowScripts, dependsOnRevtrail, pnpmBuildsStep, WORKSPACE_FILE } from './pnpm-builds.js';
import husky from 'husky';

/** The most of an existing hook file read before revtrail's block goes in. */
const MAX_HOOK_BYTES = 1024 * 1024;

// The client hooks of the registry (lib/hooks/hook/): commit-msg and pre-push review; the
// others keep the record through amends, rebases and merges (docs/record.md), or set the hooks
// up in a worktree added later (docs/hooks.md).
export const HOOKS: readonly string[] = CLIENT_HOOKS.map((r) => r.name);
export type HookName = string;
/** Where revtrail's block goes into a user's own hook file: a hook reading stdin first (the block replays it), the rest after the user's lines. */
const placement = (name: HookName): 'top' | 'end' => (hookRecord(name)?.stdin ? 'top' : 'end');
export const HUSKY_DIR = '.husky';
export const HUSKY_PATH = '.husky/_';
const DEFAULT_CLI = 'node_modules/.bin/revtrail';

export interface InstallReport {
  top: string;
  actions: string[];
  notes: string[];
  /** Path of the CLI the hooks call first (relative to the top level), or null: PATH only. */
  cli: string | null;
  /** HUSKY=0: nothing was installed. */
  skipped?: boolean;
}

/**
 * The hook script `name` as installed: its template (its record's, else the generic
 * hooks/hook), its name put in for @REVTRAIL_HOOK@, the shared CLI lookup
 * (hooks/find-cli.sh, after its note) put in at the template's @REVTRAIL_FIND_CLI@ line, indented
 * as that line is, and the install's CLI path filled in.
 */
export async function hookBlock(name: HookName, cli: string | null): Promise<string> {
  const [template, findCli] = await Promise.all([
    readFile(join(packageRoot(), 'hooks', hookRecord(name)?.script ?? 'hook'), 'utf8'),
    readFile(join(packageRoot(), 'hooks', 'find-cli.sh'), 'utf8'),
  ]);
  const lookup = findCli
    .slice(findCli.indexOf('\n\n') + 2)
    .replace(/\n$/, '')
    .split('\n');
  const script = template.replace(/^([ \t]*)@REVTRAIL_FIND_CLI@$/m, (_, indent: string) =>
    lookup.map((line) => (line ? indent + line : line)).join('\n'),
  );
  // The top-level install is tried anyway; naming it twice would only read oddly.
  return script
    .replace('@REVTRAIL_BIN@', shQuote(cli && cli !== DEFAULT_CLI ? cli : ''))
    .replaceAll('@REVTRAIL_HOOK@', name);
}

export interface HooksPathSetting {
  value: string;
  scope: string;
}

export async function readHooksPath(top: string): Promise<HooksPathSetting | null> {
  const out = await run(scopedConfigValue('core.hooksPath'), { cwd: top });
  if (out === null) return null;
  const line = out.replace(/\n$/, '');
  const tab = line.indexOf('\t');
  return tab === -1 ? { value: line, scope: 'local' } : { value: line.slice(tab + 1), scope: line.slice(0, tab) };
}

/** .husky/_ (husky 9) or .husky (husky 8), relative or as this work tree's absolute path. */
export function isHuskyPath(value: string, top: string): boolean {
  const v = value.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '');
  if (v === HUSKY_PATH || v === HUSKY_DIR) return true;
  if (!isAbsolute(value)) return false;
  const abs = resolve(value);
  return abs === join(top, HUSKY_DIR, '_') || abs === join(top, HUSKY_DIR);
}

/**
 * The revtrail CLI install the hooks should call, relative to the top level: the package this
 * code runs from when it sits in a node_modules inside the work tree, else the nearest
 * node_modules/.bin/revtrail from the current folder up, else one in a first-level subfolder.
 */
export function locateCli(repo: Repo): string | null {
  const candidates: string[] = [];
  try {
    const root = packageRoot();
    const modules = root.split(sep).lastIndexOf('node_modules');
    if (modules !== -1)
      candidates.push(
        join(
          root
            .split(sep)
            .slice(0, modules + 1)
            .join(sep),
          '.bin',
          'revtrail',
        ),
      );
  } catch {
    // not running from an installed package
  }
  for (let dir = resolve(repo.cwd); contains(repo.top, dir); dir = dirname(dir)) {
    candidates.push(join(dir, 'node_modules', '.bin', 'revtrail'));
    if (dir === repo.top) break;
  }
  try {
    for (const entry of readdirSync(repo.top, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') {
        candidates.push(join(repo.top, entry.name, 'node_modules', '.bin', 'revtrail'));
      }
    }
  } catch {
    // unreadable top level: no subfolder candidates
  }
  const found = candidates.find((c) => contains(repo.top, c) && existsSync(c));
  return found ? toPosix(relative(repo.top, found)) : null;
}

export async function runHusky(top: string): Promise<string> {
  const before = process.cwd();
  // husky works on the current folder and needs .git in it (a file in a linked worktree).
  process.chdir(top);
  try {
    return husky(HUSKY_DIR);
  } finally {
    process.chdir(before);
  }
}

/**
 * A hook file's bytes, or null when there is none. Only a regular file, within the hook size cap
 * (a committed hook that is a FIFO or a link to /dev/zero is an error, not a hang).
 */
function readHookFile(file: string): Buffer | null {
  try {
    return readRegularFile(file, { maxBytes: MAX_HOOK_BYTES }).bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return null;
  }
}

async function writeHook(
  top: string,
  name: HookName,
  block: string,
): Promise<{ action: string; kind: 'created' | 'block' | null; modeBefore?: number }> {
  const rel = `${HUSKY_DIR}/${name}`;
  const file = join(top, HUSKY_DIR, name);
  const text = readHookFile(file)?.toString('utf8') ?? null;
  if (text === null) {
    await mkdir(join(top, HUSKY_DIR), { recursive: true });
    await writeFileAtomic(file, block, { mode: 0o755 });
    return { action: m.hookCreated(rel), kind: 'created' };
  }
  if (findBlock(text)) {
    const next = replaceBlock(text, block)!;
    if (next === text) return { action: m.hookUnchanged(rel), kind: null };
    await writeFileAtomic(file, next);
    return { action: m.hookBlockUpdated(rel), kind: null };
  }
  await writeFileAtomic(file, insertBlock(text, block, placement(name)));
  // husky runs hooks with `sh -e FILE`, but a user may run them directly too.
  const mode = (await stat(file)).mode & 0o7777;
  if (!(mode & 0o100)) {
    await chmod(file, mode | 0o755);
    return { action: m.hookBlockAdded(rel), kind: 'block', modeBefore: mode };
  }
  return { action: m.hookBlockAdded(rel), kind: 'block' };
}

/**
 * `install --repair`, before husky writes its runner again: a runner stub another tool replaced
 * goes to .git/hooks, where git ran hooks before husky, so the chain keeps it running. One that
 * simple-git-hooks wrote comes back on its next run: that needs the simple-git-hooks route.
 */
async function moveReplacedRunners(top: string, commonDir: string, actions: string[]): Promise<void> {
  for (const stub of hookFiles(join(top, HUSKY_PATH)).filter((h) => h.owner !== 'husky')) {
    if (stub.owner === 'simple-git-hooks')
      throw new RevtrailError(m.repairSimpleGitHooks(`${HUSKY_PATH}/${stub.hook}`), {
        exitCode: 1,
        remedy: m.repairSimpleGitHooksRemedy,
      });
    const text = readRegularFile(stub.file, { maxBytes: MAX_HOOK_BYTES }).bytes;
    const target = join(commonDir, 'hooks', stub.hook);
    const there = readHookFile(target);
    if (there && !there.equals(text))
      throw new RevtrailError(m.repairBoth(`${HUSKY_PATH}/${stub.hook}`, `.git/hooks/${stub.hook}`), {
        exitCode: 1,
        remedy: m.repairBothRemedy,
      });
    if (!there) {
      await mkdir(dirname(target), { recursive: true });
      await writeFileAtomic(target, text, { mode: 0o755 });
    }
    actions.push(m.repairMoved(`${HUSKY_PATH}/${stub.hook}`, `.git/hooks/${stub.hook}`));
  }
}

/** Under pnpm, revtrail's unneeded install scripts decided in pnpm-workspace.yaml (./pnpm-builds.ts). */
export async function pnpmBuilds(
  top: string,
  pkgRel: string,
  out: { actions: string[]; notes: string[] },
): Promise<void> {
  if (!dependsOnRevtrail(join(top, pkgRel))) return;
  const detected = detectPackageManager(dirname(join(top, pkgRel)), top);
  if (detected.pm === 'npm') {
    try {
      const added = await addNpmAllowScripts(join(top, pkgRel));
      if (added.length) out.actions.push(m.npmAllowScriptsAdded(pkgRel));
    } catch (error) {
      out.notes.push(m.badPackageJson(pkgRel, (error as Error).message));
    }
    return;
  }
  if (detected.pm !== 'pnpm') return;
  const root = detected.root ?? dirname(join(top, pkgRel));
  const shown = toPosix(relative(top, join(root, WORKSPACE_FILE)));
  await pnpmBuildsStep(root, shown, out, {
    written: m.pnpmBuildsWritten,
    add: m.pnpmBuildsAdd,
    reinstall: m.pnpmReinstall,
  });
}

/** The chain block for `hook` into .husky/<hook> (created when there is none). */
async function writeChain(top: string, setup: HookSetup, hook: string): Promise<{ action: string; created: boolean }> {
  const rel = `${HUSKY_DIR}/${hook}`;
  const file = join(top, HUSKY_DIR, hook);
  const text = readHookFile(file)?.toString('utf8') ?? null;
  const next = withChain(text ?? '', chainBlock(setup, hook), placement(hook));
  if (next === text) return { action: m.chainUnchanged(rel), created: false };
  await mkdir(join(top, HUSKY_DIR), { recursive: true });
  await writeFileAtomic(file, next, text === null ? { mode: 0o755 } : undefined);
  return { action: m.chained(rel, `${setup.shown}/${hook}`), created: text === null };
}

export async function install(
  cwd: string,
  options: { force?: boolean; appendPrepare?: boolean; repair?: boolean } = {},
): Promise<InstallReport> {
  const repo = await findRepo(cwd);
  const { top, commonDir } = repo;
  const actions: string[] = [];
  const notes: string[] = [];

  const current = await readHooksPath(top);
  // The hooks git runs now; where husky's folder is that already, .git/hooks, which git ran
  // before it and whose hooks a chain keeps running (docs/hooks.md, "Hooks already there").
  const huskyAlready = current !== null && isHuskyPath(current.value, top);
  const setup: HookSetup = readHookSetup(top, commonDir, huskyAlready ? null : current);
  if (!huskyAlready && setup.managers.length && !options.force) {
    const [first] = setup.managers;
    throw new RevtrailError(m.managerFound(first!.manager, first!.evidence), {
      exitCode: 1,
      remedy:
        setup.managers.length > 1
          ? m.managersFoundRemedy(setup.managers.map((x) => x.manager))
          : m.managerFoundRemedy(first!.manager),
    });
  }
  if (current && !isHuskyPath(current.value, top) && !options.force) {
    throw new RevtrailError(m.hooksPathElsewhere(current.value, current.scope), {
      exitCode: 1,
      remedy: m.hooksPathRemedy,
    });
  }
  if (process.env.HUSKY === '0')
    return { top, actions: [], notes: [m.huskySkipped, m.huskySkippedRemedy], cli: null, skipped: true };

  if (options.repair && huskyAlready) await moveReplacedRunners(top, commonDir, actions);
  const huskyDirExisted = existsSync(join(top, HUSKY_DIR, '_'));
  const said = await runHusky(top);
  if (said) throw new RevtrailError(m.huskyFailed(said.trim()), { exitCode: 2, remedy: m.huskyFailedRemedy });
  const changedHooksPath = !current || current.value !== HUSKY_PATH || current.scope !== 'local';
  actions.push(changedHooksPath ? m.hooksPathSet(HUSKY_PATH) : m.hooksPathKept(HUSKY_PATH));

  const cli = locateCli(repo);
  const record = await readInstallRecord(commonDir);
  const previous: WorktreeRecord | undefined = record.worktrees[top];
  const entry: WorktreeRecord = previous ?? { hooks: {}, huskyDirCreated: !huskyDirExisted, prepareAdded: null };
  if (changedHooksPath && record.hooksPath === null) {
    // Restore the local value on uninstall; a global or system value applies again by itself.
    record.hooksPath = { previous: current && current.scope === 'local' ? current : null };
  }

  for (const name of HOOKS) {
    const { action, kind, modeBefore } = await writeHook(top, name, await hookBlock(name, cli));
    actions.push(action);
    if (kind) entry.hooks[name] = kind;
    if (modeBefore !== undefined) entry.modes = { ...entry.modes, [name]: modeBefore };
  }
  const chained: string[] = [];
  // After a repair, .git/hooks holds what was in husky's folder: read it again.
  const chainFrom = options.repair ? readHookSetup(top, commonDir, null) : setup;
  for (const previous of hooksToChain(chainFrom)) {
    const { action, created } = await writeChain(top, chainFrom, previous.hook);
    actions.push(action);
    if (!HOOKS.includes(previous.hook)) chained.push(previous.hook);
    if (created) entry.hooks[previous.hook] = 'created';
  }

  const pkgRel = packageFile(top, cli, existsSync);
  if (pkgRel) {
    try {
      const plan = await planScript(top, pkgRel, {
        append: options.appendPrepare ?? false,
        previous: entry.prepareAdded,
      });
      entry.prepareAdded = plan.record;
      actions.push(...plan.actions);
      notes.push(...plan.notes);
    } catch (error) {
      notes.push(m.badPackageJson(pkgRel, (error as Error).message));
    }
    await pnpmBuilds(top, pkgRel, { actions, notes });
  }

  record.worktrees[top] = entry;
  await writeInstallRecord(commonDir, record);

  // A repository with no package.json (a Python or Go team's) has no devDependencies to add revtrail to (docs/hooks.md, "Repositories that are not Node projects").
  notes.push(cli ? m.cliAt(cli) : pkgRel ? m.cliFallback : m.cliOnPath);
  if (!pkgRel) notes.push(m.noPackageJson);
  if (repo.gitDir !== commonDir || (await hasOtherWorktrees(top))) notes.push(m.otherWorktrees);
  notes.push(
    m.commitThem(
      [...HOOKS, ...chained].map((h) => `${HUSKY_DIR}/${h}`),
      pkgRel,
    ),
    m.undo,
  );
  return { top, actions, notes, cli };
}

async function hasOtherWorktrees(top: string): Promise<boolean> {
  return (await run(worktreeList, { cwd: top })).length > 1;
}
