import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, throwawayRepos, runCli } from '../kit/repo.js';

const repo = throwawayRepos();
const shop = join(fixturesDir, 'bundle', 'shop');
interface Report {
  chunks: Array<{
    path: string;
    piece: number;
    namespace: string | null;
    documents: Array<{ id: string; match: string; matched: string; tokens: number; truncated: boolean }>;
  }>;
  warnings: string[];
}
const byPath = (report: Report) =>
  Object.fromEntries(
    report.chunks.map((c) => [
      c.path,
      { ns: c.namespace, docs: c.documents.map((d) => `${d.id} ${d.match}:${d.matched}`) },
    ]),
  );

test('select --staged: namespaces of Go, C#, PHP, C++ and TypeScript pick their documents', async () => {
  const r = repo();
  r.commit('base', { 'README.md': 'x\n' });
  r.write('store/db.go', 'package store\n\nfunc Open() {}\n');
  r.write('src/Data/Repo.cs', 'namespace Shop.Repositories.Sql;\n\npublic class Repo {}\n');
  r.write('src/Data/Other.cs', 'namespace Shop.Repo;\n');
  r.write('app/Controller.php', '<?php\nnamespace App\\Http\\Controllers;\n');
  r.write('geo/point.hpp', 'namespace geo {\ninline namespace v2 {\nstruct Point {};\n}\n}\n');
  r.write('src/billing/tax.ts', 'export namespace Billing {\n  export const rate = 1;\n}\n');
  r.write('lib/money.ts', 'export declare namespace Billing.Money {\n}\n');
  r.git(['add', '-A']);
  const run = await runCli(['knowledge', 'select', '--staged', '--json', '--knowledge', shop], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  assert.deepEqual(byPath(report), {
    'app/Controller.php': { ns: 'App\\Http\\Controllers', docs: ['adr-http domain:App\\Http'] },
    'geo/point.hpp': { ns: 'geo::v2', docs: ['adr-geo domain:geo::v2'] },
    'lib/money.ts': { ns: 'Billing.Money', docs: ['adr-billing domain:Billing'] },
    'src/Data/Other.cs': { ns: 'Shop.Repo', docs: [] },
    'src/Data/Repo.cs': { ns: 'Shop.Repositories.Sql', docs: ['adr-repos domain:Shop.Repositories'] },
    'src/billing/tax.ts': { ns: 'Billing', docs: ['adr-billing paths:src/billing/**/*.ts'] },
    'store/db.go': { ns: 'store', docs: ['adr-store domain:store'] },
  });
  assert.deepEqual(
    report.warnings.map((w) => w.replace(/^.*?index\.md:/, 'index.md:')),
    ['index.md:8: warning: link back to ../index.md, which links here already (an index cycle); not followed again'],
  );
});

test('select --diff FILE, --diff - and --range give the same selection; the default is the work tree', async () => {
  const r = repo();
  const base = r.commit('base', { 'src/Shop/Repositories/Users.java': 'class Users {}\n' });
  const tip = r.commit('change', { 'src/Shop/Repositories/Users.java': 'class Users {\n  int n;\n}\n' });
  const diff = r.git(['diff', `${base}..${tip}`]);
  writeFileSync(join(r.dir, 'change.diff'), diff);
  // The default diff takes untracked files too: the diff file is kept out of it the way a user would.
  mkdirSync(join(r.dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(r.dir, '.git', 'info', 'exclude'), 'change.diff\n');
  const expected = { 'src/Shop/Repositories/Users.java': { ns: null, docs: ['adr-repos domain:Shop.Repositories'] } };
  for (const args of [
    ['--diff', 'change.diff'],
    ['--range', `${base}..${tip}`],
    ['--range', 'HEAD~1...HEAD'],
  ]) {
    const run = await runCli(['knowledge', 'select', ...args, '--json', '--knowledge', shop], { cwd: r.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(byPath(JSON.parse(run.stdout)), expected, args.join(' '));
  }
  const stdin = await runCli(['knowledge', 'select', '--diff', '-', '--json', '--knowledge', shop], {
    cwd: r.dir,
    input: diff,
  });
  assert.deepEqual(byPath(JSON.parse(stdin.stdout)), expected);
  r.write('store/x.go', 'package store\n');
  r.git(['add', 'store/x.go']);
  r.write('store/x.go', 'package store\n\nvar X = 1\n');
  const worktree = await runCli(['knowledge', 'select', '--json', '--knowledge', shop], { cwd: join(r.dir, 'store') });
  assert.deepEqual(byPath(JSON.parse(worktree.stdout)), {
    'store/x.go': { ns: 'store', docs: ['adr-store domain:store'] },
  });
});

test('select: a path with a newline, a rename matched by its old path, the text output says why', async () => {
  const r = repo();
  r.commit('base', { 'src/billing/old.ts': 'export const a = 1;\n', 'lib/keep.ts': '\n' });
  r.git(['mv', 'src/billing/old.ts', 'lib/new.ts']);
  r.write('store/we\nird.go', 'package store\n');
  r.git(['add', '-A']);
  const run = await runCli(['knowledge', 'select', '--staged', '--json', '--knowledge', shop], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(byPath(JSON.parse(run.stdout)), {
    'lib/new.ts': { ns: null, docs: ['adr-billing paths:src/billing/**/*.ts'] },
    'store/we\nird.go': { ns: 'store', docs: ['adr-store domain:store'] },
  });
  const text = await runCli(['knowledge', 'select', '--staged', '--knowledge', shop], { cwd: r.dir });
  assert.match(
    text.stdout,
    /^lib\/new\.ts \(from src\/billing\/old\.ts\)\n {2}adr-billing {2}paths: src\/billing\/\*\*\/\*\.ts {2}\(\d+ tokens\)$/m,
  );
  assert.match(text.stderr, /index cycle/);
});

test('select: the budget cuts the list and the best match is truncated when alone over budget', async () => {
  const r = repo();
  r.write('revtrail.config.json', JSON.stringify({ maxKnowledgeTokens: 5 }));
  r.write('geo/a.cpp', 'namespace geo::v2 {\n}\n');
  r.git(['add', '-A']);
  const run = await runCli(['knowledge', 'select', '--staged', '--json', '--knowledge', shop], { cwd: r.dir });
  const docs = (JSON.parse(run.stdout) as Report).chunks.find((c) => c.path === 'geo/a.cpp')!.documents;
  assert.deepEqual(docs, [
    { id: 'adr-geo', match: 'domain', matched: 'geo::v2', tokens: 5, truncated: true, rules: [] },
  ]);
  const text = await runCli(['knowledge', 'select', '--staged', '--knowledge', shop], { cwd: r.dir });
  assert.match(text.stdout, /adr-geo {2}domain: geo::v2 {2}\(5 tokens, truncated to fit the budget\)/);
});

test('select: a missing bundle gives no documents and one warning; bad diffs and sources are input errors', async () => {
  const r = repo();
  r.write('a.ts', 'x\n');
  r.git(['add', '-A']);
  const run = await runCli(['knowledge', 'select', '--staged', '--json', '--knowledge', 'nowhere'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    chunks: [{ path: 'a.ts', piece: 1, namespace: null, documents: [] }],
    warnings: ['nowhere: warning: knowledge bundle nowhere does not exist: no documents are selected'],
  });
  const notDiff = await runCli(['knowledge', 'select', '--diff', join(fixturesDir, 'diff', 'not-a-diff.txt')], {
    cwd: r.dir,
  });
  assert.equal(notDiff.code, 2);
  assert.match(notDiff.stderr, /not-a-diff\.txt is not a unified diff/);
  assert.doesNotMatch(notDiff.stderr, /\n\s+at /);
  const missing = await runCli(['knowledge', 'select', '--diff', 'missing.diff'], { cwd: r.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /diff file missing\.diff does not exist/);
  const noValue = await runCli(['knowledge', 'select', '--range', '--json'], { cwd: r.dir });
  assert.equal(noValue.code, 2);
  assert.match(noValue.stderr, /Not enough arguments following: range/);
  const emptyValue = await runCli(['knowledge', 'select', '--range='], { cwd: r.dir });
  assert.equal(emptyValue.code, 2);
  assert.match(emptyValue.stderr, /--range needs a value/);
  const two = await runCli(['knowledge', 'select', '--staged', '--range', 'a..b'], { cwd: r.dir });
  assert.equal(two.code, 2);
  assert.match(two.stderr, /use only one of --staged, --range and --diff/);
  const badRange = await runCli(['knowledge', 'select', '--range', 'nope..main'], { cwd: r.dir });
  assert.equal(badRange.code, 2);
  assert.match(badRange.stderr, /git diff nope\.\.main failed/);
  assert.equal(readFileSync(join(fixturesDir, 'diff', 'not-a-diff.txt'), 'utf8').includes('diff --git'), false);
});

test('select: nothing changed prints so; an empty repository diffs against the empty tree', async () => {
  const r = repo();
  const empty = await runCli(['knowledge', 'select', '--knowledge', shop], { cwd: r.dir });
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /^No changes to select knowledge for\.$/m);
  r.write('store/s.go', 'package store\n');
  r.git(['add', '-A']);
  const first = await runCli(['knowledge', 'select', '--staged', '--json', '--knowledge', shop], { cwd: r.dir });
  assert.deepEqual(byPath(JSON.parse(first.stdout)), {
    'store/s.go': { ns: 'store', docs: ['adr-store domain:store'] },
  });
});

test('select, default diff: an untracked file is a chunk with its documents; an ignored one is not; the index is untouched', async () => {
  const r = repo();
  r.commit('base', { 'README.md': 'x\n', '.gitignore': 'vendor/\n' });
  r.write('store/new repo.go', 'package store\n\nfunc New() {}\n');
  r.write('vendor/store/lib.go', 'package store\n');
  const index = readFileSync(join(r.dir, '.git', 'index'));
  const run = await runCli(['knowledge', 'select', '--json', '--knowledge', shop], { cwd: join(r.dir, 'store') });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(byPath(JSON.parse(run.stdout)), {
    'store/new repo.go': { ns: 'store', docs: ['adr-store domain:store'] },
  });
  const text = await runCli(['knowledge', 'select', '--knowledge', shop], { cwd: r.dir });
  assert.match(text.stdout, /^store\/new repo\.go {2}namespace store\n {2}adr-store {2}domain: store /m);
  assert.deepEqual(readFileSync(join(r.dir, '.git', 'index')), index);
  assert.equal(r.git(['diff', '--cached', '--stat']), '');
  const staged = await runCli(['knowledge', 'select', '--staged', '--json', '--knowledge', shop], { cwd: r.dir });
  assert.deepEqual(JSON.parse(staged.stdout).chunks, []);
});
