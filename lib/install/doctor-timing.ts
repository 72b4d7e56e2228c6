/**
 * `revtrail doctor --timing`: one commit and one push through the hooks this repository runs,
 * each hook's cost split into revtrail's part, the team's own and the hook manager's launch
 * (docs/hooks.md, "Timing the chain"). The commit is a commit of the repository made again over
 * its parent in a scratch worktree, the push goes to a bare remote in the temp folder; both are
 * removed after, and the verdict queue is put back as it was.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import { findRepo } from '../core/git/repo.js';
import {
  addScratchWorktree,
  commitHeadline,
  commitMessage,
  initBare,
  readTreeReset,
  run,
  updateRef,
} from '../core/git/commands.js';
import { readRegularFile } from '../core/fs/read.js';
import { lastReviewFile, queueFile } from '../core/state.js';
import { BLOCK_BEGIN, isBlankScript, removeBlock } from './block.js';
import { hookFiles, LEFTHOOK_FILES, PRE_COMMIT_FILES, type Owner } from './existing.js';
import { readHooksPath } from './install.js';

export type ChainManager = 'husky' | 'lefthook' | 'pre-commit' | 'simple-git-hooks';

const MANAGERS: readonly Owner[] = ['husky', 'lefthook', 'pre-commit', 'simple-git-hooks'];

export interface HookCost {
  hook: string;
  /** The hook as git ran it, median ms. */
  total: number;
  /** What revtrail adds: the hook minus the same hook with REVTRAIL=0 (null: revtrail has no part in this hook). */
  revtrail: number | null;
  /** The manager's launch with nothing to run (null: no manager runs this hook). */
  manager: number | null;
  /** The rest: the team's own commands. */
  team: number;
  /** The hook's exit in the last full run (non-zero: it blocked or failed). */
  exit: number;
  /** The manager runs this hook for revtrail alone: its launch is in revtrail's part, none in the manager's. */
  forRevtrail: boolean;
}

export interface StepCost {
  /** The whole git command, median ms. */
  total: number;
  /** git's own part: the command minus its hooks. */
  git: number;
  /** revtrail's part, summed over the hooks. */
  revtrail: number;
  hooks: HookCost[];
  /** The git command's exit in the last full run. */
  exit: number;
}

export interface TimingReport {
  top: string;
  /** The commit made again, its first parent and its subject. */
  measured: { commit: string; parent: string; subject: string };
  /** The manager git's hook files belong to (null: plain hook scripts). */
  manager: ChainManager | null;
  runs: number;
  commit: StepCost;
  push: StepCost;
}

export class TimingError extends Error {}

type Variant = 'full' | 'team' | 'manager';

interface Run {
  ms: number;
  code: number;
  hooks: Map<string, { ms: number; code: number }>;
}

/** Variables that would switch a hook off, or point git elsewhere, when doctor runs inside a hook. */
const CLEARED = [
  'REVTRAIL',
  'HUSKY',
  'LEFTHOOK',
  'LEFTHOOK_CONFIG',
  'SKIP',
  'SKIP_SIMPLE_GIT_HOOKS',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_TRACE2_EVENT',
  'GIT_TRACE2_PARENT_SID',
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : 0;
};

/** The hooks git ran in one command, from its trace2 events (the top process only: hooks run git too). */
export function hookTimes(events: string): Map<string, { ms: number; code: number }> {
  const started = new Map<number, string>();
  const times = new Map<string, { ms: number; code: number }>();
  for (const line of events.split('\n')) {
    if (!line.startsWith('{')) continue;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof e.sid !== 'string' || e.sid.includes('/')) continue;
    if (e.event === 'child_start' && e.child_class === 'hook') started.set(e.child_id as number, String(e.hook_name));
    else if (e.event === 'child_exit' && started.has(e.child_id as number)) {
      const hook = started.get(e.child_id as number)!;
      const before = times.get(hook);
      times.set(hook, { ms: (before?.ms ?? 0) + (e.t_rel as number) * 1000, code: (e.code as number) ?? 0 });
    }
  }
  return times;
}

