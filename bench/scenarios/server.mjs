// The server gate: `revtrail hook pre-receive` as git runs it in a bare repository (GIT_DIR=.,
// the ref lines on stdin), for
// - an update of main by 50 small commits (10 files, the 100-concept bench bundle in main's
//   policy), against `node -e 0`; target <= 2x;
// - a new branch of 3,000 commits with realistic patches (bench/gen-patches.mjs, as first-push),
//   against `git log -p` over the same commits; target <= 1.5x.
// The pushed objects are in the repository but no ref reaches them, as in git's quarantine; the
// policy copy and the bundle cache a server keeps between pushes are warm after the first run.
//
//   npm run bench -- server
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backToBack, cli, git, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';
import { pushHistory } from './first-push.mjs';

export const name = 'server';

/** Puts `tip`'s objects into `bare` with no ref left pointing at them (what the quarantine holds). */
function objectsOnly(work, bare, tip) {
  git(work, ['push', '-q', '--no-verify', bare, `${tip}:refs/bench/objects`]);
  git(bare, ['update-ref', '-d', 'refs/bench/objects']);
}

const hookEnv = { GIT_DIR: '.' };
const preReceive = (bare, stdin) => () =>
  timeOnce(process.execPath, [cli, 'hook', 'pre-receive'], { cwd: bare, input: stdin, env: hookEnv, okCodes: [0, 1] });

async function fiftyCommits(runs) {
  const dir = tmp('revtrail-bench-server-work-');
  const bare = tmp('revtrail-bench-server-bare-');
  try {
    git(dir, ['init', '-q', '-b', 'main']);
    git(bare, ['init', '-q', '--bare', '-b', 'main']);
    generateBundle(join(dir, '.okfw'), { concepts: 100, rulesPer: 2 });
    for (let f = 0; f < 10; f++) {
      mkdirSync(join(dir, `src/mod${f}`), { recursive: true });
      writeFileSync(
        join(dir, `src/mod${f}/f.ts`),
        Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i} + ${f};`).join('\n') + '\n',
      );
    }
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'baseline']);
    const base = git(dir, ['rev-parse', 'HEAD']).trim();
    git(dir, ['push', '-q', bare, 'main']);
    for (let c = 0; c < 50; c++) {
      writeFileSync(join(dir, `src/mod${c % 10}/f.ts`), `export const changed${c} = ${c};\n`);
      git(dir, ['commit', '-q', '-am', `change ${c}`]);
    }
    const tip = git(dir, ['rev-parse', 'HEAD']).trim();
    objectsOnly(dir, bare, tip);
    const node0 = timeMedian(runs, () => timeOnce(process.execPath, ['-e', '0']));
    const hook = timeMedian(runs, preReceive(bare, `${base} ${tip} refs/heads/main\n`));
    return row({
      scenario: 'server pre-receive, update by 50 commits',
      value: hook,
      floorName: 'node -e 0',
      floor: node0,
      target: 2,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
  }
}

async function longBranch(runs, commits) {
  const dir = pushHistory(commits);
  const bare = tmp('revtrail-bench-server-long-');
  try {
    git(bare, ['init', '-q', '--bare', '-b', 'main']);
    // main holds the first commit (the bundle): the policy the new branch is reviewed with.
    const first = git(dir, ['rev-list', '--max-parents=0', 'HEAD']).trim().split('\n')[0];
    const tip = git(dir, ['rev-parse', 'HEAD']).trim();
    git(dir, ['push', '-q', '--no-verify', bare, `${first}:refs/heads/main`]);
    objectsOnly(dir, bare, tip);
    const stdin = `${'0'.repeat(40)} ${tip} refs/heads/topic\n`;
    const hook = preReceive(bare, stdin);
    const floor = () => timeOnce('git', ['log', '-p', tip, `^${first}`], { cwd: bare });
    const timed = backToBack(runs, floor, hook);
    return row({
      scenario: `server pre-receive, new branch of ${commits.toLocaleString('en')} commits`,
      value: timed.value,
      floorName: 'git log -p',
      floor: timed.floor,
      target: 1.5,
    });
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
}

export async function run({ runs = 5, commits = 3000 } = {}) {
  return [await fiftyCommits(runs), await longBranch(runs, commits)];
}
