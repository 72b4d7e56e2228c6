// Hook overhead: `git commit` with the hooks minus `git commit --no-verify` (10 files, 300 lines,
// 100-concept bundle) and the pre-push hook over 50 new commits, against `node -e 0`.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, git, median, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';

export const name = 'hooks';

function shim(dir) {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const file = join(dir, 'node_modules', '.bin', 'revtrail');
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(file, 0o755);
}

export async function run({ runs }) {
  const dir = tmp('revtrail-bench-hooks-');
  const remote = tmp('revtrail-bench-remote-');
  try {
    git(dir, ['init', '-q', '-b', 'main']);
    git(remote, ['init', '-q', '--bare']);
    writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
    generateBundle(join(dir, '.okfw'), { concepts: 100, rulesPer: 2 });
    shim(dir);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'baseline']);
    timeOnce(process.execPath, [cli, 'install'], { cwd: dir });
    // What install wrote is committed with the baseline: the timed commit is the 10 files alone.
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '--no-verify', '-m', 'install']);
    for (let f = 0; f < 10; f++) {
      mkdirSync(join(dir, `src/mod${f}`), { recursive: true });
      writeFileSync(join(dir, `src/mod${f}/f.ts`), Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i} + ${f};`).join('\n') + '\n');
    }
    git(dir, ['add', '-A']);
    // A bundle file changed in the last two seconds is not known by its stat() (the racy case,
    // docs/bundle.md "Cache"): a team's bundle is older than that, so the bench waits it out.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const commitWith = (verify) => () => {
      const ms = timeOnce('git', ['commit', '-q', ...(verify ? [] : ['--no-verify']), '-m', 'bench change'], { cwd: dir });
      git(dir, ['reset', '-q', '--soft', 'HEAD~1']);
      return ms;
    };
    const node0 = timeMedian(runs, () => timeOnce(process.execPath, ['-e', '0']));
    const plain = [];
    const hooked = [];
    commitWith(true)();
    for (let i = 0; i < runs; i++) {
      plain.push(commitWith(false)());
      hooked.push(commitWith(true)());
    }
    const overhead = median(hooked) - median(plain);

    git(dir, ['commit', '-q', '--no-verify', '-m', 'base for push']);
    const base = git(dir, ['rev-parse', 'HEAD']).trim();
    git(dir, ['remote', 'add', 'origin', remote]);
    git(dir, ['push', '-q', '--no-verify', 'origin', 'main']);
    for (let c = 0; c < 50; c++) {
      writeFileSync(join(dir, `src/mod${c % 10}/f.ts`), `export const changed${c} = ${c};\n`);
      git(dir, ['commit', '-q', '--no-verify', '-am', `change ${c}`]);
    }
    const tip = git(dir, ['rev-parse', 'HEAD']).trim();
    const zero = '0'.repeat(40);
    const stdin = `refs/heads/topic ${tip} refs/heads/topic ${zero}\n`;
    const prePush = timeMedian(runs, () => timeOnce(process.execPath, [cli, 'hook', 'pre-push', 'origin', remote], { cwd: dir, input: stdin, okCodes: [0, 1] }));
    const plainPush = timeMedian(runs, () => {
      const ms = timeOnce('git', ['push', '-q', '--no-verify', 'origin', `${tip}:refs/heads/topic`], { cwd: dir });
      git(dir, ['push', '-q', '--no-verify', 'origin', ':refs/heads/topic']);
      return ms;
    });
    void base;
    return [
      row({ scenario: 'commit-msg hook overhead (10 files/300 lines/100 concepts)', value: overhead, floorName: 'node -e 0', floor: node0, target: 1.5, note: `git commit without hooks ${median(plain).toFixed(0)} ms` }),
      row({ scenario: 'pre-push hook, 50 new commits', value: prePush, floorName: 'node -e 0', floor: node0, target: 2, note: `git push without hooks ${plainPush.toFixed(0)} ms` }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(remote, { recursive: true, force: true });
  }
}
