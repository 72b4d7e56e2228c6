// Shared bench helpers: timing by medians of real processes, a seeded PRNG, the result table.
import { spawnSync, execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedGitEnv } from '../dist/lib/core/git/isolated-env.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The CLI the scenarios time: this checkout's, or another build's for `npm run bench -- --against
 * DIR` (run.mjs), which times both side by side in one run. A live binding: scenarios read it
 * when they run.
 */
export let cli = join(root, 'bin', 'revtrail.js');
export function useCli(path) {
  cli = path;
}

export const benchEnv = isolatedGitEnv({ name: 'Bench', email: 'bench@example.com' });

export function tmp(prefix) {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** mulberry32: the same inputs on every run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function git(cwd, args, input) {
  return execFileSync('git', args, { cwd, env: benchEnv, input, encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** Runs a command once; returns wall milliseconds (throws when the exit code is unexpected). */
export function timeOnce(command, args, { cwd, input, env, okCodes = [0] } = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd, input, env: { ...benchEnv, ...env }, maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okCodes.includes(r.status ?? -1)) {
    throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  }
  return ms;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * `floor` and `measured` run back to back, `runs` times after one warm-up each, so a machine whose
 * load changes over the run weighs on both alike: the median of each.
 */
export function backToBack(runs, floor, measured) {
  floor();
  measured();
  const floors = [];
  const values = [];
  for (let i = 0; i < runs; i++) {
    floors.push(floor());
    values.push(measured());
  }
  return { floor: median(floors), value: median(values) };
}

/** Median wall time of `runs` executions after one warm-up. */
export function timeMedian(runs, fn) {
  fn();
  const times = [];
  for (let i = 0; i < runs; i++) times.push(fn());
  return median(times);
}

/** Peak resident memory (MiB) of a command, via GNU time where it exists. */
export function peakMemoryMiB(command, args, { cwd, env, input } = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], {
    cwd,
    input,
    env: { ...benchEnv, ...env },
    maxBuffer: 1 << 30,
  });
  if (r.error) return null;
  const kib = Number(String(r.stderr).trim().split('\n').pop());
  return Number.isFinite(kib) ? kib / 1024 : null;
}

/**
 * A row of the table: revtrail's median next to the floor it is compared with.
 * kind 'ratio': holds when value/floor <= target; kind 'ms': holds when value <= target ms;
 * kind 'MiB': holds when value <= target; kind 'info': a figure to compare with, no target.
 */
// kind 'info': a figure that explains another row, with no target of its own (`unit`: its unit, ms by default).
export function row({ scenario, value, floorName, floor, target = null, kind = 'ratio', note = '', unit }) {
  const ratio = floor ? value / floor : null;
  // kind 'lines': a count that holds when it reaches the target (progress lines in a log).
  const holds =
    kind === 'info'
      ? null
      : kind === 'ratio'
        ? ratio !== null && ratio <= target
        : kind === 'lines'
          ? value >= target
          : value <= target;
  return { scenario, value, floorName, floor, ratio, target, kind, holds, note, unit };
}

export function printTable(rows) {
  const fmt = (n, unit = 'ms') =>
    n === null || n === undefined ? '-' : `${n.toFixed(n < 10 && unit !== 'lines' ? 1 : 0)} ${unit}`;
  const lines = [['scenario', 'revtrail', 'floor', 'floor value', 'ratio', 'target', 'holds']];
  for (const r of rows) {
    const unit = r.unit ?? (r.kind === 'MiB' ? 'MiB' : r.kind === 'lines' ? 'lines' : 'ms');
    const target =
      r.kind === 'info'
        ? '-'
        : r.kind === 'ratio'
          ? `<= ${r.target}x`
          : r.kind === 'lines'
            ? `>= ${r.target}`
            : `<= ${r.target} ${unit}`;
    const holds = r.holds === null ? '-' : r.holds ? 'yes' : 'NO';
    lines.push([
      r.scenario,
      fmt(r.value, unit),
      r.floorName ?? '-',
      fmt(r.floor, r.unit ?? 'ms'),
      r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`,
      target,
      holds,
    ]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const [i, l] of lines.entries()) {
    console.log(l.map((c, j) => c.padEnd(widths[j])).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/**
 * A folder the bench makes once and reuses (a generated history, installed tools): under
 * $REVTRAIL_BENCH_CACHE or <tmp>/revtrail-bench, outside the repository. `make(dir)` fills a
 * staging folder that is renamed into place, so a run stopped half-way leaves nothing that looks
 * finished; `key` (the inputs) decides whether what is there is still the right thing.
 */
export function cachedFolder(name, key, make) {
  const base = process.env.REVTRAIL_BENCH_CACHE || join(tmpdir(), 'revtrail-bench');
  const dir = join(base, name);
  const done = `${dir}.done`;
  try {
    if (existsSync(dir) && readFileSync(done, 'utf8') === key) return dir;
  } catch {
    // not made yet
  }
  mkdirSync(base, { recursive: true });
  const staging = mkdtempSync(join(base, `${name}.staging-`));
  try {
    make(staging);
    rmSync(done, { force: true });
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    writeFileSync(done, key);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The command line of a generator run on its own: `DIR [COUNT] [--seed N]`. Exits 2 with the
 * usage line when DIR is missing.
 */
export function generatorArgs(script, defaults) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : defaults.seed;
  const [dir, count = String(defaults.count)] = args.filter(
    (a, i) => !a.startsWith('--') && (seedAt < 0 || i !== seedAt + 1),
  );
  if (!dir) {
    console.error(`usage: node bench/${script} DIR [COMMITS] [--seed N]`);
    process.exit(2);
  }
  return { dir, count: Number(count), seed };
}
