// Mining at scale: `revtrail mine` (no cache, first run, cached re-run), `candidates` and
// `stats` on a generated history (default 100,000 commits, about 20,000 Review-Finding lines),
// against `git log --format=%B` over the same history.
//
//   node bench/scenarios/mine.mjs [COMMITS] [--runs N] [--repo DIR]
//
// --repo reuses (or creates, once) the history in DIR: generating 100,000 commits takes a while.
// Targets: mine <= 2x the floor, cached re-run <= 0.2x, node's peak memory < 200 MiB,
// candidates and stats <= 1 s more than the cached mine they start from.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { cli, median, printTable, row, timeMedian, timeOnce, tmp } from '../lib.mjs';

export const name = 'mine';

/** Node's own peak RSS (MiB) for one CLI run: git's memory (packs mapped) is not ours. */
function nodePeak(dir, args) {
  const probe = join(tmp('revtrail-bench-rss-'), 'rss.cjs');
  const out = `${probe}.txt`;
  writeFileSync(probe, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));\n`);
  timeOnce(process.execPath, ['--require', probe, cli, ...args], { cwd: dir });
  const kib = Number(readFileSync(out, 'utf8'));
  rmSync(join(probe, '..'), { recursive: true, force: true });
  return kib / 1024;
}

export async function run({ runs = 5, commits = 100_000, repo } = {}) {
  const dir = repo ?? tmp('revtrail-bench-history-');
  const marker = join(dir, '.git', 'revtrail-bench-commits');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== String(commits)) {
    // Only a history this bench generated is ever replaced: never delete a folder it did not make.
    if (repo && existsSync(dir) && readdirSync(dir).length && !existsSync(marker)) {
      throw new Error(`bench: ${dir} is not a history made by this bench; give an empty or new folder`);
    }
    if (repo) rmSync(dir, { recursive: true, force: true });
    // In a child: generating holds the whole fast-import stream, and a process forked from a big
    // one inherits its peak-memory mark, which would spoil the memory figures below.
    const generator = join(dirname(fileURLToPath(import.meta.url)), '..', 'gen-history.mjs');
    execFileSync(process.execPath, [generator, dir, String(commits), '--seed', '42'], { stdio: ['ignore', 'ignore', 'inherit'] });
    writeFileSync(marker, String(commits));
  }
  const cacheDirs = [join(dir, '.git', 'revtrail'), join(dir, '.revtrail')];
  const clear = () => cacheDirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  try {
    clear();
    const floor = timeMedian(runs, () => timeOnce('git', ['log', '--format=%B'], { cwd: dir }));
    const noCache = timeMedian(runs, () => timeOnce(process.execPath, [cli, 'mine', '--no-cache'], { cwd: dir }));
    const first = [];
    for (let i = 0; i < Math.max(1, Math.min(runs, 3)); i++) {
      clear();
      first.push(timeOnce(process.execPath, [cli, 'mine'], { cwd: dir }));
    }
    const cached = timeMedian(runs, () => timeOnce(process.execPath, [cli, 'mine'], { cwd: dir }));
    // candidates and stats read HEAD and the mainline through the same caches; warm them once.
    timeOnce(process.execPath, [cli, 'candidates'], { cwd: dir });
    const candidates = timeMedian(runs, () => timeOnce(process.execPath, [cli, 'candidates'], { cwd: dir }));
    const stats = timeMedian(runs, () => timeOnce(process.execPath, [cli, 'stats'], { cwd: dir }));
    const peakMine = nodePeak(dir, ['mine', '--no-cache']);
    const peakCandidates = nodePeak(dir, ['candidates']);
    const count = commits.toLocaleString('en');
    return [
      row({ scenario: `mine, no cache (${count} commits)`, value: noCache, floorName: 'git log --format=%B', floor, target: 2 }),
      row({ scenario: 'mine, first run (writes the cache)', value: median(first), floorName: 'git log --format=%B', floor, target: 2 }),
      row({ scenario: 'mine, cached re-run', value: cached, floorName: 'git log --format=%B', floor, target: 0.2 }),
      row({ scenario: 'candidates - cached mine', value: candidates - cached, kind: 'ms', target: 1000, note: `candidates ${candidates.toFixed(0)} ms` }),
      row({ scenario: 'stats - cached mine', value: stats - cached, kind: 'ms', target: 1000, note: `stats ${stats.toFixed(0)} ms` }),
      row({ scenario: 'mine --no-cache peak memory (node)', value: peakMine, kind: 'MiB', target: 200 }),
      row({ scenario: 'candidates peak memory (node)', value: peakCandidates, kind: 'MiB', target: 200 }),
    ];
  } finally {
    if (!repo) rmSync(dir, { recursive: true, force: true });
  }
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
