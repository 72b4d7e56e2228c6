// Quality of the built-in baseline, not its speed:
//   1. recall and precision per family on the labelled corpus (test/fixtures/quality/);
//   2. findings per 10,000 lines on real code: node_modules and, where installed, Python's
//      standard library, each file reviewed as if added;
//   3. `revtrail review --range` over each commit of this repository's own history, and over the
//      whole tree of every repository named in REVTRAIL_QUALITY_REPOS (colon-separated paths).
// Real code is mostly clean of leaked keys, focused tests and conflict markers: what fires there
// is mostly noise. Repositories are cloned to a temporary folder first (a review writes state in
// the repository it reviews).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { git, root, row, tmp } from '../lib.mjs';
import { measureFolder, measureHistory, per10k, printFolder, printHistory } from '../noise.mjs';
import { spawnSync } from 'node:child_process';

export const name = 'quality';

const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const pct = (x) => `${(x * 100).toFixed(1)}%`;

async function corpus() {
  const { loadCorpus, runCase, score } = await load('test/kit/quality-corpus.js');
  const { allBuiltinRules } = await load('lib/review/builtin.js');
  const rules = allBuiltinRules();
  const cases = loadCorpus(join(root, 'test', 'fixtures', 'quality'));
  const outcomes = [];
  for (const c of cases) outcomes.push(await runCase(c, rules));
  const scores = score(outcomes);
  console.log(
    `quality corpus: ${cases.length} cases (${cases.filter((c) => c.expect.length).length} positive, ${cases.filter((c) => !c.expect.length).length} look-alike)`,
  );
  console.log('  family          positives  look-alikes  recall   precision  false findings');
  for (const s of scores) {
    console.log(
      `  ${s.family.padEnd(16)}${String(s.positives).padStart(9)}${String(s.negatives).padStart(13)}  ${pct(s.recall).padStart(6)}   ${pct(s.precision).padStart(9)}  ${String(s.falsePositives).padStart(14)}`,
    );
  }
  for (const o of outcomes.filter((x) => !x.ok))
    console.log(`  FAILS ${o.case.name} ${o.case.path}: ${o.case.why}; found ${JSON.stringify(o.found)}`);
  console.log('');
  return scores;
}

function pythonLib() {
  for (const base of ['/usr/lib', '/usr/local/lib']) {
    if (!existsSync(base)) continue;
    const dir = readdirSync(base)
      .filter((d) => /^python3\.\d+$/.test(d))
      .sort()
      .pop();
    if (dir) return join(base, dir);
  }
  return null;
}

function clone(source) {
  const dir = tmp('revtrail-bench-quality-');
  git(root, ['clone', '--quiet', '--no-local', source, dir]);
  return dir;
}

/** The whole tree of a repository as one added diff: `review --range <empty tree>..HEAD`. */
function measureTree(repo) {
  const empty = git(repo, ['hash-object', '-t', 'tree', '--stdin'], '').trim();
  let added = 0;
  for (const line of git(repo, ['diff', '--numstat', empty, 'HEAD']).split('\n')) {
    const n = Number(line.split('\t')[0]);
    if (Number.isFinite(n)) added += n;
  }
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin', 'revtrail.js'), 'review', '--range', `${empty}..HEAD`, '--format', 'json'],
    {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`review of ${repo} exited ${run.status}: ${run.stderr.slice(0, 300)}`);
  const result = JSON.parse(run.stdout);
  return {
    commits: 1,
    added,
    seconds,
    findings: result.findings.map((f) => ({ ...f, commit: 'HEAD' })),
    dropped: result.dropped,
  };
}

async function structuralCorpus() {
  const { loadStructuralCorpus, scoreStructural, overall } = await load('test/kit/structural-corpus.js');
  const corpus = loadStructuralCorpus(join(root, 'test', 'fixtures', 'structural'));
  const scores = await scoreStructural(corpus);
  console.log(`structural corpus: ${corpus.cases.length} cases; ast/imports rules beside the regexes they replace`);
  console.log('  rule              positives  look-alikes  recall   precision  regex recall  regex precision');
  for (const s of scores) {
    console.log(
      `  ${s.rule.padEnd(16)}${String(s.positives).padStart(11)}${String(s.negatives).padStart(13)}  ${pct(s.structural.recall).padStart(6)}   ${pct(s.structural.precision).padStart(9)}  ${pct(s.regex.recall).padStart(12)}  ${pct(s.regex.precision).padStart(15)}`,
    );
  }
  const all = overall(scores, corpus, 'structural');
  const rx = overall(scores, corpus, 'regex');
  console.log(
    `  ${'all'.padEnd(16)}${' '.repeat(24)}  ${pct(all.recall).padStart(6)}   ${pct(all.precision).padStart(9)}  ${pct(rx.recall).padStart(12)}  ${pct(rx.precision).padStart(15)}\n`,
  );
}

export async function run() {
  await corpus();
  await structuralCorpus();
  const folders = [join(root, 'node_modules'), pythonLib()].filter(Boolean);
  for (const dir of folders) printFolder(`real code: ${dir}`, await measureFolder(dir), 15);
  const rows = [];
  const self = clone(root);
  try {
    const history = measureHistory(self);
    printHistory('this repository, review --range per commit', history, 15);
    rows.push(
      row({
        scenario: 'quality: review --range, one commit of this repository',
        value: (history.seconds * 1000) / Math.max(history.commits, 1),
        target: 1500,
        kind: 'ms',
        note: `${per10k(history.findings.length, history.added)} findings per 10,000 added lines over ${history.commits} commits`,
      }),
    );
  } finally {
    rmSync(self, { recursive: true, force: true });
  }
  for (const repo of (process.env.REVTRAIL_QUALITY_REPOS ?? '').split(':').filter(Boolean)) {
    const copy = clone(repo);
    try {
      const tree = measureTree(copy);
      printHistory(
        `the tree of ${repo}, review --range <empty>..HEAD (dropped ${JSON.stringify(tree.dropped)})`,
        tree,
        15,
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
  return rows;
}
