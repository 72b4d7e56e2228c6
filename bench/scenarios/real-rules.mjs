// The team's own rules on real projects (issue 55): for each project under bench/real-rules/
// (a bundle written as its maintainers would, its labels, and project.json naming the fetched
// mirror and the pinned commit), the bundle's rules run in-process over (a) the last N commits
// touching the project's code, each reviewed as `revtrail review --range <c>^..<c>` sees it,
// and (b) the whole tree, every file as if added (ranges of 100 files, so that none is skipped
// for the rule phase's time budget; one review of it all counts what it skips). Every
// bundle-rule finding is written to a JSON file and matched with the labels
// (bench/real-rules/README.md): findings, true, false, unlabelled and precision per rule and
// mode. The TypeScript files of the tree are also parsed as revtrail parses them, and the ones
// ast-grep refuses are listed.
//
//   npm run bench -- real-rules            (every project whose mirror is on the machine)
//   REVTRAIL_REAL_RULES=flask npm run bench -- real-rules     (one project)
//   REVTRAIL_REAL_RULES_COMMITS=1000 npm run bench -- real-rules   (more commits than project.json's)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchEnv, git, root, row } from '../lib.mjs';
import { borrowCached, missing, mirrorOf } from '../real.mjs';

export const name = 'real-rules';

const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const base = join(root, 'bench', 'real-rules');
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const BATCH = 100;
const out = join(process.env.REVTRAIL_BENCH_CACHE || join(tmpdir(), 'revtrail-bench'), 'real-rules');

/** The key a label answers: the rule, the file and the flagged line's text, trimmed (README.md). */
export const keyOf = (f) => `${f.rule_source}\t${f.path}\t${f.text}`;

/** Labels of one mode: key → {label, reason, category}; a replay label may name its commit. */
function labelIndex(entries = []) {
  const byKey = new Map();
  for (const e of entries) {
    const key = keyOf(e);
    const at = e.commit ? `${e.commit.slice(0, 12)}\t${key}` : key;
    byKey.set(at, e);
  }
  return (f) => byKey.get(`${(f.commit ?? '').slice(0, 12)}\t${keyOf(f)}`) ?? byKey.get(keyOf(f));
}

/** The text of `path` at `rev`, split in lines, read once per (rev, path). */
function lineReader(dir) {
  const cache = new Map();
  return (rev, path, line) => {
    const key = `${rev}:${path}`;
    let lines = cache.get(key);
    if (!lines) {
      try {
        lines = git(dir, ['cat-file', 'blob', key]).split('\n');
      } catch {
        lines = [];
      }
      cache.set(key, lines);
    }
    return (lines[line - 1] ?? '').trim();
  };
}

async function reviewRange(session, runReview, dir, range, ruleSources) {
  return reviewSource(session, runReview, dir, { kind: 'range', range }, ruleSources);
}

/** The tree of `rev` without `paths` (a temporary index, so the checkout is not touched). */
function treeWithout(dir, rev, paths) {
  const index = join(dir, '.git', 'real-rules-index');
  const env = { ...benchEnv, GIT_INDEX_FILE: index };
  execFileSync('git', ['read-tree', rev], { cwd: dir, env });
  execFileSync('git', ['rm', '--cached', '-q', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd: dir,
    env,
    input: paths.join('\0'),
  });
  return execFileSync('git', ['write-tree'], { cwd: dir, env, encoding: 'utf8' }).trim();
}

async function reviewSource(session, runReview, dir, source, ruleSources) {
  const result = await runReview(session, {
    cwd: dir,
    source,
    reviewer: false,
    model: false,
    calibration: false,
    verdictTip: null,
  });
  return {
    findings: result.findings.filter((f) => ruleSources.has(f.rule_source)),
    warnings: result.warnings,
    merged: result.merged_findings,
  };
}

/** Counts per rule of one mode, with the labels' answers. */
function tally(findings, labelOf) {
  const rules = new Map();
  const noise = new Map();
  for (const f of findings) {
    const r = rules.get(f.rule_source) ?? { findings: 0, yes: 0, no: 0, unlabelled: 0 };
    r.findings++;
    const l = labelOf(f);
    f.label = l ? l.label : null;
    if (!l) r.unlabelled++;
    else if (l.label) r.yes++;
    else {
      r.no++;
      const c = l.category ?? 'other';
      noise.set(c, (noise.get(c) ?? 0) + 1);
    }
    rules.set(f.rule_source, r);
  }
  const total = { findings: 0, yes: 0, no: 0, unlabelled: 0 };
  for (const r of rules.values()) for (const k of Object.keys(total)) total[k] += r[k];
  return { rules, total, noise };
}

