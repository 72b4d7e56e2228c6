// The server under load (issue 41): 20 pushes at once, each of 50 commits from its own clone, to
// one bare repository with the server gate (`revtrail install --server`, the 100-concept bench
// bundle in main's policy); one of them adds a key. Every push must be answered for itself (the
// keyed one refused, the others taken, each ref as pushed), the policy copied once and whole
// with no `.staging-*` left, and the slowest 5 % no slower than 3x a lone push.
// The same invariants at a small size: test/server/server-load.test.ts.
//
//   npm run bench -- server-load [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { benchEnv, cli, git, median, row, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';

export const name = 'server-load';

const KEY = 'AKIA' + 'QYLPMN2RZ4TK7WXB';

function pushOnce(clone, branch) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn('git', ['push', '-q', 'origin', branch], { cwd: clone, env: benchEnv, stdio: 'ignore' });
    child.on('close', (code) => resolve({ code, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
  });
}

export async function run({ runs = 3, pushes = 20, commits = 50 } = {}) {
  const root = tmp('revtrail-bench-server-load-');
  try {
    const bare = join(root, 'bare.git');
    const seed = join(root, 'seed');
    git(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    git(root, ['init', '-q', '-b', 'main', seed]);
    generateBundle(join(seed, '.okfw'), { concepts: 100, rulesPer: 2 });
    for (let f = 0; f < 10; f++) {
      mkdirSync(join(seed, `src/mod${f}`), { recursive: true });
      writeFileSync(join(seed, `src/mod${f}/f.ts`), `export const v = ${f};\n`);
    }
    git(seed, ['add', '-A']);
    git(seed, ['commit', '-q', '-m', 'baseline']);
    git(seed, ['push', '-q', bare, 'main']);
    timeOnce(process.execPath, [cli, 'install', '--server', bare], { cwd: root });
    // Each clone gets its branches ready for every round: round r pushes branch `r<r>-<i>`.
    const clones = Array.from({ length: pushes }, (_, i) => {
      const dir = join(root, `clone${i}`);
      git(root, ['clone', '-q', bare, dir]);
      for (let r = 0; r <= runs; r++) {
        git(dir, ['checkout', '-q', '-b', `r${r}-${i}`, 'origin/main']);
        for (let c = 0; c < commits; c++) {
          const keyed = i === 0 && c === 10;
          writeFileSync(
            join(dir, `src/mod${c % 10}/f.ts`),
            keyed ? `export const k = "${KEY}";\n` : `export const v${i}_${r}_${c} = ${c};\n`,
          );
          git(dir, ['commit', '-q', '-am', `change ${i} ${r} ${c}`]);
        }
      }
      return dir;
    });
    const policy = join(bare, 'revtrail', 'policy');
    const alone = [];
    const loaded = [];
    const wrong = [];
    for (let r = 0; r <= runs; r++) {
      // A lone push (clone 1's), then all of them at once with no policy copy yet.
      rmSync(policy, { recursive: true, force: true });
      const lone = await pushOnce(clones[1], `r${r}-1`);
      git(bare, ['update-ref', '-d', `refs/heads/r${r}-1`]);
      rmSync(policy, { recursive: true, force: true });
      const results = await Promise.all(clones.map((c, i) => pushOnce(c, `r${r}-${i}`)));
      if (r === 0) continue; // warm-up
      alone.push(lone.ms);
      loaded.push(...results.map((x) => x.ms));
      results.forEach((x, i) => {
        const has =
          spawnSync('git', ['rev-parse', '--verify', '-q', `refs/heads/r${r}-${i}`], { cwd: bare }).status === 0;
        const want = i !== 0;
        if ((x.code === 0) !== want || has !== want)
          wrong.push(`round ${r} push ${i}: exit ${x.code}, ref ${has ? 'made' : 'absent'}`);
      });
      const left = readdirSync(policy).filter((n) => n.startsWith('.'));
      if (left.length) wrong.push(`round ${r}: left ${left.join(', ')}`);
      const made = readdirSync(policy).filter((n) => !n.startsWith('.'));
      if (made.length !== 1) wrong.push(`round ${r}: ${made.length} policy copies`);
    }
    const sorted = [...loaded].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
    return [
      row({
        scenario: `server under load: p95 of ${pushes} concurrent pushes of ${commits} commits`,
        value: p95,
        floorName: 'a lone push',
        floor: median(alone),
        target: 3,
        note: `median ${median(loaded).toFixed(0)} ms over ${loaded.length} pushes; ${wrong.length ? `WRONG: ${wrong.join('; ')}` : 'every push answered right, one whole policy copy, no staging left'}`,
      }),
      // 20 pushes on 2 cores cannot all finish within 3x one: the bound is the work itself, all
      // pushes' CPU shared by the cores (docs/server.md "Under load").
      row({
        scenario: '  the same p95 against the machine bound (pushes x lone push / cores)',
        value: p95,
        floorName: `${pushes} x lone / ${cpus().length} cores`,
        floor: (pushes * median(alone)) / cpus().length,
        target: 1.3,
      }),
      row({
        scenario: 'server under load: pushes answered wrong or torn state',
        value: wrong.length,
        kind: 'ms',
        target: 0,
        unit: 'cases',
      }),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