function timedGit(args: string[], cwd: string, env: NodeJS.ProcessEnv, trace: string): Promise<Run> {
  rmSync(trace, { force: true });
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn('git', args, { cwd, env: { ...env, GIT_TRACE2_EVENT: trace }, stdio: 'ignore' });
    child.on('error', fail);
    child.on('close', (code, signal) => {
      const ms = performance.now() - start;
      let events = '';
      try {
        events = readFileSync(trace, 'utf8');
      } catch {
        // no trace: git ran no hook
      }
      done({ ms, code: code ?? 128 + (signal ? 1 : 0), hooks: hookTimes(events) });
    });
  });
}

/** The pre-commit framework's hook ids in `top`'s config: SKIP with all of them is the framework's launch alone. */
function preCommitIds(top: string): string[] {
  for (const file of PRE_COMMIT_FILES) {
    try {
      const config = parse(readRegularFile(join(top, file), { maxBytes: 1024 * 1024 }).bytes.toString('utf8')) as {
        repos?: Array<{ hooks?: Array<{ id?: unknown }> }>;
      };
      return (config.repos ?? []).flatMap((r) => (r.hooks ?? []).map((h) => String(h.id)));
    } catch {
      // the next name
    }
  }
  return [];
}

/**
 * The team's chain without revtrail: REVTRAIL=0 skips a block in a team's hook file, and a
 * manager that starts revtrail's script as an entry of its own is told to leave it out too.
 */
function withoutRevtrail(manager: ChainManager | null, scratch: string): NodeJS.ProcessEnv {
  if (manager === 'lefthook') return { REVTRAIL: '0', LEFTHOOK_EXCLUDE: 'revtrail' };
  if (manager === 'pre-commit')
    return {
      REVTRAIL: '0',
      SKIP: preCommitIds(scratch)
        .filter((id) => id.startsWith('revtrail-'))
        .join(','),
    };
  return { REVTRAIL: '0' };
}

/** The environment that leaves the manager nothing to run, on top of REVTRAIL=0. */
function managerOff(manager: ChainManager, scratch: string, temp: string): NodeJS.ProcessEnv {
  if (manager === 'husky') return { HUSKY: '0' };
  if (manager === 'simple-git-hooks') return { SKIP_SIMPLE_GIT_HOOKS: '1' };
  if (manager === 'pre-commit') return { SKIP: preCommitIds(scratch).join(',') };
  // lefthook 1.10 and later read LEFTHOOK_CONFIG: a config with no hook is its launch and config read alone.
  const empty = join(temp, 'lefthook.yml');
  writeFileSync(empty, 'no_auto_install: true\n');
  return { LEFTHOOK_CONFIG: empty };
}

const readText = (file: string): string | null => {
  try {
    return readRegularFile(file, { maxBytes: 1024 * 1024 }).bytes.toString('utf8');
  } catch {
    return null;
  }
};

const holdsBlock = (file: string) => readText(file)?.includes(BLOCK_BEGIN) ?? false;

/**
 * Whether the manager runs `hook` for revtrail alone, so that without revtrail it would start
 * nothing there: husky's `.husky/<hook>` holds only revtrail's block (husky's runner stops at a
 * hook with no file), or lefthook's config names revtrail's script alone under the hook. Its
 * launch there is then revtrail's cost. The pre-commit framework and simple-git-hooks are not
 * read for this (docs/hooks.md, "Timing the chain").
 */
function forRevtrailAlone(manager: ChainManager | null, scratch: string, hook: string): boolean {
  if (manager === 'husky') {
    const rest = removeBlock(readText(join(scratch, '.husky', hook)) ?? '');
    return rest !== null && isBlankScript(rest);
  }
  if (manager !== 'lefthook') return false;
  const file = LEFTHOOK_FILES.filter((f) => /\.ya?ml$/.test(f)).find((f) => existsSync(join(scratch, f)));
  const text = file ? readText(join(scratch, file)) : null;
  if (!text) return false;
  try {
    const section = (parse(text) as Record<string, unknown> | null)?.[hook] as
      | { commands?: object; scripts?: object; jobs?: unknown[] }
      | undefined;
    if (!section || typeof section !== 'object') return false;
    const scripts = Object.keys(section.scripts ?? {});
    return (
      !Object.keys(section.commands ?? {}).length &&
      !(section.jobs ?? []).length &&
      scripts.length === 1 &&
      scripts[0] === 'revtrail'
    );
  } catch {
    return false;
  }
}

