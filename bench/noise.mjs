#!/usr/bin/env node
// Noise of the built-in baseline on real code. Two sources:
//   - a folder (default: node_modules): every source file reviewed as if it were added, in the
//     review's own pieces of 400 lines, through the review pipeline (file facts included);
//   - a repository's history (--history DIR): `revtrail review --range` over each commit.
// Third-party and released code is mostly clean of leaked keys, focused tests and conflict
// markers, so what fires there is mostly noise: findings per 10,000 lines is the measure.
// Run after a build: node scripts/build.mjs && node bench/noise.mjs [DIR] [--top N] [--history DIR]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);

const SOURCE = /\.(?:[cm]?js|jsx|[cm]?ts|tsx|json|ya?ml|md|sh|py|html)$/;

function* walk(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = join(folder, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if ((e.isFile() || e.isSymbolicLink()) && SOURCE.test(e.name)) yield full;
  }
}

/** A new file's lines as the diff parser gives them (a last newline ends the last line). */
function linesOf(text) {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Reviews every source file under `dir` with the built-in baseline. Returns per-rule counts,
 * the lines read, what was dropped, and sample findings.
 */
export async function measureFolder(dir, { maxFiles = Infinity } = {}) {
  const { builtinRules } = await load('lib/review/builtin.js');
  const { reviewSelections } = await load('lib/review/pipeline.js');
  const { toChunks } = await load('lib/diff/chunk.js');
  const { addedFile } = await load('test/kit/review.js');
  const rules = builtinRules(true);
  const files = [];
  let lines = 0;
  for (const file of walk(dir)) {
    if (files.length >= maxFiles) break;
    if (statSync(file).size > 5 * 1024 * 1024) continue;
    const path = relative(dir, file).split('\\').join('/');
    const text = readFileSync(file, 'utf8');
    const diffFile = addedFile(path, linesOf(text));
    lines += diffFile.hunks[0].lines.length;
    files.push(diffFile);
  }
  const started = process.hrtime.bigint();
  const selections = toChunks(files, 400).map((chunk) => ({ chunk, matched: [], documents: [] }));
  const result = await reviewSelections(selections, {
    top: dir,
    builtin: rules,
    reviewer: null,
    minConfidence: 0.8,
    softTests: false,
    verdicts: async () => new Map(),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const byPath = new Map(files.map((f) => [f.newPath, f]));
  const samples = result.findings.map((f) => ({
    rule: f.rule_source,
    where: `${f.path}:${f.line}`,
    text: (byPath.get(f.path)?.hunks[0].lines[f.line - 1]?.text ?? '').trim().slice(0, 110),
  }));
  return {
    files: files.length,
    lines,
    seconds,
    findings: result.findings,
    dropped: result.dropped,
    samples,
    rules: rules.map((r) => r.ruleSource),
  };
}

/**
 * `revtrail review --range C^..C` over every commit of `repo` (first parent, root commits from
 * the empty tree): the findings per 10,000 added lines of a real history.
 */
export function measureHistory(repo, { cli = join(root, 'bin', 'revtrail.js'), maxCommits = 200 } = {}) {
  const git = (args) => spawnSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  const commits = git(['rev-list', '--first-parent', '--no-merges', `--max-count=${maxCommits}`, 'HEAD'])
    .split('\n')
    .filter(Boolean);
  const empty = git(['hash-object', '-t', 'tree', '--stdin']).trim();
  const findings = [];
  let added = 0;
  const started = process.hrtime.bigint();
  for (const commit of commits) {
    const parent = git(['rev-parse', '--verify', '--quiet', `${commit}^`]).trim() || empty;
    const stat = git(['diff', '--numstat', parent, commit]);
    for (const line of stat.split('\n')) {
      const n = Number(line.split('\t')[0]);
      if (Number.isFinite(n)) added += n;
    }
    const run = spawnSync(process.execPath, [cli, 'review', '--range', `${parent}..${commit}`, '--format', 'json'], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (run.status !== 0 && run.status !== 1)
      throw new Error(`review of ${commit} exited ${run.status}: ${run.stderr.slice(0, 300)}`);
    for (const f of JSON.parse(run.stdout).findings) findings.push({ ...f, commit });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { commits: commits.length, added, seconds, findings };
}

export const per10k = (n, lines) => ((n * 10000) / Math.max(lines, 1)).toFixed(2);

function countBy(items, key) {
  const counts = new Map();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export function printFolder(label, m, top = 25) {
  console.log(`${label}: ${m.files} files, ${m.lines} lines, ${m.seconds.toFixed(1)} s`);
  console.log(
    `  findings: ${m.findings.length} = ${per10k(m.findings.length, m.lines)} per 10,000 lines; dropped: ${JSON.stringify(m.dropped)}`,
  );
  for (const [rule, n] of countBy(m.findings, (f) => f.rule_source))
    console.log(`  ${String(n).padStart(6)}  ${per10k(n, m.lines).padStart(7)}  ${rule}`);
  if (top > 0 && m.samples.length) {
    console.log(`  first ${Math.min(top, m.samples.length)} findings:`);
    for (const s of m.samples.slice(0, top)) console.log(`    ${s.rule}  ${s.where}\n        ${s.text}`);
  }
}

export function printHistory(label, h, top = 25) {
  console.log(`${label}: ${h.commits} commits, ${h.added} added lines, ${h.seconds.toFixed(1)} s`);
  console.log(`  findings: ${h.findings.length} = ${per10k(h.findings.length, h.added)} per 10,000 added lines`);
  for (const [rule, n] of countBy(h.findings, (f) => f.rule_source))
    console.log(`  ${String(n).padStart(6)}  ${per10k(n, h.added).padStart(7)}  ${rule}`);
  for (const f of h.findings.slice(0, top))
    console.log(`    ${f.rule_source}  ${f.commit.slice(0, 8)} ${f.path}:${f.line}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const top = Number(option('--top') ?? 25);
  const history = option('--history');
  const dir =
    args.find((a, i) => !a.startsWith('--') && !['--top', '--history'].includes(args[i - 1])) ??
    join(root, 'node_modules');
  printFolder(`baseline over ${relative(process.cwd(), dir) || '.'}`, await measureFolder(dir), top);
  if (history) printHistory(`review --range over the history of ${history}`, measureHistory(history), top);
}
