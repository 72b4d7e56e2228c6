// Hook overhead: `git commit` with the hooks minus `git commit --no-verify` (10 files, 300 lines,
// 100-concept bundle) and the pre-push hook over 50 new commits, against `node -e 0`.
import { chmodSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
      writeFileSync(
        join(dir, `src/mod${f}/f.ts`),
        Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i} + ${f};`).join('\n') + '\n',
      );
    }
    git(dir, ['add', '-A']);
    // A bundle file changed in the last two seconds is not known by its stat() (the racy case,
    // docs/bundle.md "Cache"): a team's bundle is older than that, so the bench waits it out.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // husky's own cost: its runner (.husky/_) starting hook scripts that do nothing, for the
    // same three hooks a commit runs (prepare-commit-msg, commit-msg, post-commit).
    const empty = join(dir, '.git', 'bench-husky-empty');
    cpSync(join(dir, '.husky', '_'), join(empty, '_'), { recursive: true });
    for (const hook of ['prepare-commit-msg', 'commit-msg', 'post-commit']) writeFileSync(join(empty, hook), '');
    const commitWith = (verify, hooksPath) => () => {
      const config = hooksPath ? ['-c', `core.hooksPath=${hooksPath}`] : [];
      const ms = timeOnce(
        'git',
        [...config, 'commit', '-q', ...(verify ? [] : ['--no-verify']), '-m', 'bench change'],
        { cwd: dir },
      );
      git(dir, ['reset', '-q', '--soft', 'HEAD~1']);
      return ms;
    };
    // The floor the issue names: a minimal Node script that runs `git diff --cached` and scans
    // the added lines, beside the hook's own process on the same staged change (both without
    // git commit and husky around them), and the hook bundle's start-up alone (an unknown hook
    // name does no work). Every figure is taken in the same rounds, back to back with `node -e 0`,
    // so that a shared machine's changing load falls on all of them alike.
    const msgFile = join(dir, '.git', 'BENCH_MSG');
    writeFileSync(msgFile, 'bench change\n');
    const minimal = join(dir, '.git', 'bench-minimal.cjs');
    writeFileSync(
      minimal,
      "const { execFileSync } = require('node:child_process');\n" +
        "const diff = execFileSync('git', ['diff', '--cached', '--no-color', '--no-ext-diff'], { encoding: 'utf8' });\n" +
        "let n = 0; for (const line of diff.split('\\n')) if (line.startsWith('+') && !line.startsWith('+++') && line.includes('debugger')) n++;\n" +
        'process.exitCode = n ? 1 : 0;\n',
    );
    const rounds = { node0: [], plain: [], husky: [], hooked: [], minimal: [], process: [], start: [] };
    const round = () => ({
      node0: timeOnce(process.execPath, ['-e', '0']),
      plain: commitWith(false)(),
      husky: commitWith(true, join(empty, '_'))(),
      hooked: commitWith(true)(),
      minimal: timeOnce(process.execPath, [minimal], { cwd: dir }),
      process: timeOnce(process.execPath, [cli, 'hook', 'commit-msg', msgFile], { cwd: dir }),
      start: timeOnce(process.execPath, [cli, 'hook', 'bench-none'], { cwd: dir, okCodes: [0, 1, 2, 3] }),
    });
    round(); // warm-up: the first commit of this policy is a full review, which leaves the clean check's record
    for (let i = 0; i < runs; i++) for (const [k, v] of Object.entries(round())) rounds[k].push(v);
    const node0 = median(rounds.node0);
    const plain = rounds.plain;
    const overhead = median(rounds.hooked) - median(plain);
    const huskyOwn = median(rounds.husky) - median(plain);
    const minimalScript = median(rounds.minimal);
    const hookProcess = median(rounds.process);
    const startOnly = median(rounds.start);

    // The same 10 files with a line each of its two governing concepts' rules (`forbidden<i>_0(`,
    // src/mod<f> is governed by concepts f and f+50): the rules' needles occur, the full review
    // runs, and each file gets a finding the commit records as an OPEN trailer.
    for (let f = 0; f < 10; f++)
      writeFileSync(
        join(dir, `src/mod${f}/f.ts`),
        Array.from({ length: 30 }, (_, i) =>
          i === 7
            ? `forbidden${f}_0(v${i});`
            : i === 8
              ? `const note${f} = 'forbidden${f + 50}_1';`
              : `export const v${i} = ${i} + ${f};`,
        ).join('\n') + '\n',
      );
    git(dir, ['add', '-A']);
    const reached = { node0: [], plain: [], hooked: [], process: [] };
    // A fresh message each time, as `git commit -m` hands one: the rows written by the round
    // before would otherwise be read, linted and checked by git again.
    const freshProcess = () => {
      writeFileSync(msgFile, 'bench change\n');
      return timeOnce(process.execPath, [cli, 'hook', 'commit-msg', msgFile], { cwd: dir });
    };
    const reachedRound = () => ({
      node0: timeOnce(process.execPath, ['-e', '0']),
      plain: commitWith(false)(),
      hooked: commitWith(true)(),
      process: freshProcess(),
    });
    reachedRound(); // warm-up, as above
    for (let i = 0; i < runs; i++) for (const [k, v] of Object.entries(reachedRound())) reached[k].push(v);
    const reachedOverhead = median(reached.hooked) - median(reached.plain);
    writeFileSync(msgFile, 'bench change\n');

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
    // Back to back with `node -e 0`, as the commit rounds are.
    const pushRounds = { node0: [], prePush: [] };
    const pushRound = () => ({
      node0: timeOnce(process.execPath, ['-e', '0']),
      prePush: timeOnce(process.execPath, [cli, 'hook', 'pre-push', 'origin', remote], {
        cwd: dir,
        input: stdin,
        okCodes: [0, 1],
      }),
    });
    pushRound(); // warm-up
    for (let i = 0; i < runs; i++) for (const [k, v] of Object.entries(pushRound())) pushRounds[k].push(v);
    const prePush = median(pushRounds.prePush);
    const plainPush = timeMedian(runs, () => {
      const ms = timeOnce('git', ['push', '-q', '--no-verify', 'origin', `${tip}:refs/heads/topic`], { cwd: dir });
      git(dir, ['push', '-q', '--no-verify', 'origin', ':refs/heads/topic']);
      return ms;
    });
    void base;
    return [
      row({
        scenario: 'commit-msg hook overhead (10 files/300 lines/100 concepts)',
        value: overhead,
        floorName: 'node -e 0',
        floor: node0,
        target: 1.2,
        note: `git commit without hooks ${median(plain).toFixed(0)} ms; commitlint's figure: npm run bench -- peers`,
      }),
      row({
        scenario: 'commit-msg hook overhead, a change the rules reach (10 findings recorded)',
        value: reachedOverhead,
        floorName: 'node -e 0',
        floor: median(reached.node0),
        target: 1.3,
        note: `the hook process alone ${median(reached.process).toFixed(0)} ms`,
      }),
      row({
        scenario: "  of which husky's own runner (the three hooks' scripts empty)",
        value: huskyOwn,
        floorName: 'node -e 0',
        floor: node0,
        kind: 'info',
      }),
      row({
        scenario: 'revtrail hook commit-msg, the process alone',
        value: hookProcess,
        floorName: 'node -e 0',
        floor: node0,
        kind: 'info',
        note: `a clean commit never loads the hook bundle; its start-up alone (an unknown hook name, no work) ${startOnly.toFixed(0)} ms is what a commit that needs the review starts with`,
      }),
      row({
        scenario: 'floor: node script, git diff --cached + scan',
        value: minimalScript,
        floorName: 'node -e 0',
        floor: node0,
        kind: 'info',
      }),
      row({
        scenario: 'pre-push hook, 50 new commits',
        value: prePush,
        floorName: 'node -e 0',
        floor: median(pushRounds.node0),
        target: 1.5,
        note: `git push without hooks ${plainPush.toFixed(0)} ms`,
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(remote, { recursive: true, force: true });
  }
}