/**
 * Whether revtrail takes part in `hook` in the scratch worktree: a block in git's hook file or in
 * husky's `.husky/<hook>`, or revtrail's script for a manager (lefthook's `.lefthook/<hook>/revtrail`,
 * `.revtrail-hooks/<hook>`). Where it has none, the hook's time is the team's and the manager's
 * alone, whatever the runs' noise says.
 */
function revtrailRuns(scratch: string, hooksDir: string, hook: string): boolean {
  return (
    holdsBlock(join(hooksDir, hook)) ||
    holdsBlock(join(scratch, '.husky', hook)) ||
    existsSync(join(scratch, '.lefthook', hook, 'revtrail')) ||
    existsSync(join(scratch, '.revtrail-hooks', hook))
  );
}

/** Files revtrail's hooks may change in the common dir that a throwaway commit must not: put back after. */
function snapshot(files: string[]): () => void {
  const kept = files.map((f) => ({ f, bytes: existsSync(f) ? readFileSync(f) : null }));
  return () => {
    for (const { f, bytes } of kept) {
      if (bytes === null) rmSync(f, { force: true });
      else writeFileSync(f, bytes);
    }
  };
}

export async function timeChain(
  cwd: string,
  options: { rev?: string; runs?: number; onProgress?: (done: number, of: number) => void } = {},
): Promise<TimingReport> {
  const repo = await findRepo(cwd);
  const { top, commonDir } = repo;
  const runs = Math.max(1, options.runs ?? 3);
  const rev = options.rev || 'HEAD';
  const shown = await run(commitHeadline(rev), { cwd: top });
  if (!shown) throw new TimingError(rev);
  const { commit, subject } = shown;
  const parent = shown.parents[0] ?? '';
  if (!parent) throw new TimingError(`${rev}^`);
  const message = await run(commitMessage(commit), { cwd: top });

  const hooksPath = await readHooksPath(top);
  const hooksDir = hooksPath
    ? resolve(top, hooksPath.value.replace(/^~(?=\/|$)/, process.env.HOME ?? '~'))
    : join(commonDir, 'hooks');
  const owners = new Map(hookFiles(hooksDir).map((h) => [h.hook, h.owner] as const));
  const managerOf = (hook: string) => {
    const owner = owners.get(hook);
    return owner && MANAGERS.includes(owner) ? (owner as ChainManager) : null;
  };
  const manager = [...owners.keys()].map(managerOf).find(Boolean) ?? null;

  const temp = realpathSync(mkdtempSync(join(tmpdir(), 'revtrail-timing-')));
  const scratch = join(temp, 'work');
  const remote = join(temp, 'remote.git');
  const restore = snapshot([queueFile(commonDir), lastReviewFile(commonDir)]);
  let added = false;
  const cleanup = () => {
    // Synchronous, so an interrupt cleans up too.
    if (added) spawnSync('git', ['worktree', 'remove', '--force', scratch], { cwd: top, stdio: 'ignore' });
    rmSync(temp, { recursive: true, force: true });
    if (added) spawnSync('git', ['worktree', 'prune'], { cwd: top, stdio: 'ignore' });
    restore();
  };
  const interrupted = () => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    // --no-checkout: git runs no post-checkout for the scratch worktree.
    await run(addScratchWorktree(scratch, commit), { cwd: top });
    added = true;
    // The hooks' runner folder and node_modules are not committed: the scratch worktree borrows this one's.
    for (const rel of ['node_modules', hooksPath && !isAbsolute(hooksPath.value) ? hooksPath.value : null]) {
      if (!rel || existsSync(join(scratch, rel)) || !existsSync(join(top, rel))) continue;
      mkdirSync(dirname(join(scratch, rel)), { recursive: true });
      symlinkSync(join(top, rel), join(scratch, rel));
    }
    await run(initBare(remote), { cwd: temp });
    // The remote borrows this repository's objects, so nothing is copied to set it up.
    writeFileSync(join(remote, 'objects', 'info', 'alternates'), `${join(resolve(top, commonDir), 'objects')}\n`);
    const messageFile = join(temp, 'message');
    writeFileSync(messageFile, message);

    const base: NodeJS.ProcessEnv = { ...process.env };
    for (const name of CLEARED) delete base[name];
    const env: Record<Variant, NodeJS.ProcessEnv> = {
      full: base,
      team: { ...base, ...withoutRevtrail(manager, scratch) },
      manager: { ...base, REVTRAIL: '0', ...(manager ? managerOff(manager, scratch, temp) : {}) },
    };
    const variants: Variant[] = manager ? ['full', 'team', 'manager'] : ['full', 'team'];
    const trace = join(temp, 'trace.json');
    const alone = (hook: string) => forRevtrailAlone(manager, scratch, hook);
    // git runs a relative core.hooksPath from the worktree's top: the scratch one's.
    const scratchHooks = hooksPath && !isAbsolute(hooksPath.value) ? join(scratch, hooksPath.value) : hooksDir;
    const got: Record<'commit' | 'push', Record<Variant, Run[]>> = {
      commit: { full: [], team: [], manager: [] },
      push: { full: [], team: [], manager: [] },
    };
    const steps = runs * variants.length;
    let done = 0;
    for (let r = 0; r < runs; r++)
      for (const v of variants) {
        // The commit again, over its parent: the index and the files are the commit's, HEAD its parent.
        await run(readTreeReset(commit), { cwd: scratch });
        await run(updateRef('HEAD', parent, { noDeref: true }), { cwd: scratch });
        got.commit[v].push(
          await timedGit(['commit', '-q', '--allow-empty', '-F', messageFile], scratch, env[v], trace),
        );
        await run(updateRef('refs/heads/revtrail-timing', parent), { cwd: remote });
        got.push[v].push(
          await timedGit(['push', '-q', remote, `${commit}:refs/heads/revtrail-timing`], scratch, env[v], trace),
        );
        options.onProgress?.(++done, steps);
      }
    return {
      top,
      measured: { commit, parent, subject },
      manager,
      runs,
      commit: cost(got.commit, managerOf, (hook) => revtrailRuns(scratch, scratchHooks, hook), alone),
      push: cost(got.push, managerOf, (hook) => revtrailRuns(scratch, scratchHooks, hook), alone),
    };
  } finally {
    process.removeListener('SIGINT', interrupted);
    cleanup();
  }
}