const precision = (t) => (t.yes + t.no ? t.yes / (t.yes + t.no) : null);

function printTally(project, mode, { rules, total, noise }) {
  const p = (t) => (precision(t) === null ? '-' : precision(t).toFixed(2));
  console.log(`${project}, ${mode}`);
  console.log(
    `  ${'rule'.padEnd(34)}${'findings'.padStart(9)}${'true'.padStart(6)}${'false'.padStart(7)}${'unlabelled'.padStart(12)}${'precision'.padStart(11)}`,
  );
  for (const [rule, t] of [...rules].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `  ${rule.padEnd(34)}${String(t.findings).padStart(9)}${String(t.yes).padStart(6)}${String(t.no).padStart(7)}${String(t.unlabelled).padStart(12)}${p(t).padStart(11)}`,
    );
  console.log(
    `  ${'all rules'.padEnd(34)}${String(total.findings).padStart(9)}${String(total.yes).padStart(6)}${String(total.no).padStart(7)}${String(total.unlabelled).padStart(12)}${p(total).padStart(11)}`,
  );
  if (noise.size)
    console.log(
      `  noise: ${[...noise]
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${n}`)
        .join(', ')}`,
    );
  console.log('');
}

/**
 * Every .ts/.tsx file of the tree parsed as revtrail parses it (languageOfPath, then ast-grep):
 * TypeScript for .ts, TSX for .tsx. A file with an ERROR node is one revtrail's structural rules
 * skip ("does not parse"); the first error's line and text say where.
 */
async function parseCount(dir, rev) {
  const { languageOfPath } = await load('lib/review/structural/languages.js');
  const { parseFile, hasErrors } = await load('lib/review/structural/match.js');
  const files = git(dir, ['ls-tree', '-r', '--name-only', rev])
    .split('\n')
    .filter((p) => /\.(ts|tsx|mts|cts)$/.test(p) && !p.endsWith('.d.ts'));
  const failed = [];
  let parsed = 0;
  for (const path of files) {
    const text = git(dir, ['cat-file', 'blob', `${rev}:${path}`]);
    const root = parseFile(languageOfPath(path), text);
    if (!hasErrors(root)) {
      parsed++;
      continue;
    }
    const error = root.root().find({ rule: { kind: 'ERROR' } });
    const at = error.range().start;
    failed.push({ path, line: at.line + 1, text: text.split('\n')[at.line].trim().slice(0, 100) });
  }
  return { total: files.length, parsed, failed };
}

async function measure(project, rows) {
  const folder = join(base, project);
  const spec = JSON.parse(readFileSync(join(folder, 'project.json'), 'utf8'));
  const mirror = mirrorOf(spec.slug);
  if (!mirror) {
    console.log(`${project}: skipped: ${missing(spec.slug)}\n`);
    rows.push(row({ scenario: `real-rules ${project}`, value: null, kind: 'info', note: missing(spec.slug) }));
    return;
  }
  const { openWorkspace } = await load('lib/workspace/index.js');
  const { runReview } = await load('lib/review/index.js');
  const dir = borrowCached(`real-rules-${project}`, mirror, spec.rev);
  const session = await openWorkspace(dir, { knowledge: join(folder, '.okfw') });
  const bundle = await session.bundle();
  const ruleSources = new Set(
    bundle.concepts.flatMap((c) => [...c.rules, ...(c.structural ?? [])].map((r) => r.ruleSource)),
  );
  const labels = existsSync(join(folder, 'labels.json'))
    ? JSON.parse(readFileSync(join(folder, 'labels.json'), 'utf8'))
    : {};
  const textAt = lineReader(dir);

  // (a) Replays: each commit's own change, as the commit-msg hook saw it.
  const count = Number(process.env.REVTRAIL_REAL_RULES_COMMITS) || spec.commits;
  const commits = git(dir, ['log', '--no-merges', '--format=%H', '-n', String(count), spec.rev, '--', ...spec.paths])
    .split('\n')
    .filter(Boolean);
  const replays = [];
  const replayWarnings = new Map();
  let started = Date.now();
  for (const commit of commits) {
    const r = await reviewRange(session, runReview, dir, `${commit}^..${commit}`, ruleSources);
    for (const w of r.warnings) replayWarnings.set(w, (replayWarnings.get(w) ?? 0) + 1);
    for (const f of r.findings)
      replays.push({
        commit,
        rule_source: f.rule_source,
        title: f.title,
        path: f.path,
        line: f.line,
        text: textAt(commit, f.path, f.line),
      });
  }
  const replayMs = Date.now() - started;

  // (b) The whole tree: every tracked file as if added. One review of it all says what the
  // rule phase's time budget skips; the findings come from reviews of 100 files at a time (the
  // tree less those files, diffed to the commit), so that every file is reached on a busy machine too.
  started = Date.now();
  const whole = await reviewRange(session, runReview, dir, `${EMPTY_TREE}..${spec.rev}`, ruleSources);
  const treeMs = Date.now() - started;
  const files = git(dir, ['ls-tree', '-r', '--name-only', spec.rev]).split('\n').filter(Boolean);
  const tree = [];
  const batchWarnings = [];
  for (let i = 0; i < files.length; i += BATCH) {
    // The tree without this batch's files, diffed to the commit: the batch as if added, the rest there for imports to resolve.
    const rest = treeWithout(dir, spec.rev, files.slice(i, i + BATCH));
    const r = await reviewRange(session, runReview, dir, `${rest}..${spec.rev}`, ruleSources);
    batchWarnings.push(...r.warnings);
    for (const f of r.findings)
      tree.push({
        rule_source: f.rule_source,
        title: f.title,
        path: f.path,
        line: f.line,
        text: textAt(spec.rev, f.path, f.line),
      });
  }

  const replayTally = tally(replays, labelIndex(labels.replays));
  const treeTally = tally(tree, labelIndex(labels.tree));
  const parse = await parseCount(dir, spec.rev);
  mkdirSync(out, { recursive: true });
  const file = join(out, `${project}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ project, rev: spec.rev, commits: commits.length, replays, tree, parse }, null, 2)}\n`,
  );

  console.log(`${project} (${spec.slug} at ${spec.rev.slice(0, 12)}): findings written to ${file}`);
  console.log(`  ${commits.length} commits replayed in ${(replayMs / 1000).toFixed(1)} s`);
  // How many files one whole-tree review skipped for time: the message names 3 and counts the rest.
  const skipped = whole.warnings
    .filter((w) => /used up their \d+ ms budget/.test(w))
    .map((w) => {
      const more = /and (\d+) more file/.exec(w);
      return Math.min(3, (w.split('not run on ')[1] ?? '').split(', ').length) + (more ? Number(more[1]) : 0);
    })
    .reduce((a, b) => a + b, 0);
  const batchSkipped = batchWarnings.filter((w) => /used up their \d+ ms budget/.test(w));
  const unparsed = [...new Set(batchWarnings.filter((w) => /does not parse|not valid/i.test(w)))];
  console.log(
    `  one whole-tree review (${(treeMs / 1000).toFixed(1)} s, ${whole.findings.length} findings): files skipped for the time budget: ${skipped}`,
  );
  console.log(
    `  the tree in ${Math.ceil(files.length / BATCH)} reviews of ${BATCH} files: ${tree.length} findings; batches over the budget: ${batchSkipped.length}`,
  );
  console.log(`  whole tree, files the structural rules could not parse: ${unparsed.length}`);
  for (const w of unparsed.slice(0, 20)) console.log(`    ${w.slice(0, 160)}`);
  if (parse.total) {
    console.log(`  .ts/.tsx files (no .d.ts) that parse as revtrail parses them: ${parse.parsed} of ${parse.total}`);
    for (const f of parse.failed) console.log(`    does not parse: ${f.path}:${f.line}: ${f.text}`);
  }
  console.log('');
  printTally(project, `replays (${commits.length} commits)`, replayTally);
  printTally(project, 'whole tree', treeTally);
  for (const [mode, t] of [
    ['replays', replayTally],
    ['whole tree', treeTally],
  ])
    rows.push(
      row({
        scenario: `real-rules ${project}, ${mode}: precision`,
        value: precision(t.total) === null ? null : 100 * precision(t.total),
        kind: 'info',
        unit: '%',
        note: `${project} ${mode}: ${t.total.findings} findings, ${t.total.yes} true, ${t.total.no} false, ${t.total.unlabelled} unlabelled`,
      }),
    );
}

export async function run() {
  const only = process.env.REVTRAIL_REAL_RULES?.split(',').filter(Boolean);
  const projects = readdirSync(base)
    .filter((d) => existsSync(join(base, d, 'project.json')))
    .filter((d) => !only || only.includes(d))
    .sort();
  const rows = [];
  for (const project of projects) await measure(project, rows);
  return rows;
}
