// Mining at scale: `revtrail mine` (no cache, first run, cached re-run), `candidates` and
// `stats` on a generated history (default 100,000 commits, about 20,000 Review-Finding lines),
// against `git log --format=%B` over the same history.
//
//   node bench/scenarios/mine.mjs [COMMITS] [--runs N] [--repo DIR]
//
// The history is generated once (about a minute and a half) and kept in the bench cache
// (bench/lib.mjs cachedFolder); --repo uses (or creates, once) one in DIR instead.
// Each round times the floor and every mine variant back to back, so a machine whose load
// changes over the run still compares like with like.
// Targets (issue 28): mine <= 1.2x the floor, cached re-run <= 1.3x `node -e 0`, node's peak memory <= 64 MiB,
// candidates and stats <= 1 s more than the cached mine they start from. Issue 59: a cached re-run,
// as it is and after a new commit, <= 0.12x the run without the cache, and the first run's peak memory
// <= 64 MiB too (mine-scale: the same on ten times the history).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync, spawnSync } from 'node:child_process';
import { benchEnv, cachedFolder, cli, median, printTable, row, timeMedian, timeOnce, tmp } from '../lib.mjs';

export const name = 'mine';

const generator = join(dirname(fileURLToPath(import.meta.url)), '..', 'gen-history.mjs');

/**
 * Node's own peak RSS (MiB) for one CLI run (git's memory, packs mapped, is not ours), with the
 * V8 heap's peak size and use sampled every 20 ms: what the RSS over Node's own is made of.
 */