function cost(
  runs: Record<Variant, Run[]>,
  managerOf: (hook: string) => ChainManager | null,
  revtrailIn: (hook: string) => boolean,
  alone: (hook: string) => boolean,
): StepCost {
  const hookMs = (v: Variant, hook: string) => median(runs[v].map((r) => r.hooks.get(hook)?.ms ?? 0));
  const names = [...new Set(runs.full.flatMap((r) => [...r.hooks.keys()]))];
  const hooks = names.map((hook): HookCost => {
    const total = hookMs('full', hook);
    // Runs differ by a few ms (more on a busy machine): the parts are fitted into the total, so they add up to it.
    const forRevtrail = revtrailIn(hook) && alone(hook);
    const revtrail = forRevtrail ? total : revtrailIn(hook) ? Math.max(0, total - hookMs('team', hook)) : null;
    const manager =
      managerOf(hook) && runs.manager.length && !forRevtrail
        ? Math.min(hookMs('manager', hook), total - (revtrail ?? 0))
        : null;
    return {
      hook,
      total,
      revtrail,
      manager,
      team: total - (revtrail ?? 0) - (manager ?? 0),
      exit: runs.full.at(-1)?.hooks.get(hook)?.code ?? 0,
      forRevtrail,
    };
  });
  const total = median(runs.full.map((r) => r.ms));
  return {
    total,
    git: Math.max(0, total - hooks.reduce((s, h) => s + h.total, 0)),
    revtrail: hooks.reduce((s, h) => s + (h.revtrail ?? 0), 0),
    hooks,
    exit: runs.full.at(-1)?.code ?? 0,
  };
}
