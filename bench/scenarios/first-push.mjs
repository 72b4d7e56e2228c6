// A first push of a long history: `revtrail hook pre-push` for a new branch holding a real
// project's commits (git/git's, where its mirror is on the machine; vue core's with its
// maintainers' bundle), and, as a guard, every commit of a generated history with realistic patches (bench/gen-patches.mjs: several files and a few
// hundred changed lines per commit, the 100-concept bench bundle), to an empty remote, against
// `git log -p` over the same commits. Each round times both back to back.
//
//   node bench/scenarios/first-push.mjs [COMMITS=3000] [--runs N]
//   npm run bench -- first-push
//
// The history is generated once into the bench cache (bench/lib.mjs cachedFolder).
// Target (issue 28): <= 1.2x `git log -p`; progress lines in a log when stderr is not a terminal.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync, spawnSync } from 'node:child_process';
import { backToBack, benchEnv, cachedFolder, cli, git, printTable, root, row, timeOnce, tmp } from '../lib.mjs';
import { borrow, borrowCached, missing, mirrorOf } from '../real.mjs';

export const name = 'first-push';

const generator = join(dirname(fileURLToPath(import.meta.url)), '..', 'gen-patches.mjs');

export function pushHistory(commits) {
  const key = `${commits} seed 5 ${createHash('sha256').update(readFileSync(generator)).digest('hex').slice(0, 16)}`;
  return cachedFolder(`patches-${commits}`, key, (dir) => {
    execFileSync(process.execPath, [generator, dir, String(commits)], { stdio: ['ignore', 'ignore', 'inherit'] });
  });
}

/**
 * A real project's first push: `tip`'s history down to `base` pushed to a remote at `base` (a
 * branch the remote does not have), with `bundle` (a folder of bench/real-rules/) in the
 * checkout when given, against `git log -p` over the same commits.
 */
function firstPushOf(runs, { slug, scenario, folder, tip: tipRev, base: baseRev, bundle = null }) {
  const mirror = mirrorOf(slug);
  if (!mirror) return [row({ scenario, value: null, kind: 'info', note: missing(slug) })];
  const dir = borrowCached(folder, mirror, tipRev);
  const remote = borrow(mirror, baseRev, { bare: true }).dir;
  const name = `bench${process.pid}`;
  try {
    if (bundle) cpSync(join(root, 'bench', 'real-rules', bundle, '.okfw'), join(dir, '.okfw'), { recursive: true });
    git(dir, ['remote', 'add', name, remote]);
    const tip = git(dir, ['rev-parse', 'HEAD']).trim();
    const base = git(remote, ['rev-parse', 'main']).trim();
    const count = git(dir, ['rev-list', '--count', tip, `^${base}`]).trim();
    const stdin = `refs/heads/topic ${tip} refs/heads/topic ${'0'.repeat(40)}\n`;
    const hook = () => {
      rmSync(join(dir, '.git', 'revtrail'), { recursive: true, force: true });
      return timeOnce(process.execPath, [cli, 'hook', 'pre-push', name, remote], {
        cwd: dir,
        input: stdin,
        okCodes: [0, 1],
      });
    };
    const floor = () => timeOnce('git', ['log', '-p', tip, `^${base}`], { cwd: dir });
    const timed = backToBack(runs, floor, hook);
    return [
      row({
        scenario: `${scenario} (${Number(count).toLocaleString('en')} real commits)`,
        value: timed.value,
        floorName: 'git log -p',
        floor: timed.floor,
        target: 1.3,
      }),
    ];
  } finally {
    rmSync(remote, { recursive: true, force: true });
    if (bundle) rmSync(join(dir, '.okfw'), { recursive: true, force: true });
    try {
      git(dir, ['remote', 'remove', name]);
    } catch {
      // never added
    }
  }
}

/**
 * The first push of git/git's own v2.45.0..v2.51.0 (5,015 real commits: large patches, renames,
 * merges, binary files); and of vue core's v3.4.0..v3.5.0 (a TypeScript monorepo's 820 real
 * commits) with the bundle its maintainers would write (bench/real-rules/vue/.okfw): the real
 * project's row where git/git's mirror is not on the machine, and a bundle's row beside it where
 * it is.
 */
const realFirstPush = (runs) =>
  firstPushOf(runs, {
    slug: 'git/git',
    scenario: 'pre-push, first push of git/git v2.45.0..v2.51.0',
    folder: 'git-git-v2.51.0',
    tip: 'v2.51.0',
    base: 'v2.45.0',
  });
const vueFirstPush = (runs) =>
  firstPushOf(runs, {
    slug: 'vuejs/core',
    scenario: "pre-push, first push of vue core v3.4.0..v3.5.0, its maintainers' bundle",
    folder: 'vue-core-v3.5.0',
    tip: 'v3.5.0',
    base: 'v3.4.0',
    bundle: 'vue',
  });

export async function run({ runs = 5, commits = 3000 } = {}) {
  // The real projects' rows are the figures that count; the generated history stays as a guard.
  return [...realFirstPush(runs), ...vueFirstPush(runs), ...(await generatedFirstPush(runs, commits))];
}

async function generatedFirstPush(runs, commits) {
  const dir = pushHistory(commits);
  const remote = tmp('revtrail-bench-first-push-remote-');
  // A remote of this run's own, with no remote-tracking refs: everything is new to it.
  const name = `bench${process.pid}`;
  try {
    git(remote, ['init', '-q', '--bare']);
    git(dir, ['remote', 'add', name, remote]);
    const tip = git(dir, ['rev-parse', 'HEAD']).trim();
    const stdin = `refs/heads/topic ${tip} refs/heads/topic ${'0'.repeat(40)}\n`;
    // What the push would review, and what pre-push remembers, is cleared before each run.
    const clear = () => rmSync(join(dir, '.git', 'revtrail'), { recursive: true, force: true });
    const hook = () => {
      clear();
      return timeOnce(process.execPath, [cli, 'hook', 'pre-push', name, remote], {
        cwd: dir,
        input: stdin,
        okCodes: [0, 1],
      });
    };
    const floor = () => timeOnce('git', ['log', '-p', tip], { cwd: dir });
    const timed = backToBack(runs, floor, hook);
    // Progress in a CI log: the same push with stderr a pipe, its plain progress lines counted.
    clear();
    const logged = spawnSync(process.execPath, [cli, 'hook', 'pre-push', name, remote], {
      cwd: dir,
      input: stdin,
      env: benchEnv,
      maxBuffer: 1 << 30,
    });
    const progressLines = String(logged.stderr)
      .split('\n')
      .filter((l) => l.startsWith('revtrail: refs/heads/topic: ')).length;
    const history = `${commits.toLocaleString('en')} generated commits`;
    return [
      row({
        scenario: `pre-push, first push of ${history}`,
        value: timed.value,
        floorName: 'git log -p',
        floor: timed.floor,
        target: 1.2,
      }),
      row({
        scenario: 'first push: progress lines, stderr a pipe',
        value: progressLines,
        kind: 'lines',
        target: timed.value > 5000 ? 1 : 0,
        note: 'one plain line per 5 s once a push takes that long',
      }),
    ];
  } finally {
    rmSync(remote, { recursive: true, force: true });
    try {
      git(dir, ['remote', 'remove', name]);
    } catch {
      // never added
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 5;
  const positional = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
  const rows = await run({ runs, commits: Number(positional[0] ?? 3000) });
  console.log(`node ${process.version}, median of ${runs} runs\n`);
  printTable(rows);
}