export function nodePeak(dir, args) {
  const probe = join(tmp('revtrail-bench-rss-'), 'rss.cjs');
  const out = `${probe}.txt`;
  writeFileSync(
    probe,
    [
      'const peak = { heapUsed: 0, heapTotal: 0 };',
      'const sample = () => { const m = process.memoryUsage(); peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed); peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal); };',
      'setInterval(sample, 20).unref();',
      `process.on('exit', () => { sample(); require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ rss: process.resourceUsage().maxRSS * 1024, ...peak })); });`,
      '',
    ].join('\n'),
  );
  // Output to /dev/null, not into this process: a child forked from a big process starts with
  // its peak-memory mark (above), and a million commits' records would make this one big.
  const r = spawnSync(process.execPath, ['--require', probe, cli, ...args], {
    cwd: dir,
    env: benchEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0)
    throw new Error(`revtrail ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  const mib = (b) => b / 1048576;
  const { rss, heapUsed, heapTotal } = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(join(probe, '..'), { recursive: true, force: true });
  return { rss: mib(rss), heapUsed: mib(heapUsed), heapTotal: mib(heapTotal) };
}

/** The cached re-run's data file: the newest records file of the mine cache. */
function cachedData(dir) {
  const folder = join(dir, '.git', 'revtrail', 'mine-cache');
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(folder, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** A Node script that does only what a cached re-run must: one `git rev-parse`, then the file it is given copied to stdout. */
function copyFloor() {
  const script = join(tmp('revtrail-bench-copy-'), 'copy.cjs');
  writeFileSync(
    script,
    [
      "const { execFileSync } = require('node:child_process');",
      "const fs = require('node:fs');",
      "execFileSync('git', ['rev-parse', 'HEAD']);",
      "const fd = fs.openSync(process.argv[2], 'r');",
      'const buffer = Buffer.allocUnsafe(1 << 20);',
      'for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) for (let at = 0; at < n; ) at += fs.writeSync(1, buffer, at, n - at);',
      '',
    ].join('\n'),
  );
  return script;
}

// In a child: generating holds the whole fast-import stream, and a process forked from a big
// one inherits its peak-memory mark, which would spoil the memory figures below.
function generate(dir, commits) {
  execFileSync(process.execPath, [generator, dir, String(commits), '--seed', '42'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The history to mine: in --repo DIR, or the bench cache's copy for these inputs. */
export function history(commits, repo) {
  if (!repo) {
    const key = `${commits} seed 42 ${createHash('sha256').update(readFileSync(generator)).digest('hex').slice(0, 16)}`;
    return cachedFolder(`history-${commits}`, key, (dir) => generate(dir, commits));
  }
  const marker = join(repo, '.git', 'revtrail-bench-commits');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(commits)) return repo;
  // Only a history this bench generated is ever replaced: never delete a folder it did not make.
  if (existsSync(repo) && readdirSync(repo).length && !existsSync(marker)) {
    throw new Error(`bench: ${repo} is not a history made by this bench; give an empty or new folder`);
  }
  rmSync(repo, { recursive: true, force: true });
  generate(repo, commits);
  writeFileSync(marker, String(commits));
  return repo;
}

export async function run({ runs = 5, commits = 100_000, repo } = {}) {
  const dir = history(commits, repo);
  const cacheDirs = [join(dir, '.git', 'revtrail'), join(dir, '.revtrail')];
  const clear = () => {
    for (const d of cacheDirs) rmSync(d, { recursive: true, force: true });
  };
  const revtrail = (...args) => timeOnce(process.execPath, [cli, ...args], { cwd: dir });
  const revtrailIn = (cwd, ...args) => timeOnce(process.execPath, [cli, ...args], { cwd });
  clear();
  const floor = [];
  const noCache = [];
  const first = [];
  const cached = [];
  const node0s = [];
  const copies = [];
  const incremental = [];
  let floorScript;
  // The re-run after a new commit, in a clone sharing the history's objects (the history itself
  // stays as generated): each round commits once, newer than everything, and mines.
  const grown = join(tmp('revtrail-bench-grown-'), 'repo');
  execFileSync('git', ['clone', '-q', '--shared', dir, grown], { env: benchEnv });
  const at = Math.floor(Date.now() / 1000);
  let added = 0;
  const grow = () => {
    added += 1;
    const date = `${at + added * 10} +0000`;
    execFileSync(
      'git',
      [
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        `bench ${added}`,
        '-m',
        `Review-Finding: rf-${(0xbe00000 + added).toString(16)},src/a.ts,1,builtin/sql:rule-0,security,bug,bench,OPEN,`,
      ],
      { cwd: grown, env: { ...benchEnv, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } },
    );
  };
  revtrailIn(grown, 'mine');
  // One warm-up of each, then the rounds.
  timeOnce('git', ['log', '--format=%B'], { cwd: dir });
  revtrail('mine', '--no-cache');
  for (let i = 0; i < runs; i++) {
    floor.push(timeOnce('git', ['log', '--format=%B'], { cwd: dir }));
    noCache.push(revtrail('mine', '--no-cache'));
    clear();
    first.push(revtrail('mine'));
    // The cached re-run's floor, Node's start-up, back to back with it, and a script that only
    // asks git once and copies the cached records out.
    node0s.push(timeOnce(process.execPath, ['-e', '0']));
    cached.push(revtrail('mine'));
    floorScript ??= copyFloor();
    copies.push(timeOnce(process.execPath, [floorScript, cachedData(dir)], { cwd: dir }));
    grow();
    incremental.push(revtrailIn(grown, 'mine'));
  }
  rmSync(join(grown, '..'), { recursive: true, force: true });
  // candidates and stats read HEAD and the mainline through the same caches; warm them once.
  revtrail('candidates');
  const candidates = timeMedian(runs, () => revtrail('candidates'));
  const stats = timeMedian(runs, () => revtrail('stats'));
  const peakMine = nodePeak(dir, ['mine', '--no-cache']);
  const peakCandidates = nodePeak(dir, ['candidates']);
  const peakStart = nodePeak(dir, ['--version']);
  clear();
  const peakFirst = nodePeak(dir, ['mine']);
  rmSync(join(floorScript, '..'), { recursive: true, force: true });
  const count = commits.toLocaleString('en');
  const f = median(floor);
  const c = median(cached);
  const node0 = median(node0s);
  const revParse = timeMedian(runs, () => timeOnce('git', ['rev-parse', 'HEAD'], { cwd: dir }));
  return [
    row({
      scenario: `mine, no cache (${count} commits)`,
      value: median(noCache),
      floorName: 'git log --format=%B',
      floor: f,
      target: 1.2,
    }),
    row({
      scenario: 'mine, first run (writes the cache)',
      value: median(first),
      floorName: 'git log --format=%B',
      floor: f,
      target: 1.2,
    }),
    row({
      scenario: 'mine, cached re-run',
      value: c,
      floorName: 'node -e 0',
      floor: node0,
      target: 1.3,
      note: `git rev-parse HEAD ${revParse.toFixed(0)} ms; git log --format=%B ${f.toFixed(0)} ms`,
    }),
    row({
      scenario: '  floor: node script, git rev-parse + copy of the cached records',
      value: median(copies),
      floorName: 'node -e 0',
      floor: node0,
      kind: 'info',
    }),
    row({
      scenario: 'mine, cached re-run, against the run without the cache',
      value: c,
      floorName: 'mine, no cache',
      floor: median(noCache),
      target: 0.12,
    }),
    row({
      scenario: 'mine, cached re-run after a new commit',
      value: median(incremental),
      floorName: 'mine, no cache',
      floor: median(noCache),
      target: 0.12,
    }),
    row({
      scenario: 'candidates - cached mine',
      value: candidates - c,
      kind: 'ms',
      target: 1000,
      note: `candidates ${candidates.toFixed(0)} ms`,
    }),
    row({
      scenario: 'stats - cached mine',
      value: stats - c,
      kind: 'ms',
      target: 1000,
      note: `stats ${stats.toFixed(0)} ms`,
    }),
    row({
      scenario: 'mine --no-cache peak memory (node)',
      value: peakMine.rss,
      kind: 'MiB',
      target: 64,
      note: `V8 heap at most ${peakMine.heapTotal.toFixed(0)} MiB, ${peakMine.heapUsed.toFixed(0)} MiB of it used (young generation included: docs/mining.md)`,
    }),
    row({
      scenario: '  of which Node and the CLI loaded (revtrail --version)',
      value: peakStart.rss,
      kind: 'info',
      unit: 'MiB',
    }),
    row({
      scenario: 'mine, first run (writes the cache) peak memory (node)',
      value: peakFirst.rss,
      kind: 'MiB',
      target: 64,
    }),
    row({ scenario: 'candidates peak memory (node)', value: peakCandidates.rss, kind: 'MiB', target: 100 }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (flag) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const runs = Number(option('--runs') ?? 5);
  const repo = option('--repo');
  const positional = args.filter((a, i) => !a.startsWith('--') && !['--runs', '--repo'].includes(args[i - 1]));
  const commits = Number(positional[0] ?? 100_000);
  const rows = await run({ runs, commits, repo });
  console.log(`node ${process.version}, median of ${runs} runs\n`);
  printTable(rows);
  for (const r of rows) if (r.note) console.log(`  ${r.scenario}: ${r.note}`);
}
