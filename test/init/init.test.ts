import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { throwawayRepos, runCli, tempDir } from '../kit/repo.js';

const repo = throwawayRepos();
const ADR = '.okfw/decisions/adr-0001-controllers-do-not-talk-to-the-database.md';

test('init from a subfolder writes the config and a starter bundle at the top level, and says what it wrote', async () => {
  const r = repo();
  mkdirSync(join(r.dir, 'deep', 'er'), { recursive: true });
  const run = await runCli(['init'], { cwd: join(r.dir, 'deep', 'er') });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^ {2}wrote revtrail\.config\.json$/m);
  assert.match(run.stdout, /^ {2}wrote \.okfw\/index\.md$/m);
  assert.match(run.stdout, new RegExp(`^  wrote ${ADR.replace(/\./g, '\\.')}$`, 'm'));
  assert.match(run.stdout, /revtrail knowledge select --staged/);
  const config = JSON.parse(readFileSync(join(r.dir, 'revtrail.config.json'), 'utf8'));
  assert.equal(config.knowledge, '.okfw');
  assert.match(
    readFileSync(join(r.dir, '.okfw', 'index.md'), 'utf8'),
    /\(decisions\/adr-0001-controllers-do-not-talk-to-the-database\.md\)/,
  );
  const adr = readFileSync(join(r.dir, ADR), 'utf8');
  for (const key of ['paths:', 'domain:', 'rules:', 'type: Architecture Decision']) assert.ok(adr.includes(key), key);
  assert.equal(existsSync(join(r.dir, 'deep', 'er', 'revtrail.config.json')), false);
});

test('init never overwrites: existing files are kept and named; a second run writes nothing', async () => {
  const r = repo();
  r.write('revtrail.config.json', '{ "chunkLines": 50 }\n');
  const first = await runCli(['init', '--json'], { cwd: r.dir });
  assert.equal(first.code, 0, first.stderr);
  const report = JSON.parse(first.stdout);
  assert.deepEqual(report.written, [
    '.okfw/decisions/adr-0001-controllers-do-not-talk-to-the-database.md',
    '.okfw/index.md',
  ]);
  assert.deepEqual(report.skipped, [{ path: 'revtrail.config.json', reason: 'exists' }]);
  assert.equal(readFileSync(join(r.dir, 'revtrail.config.json'), 'utf8'), '{ "chunkLines": 50 }\n');
  r.write('.okfw/index.md', '# mine\n');
  const second = await runCli(['init'], { cwd: r.dir });
  assert.equal(second.code, 0);
  assert.match(second.stdout, /kept {2}revtrail\.config\.json \(it exists; not overwritten\)/);
  assert.match(second.stdout, /kept {2}\.okfw\/ \(it has an index\.md already; no starter concepts added\)/);
  assert.match(second.stdout, /Nothing written/);
  assert.equal(readFileSync(join(r.dir, '.okfw', 'index.md'), 'utf8'), '# mine\n');
});

test('init honours a configured bundle folder and a config in package.json', async () => {
  const r = repo();
  r.write('package.json', JSON.stringify({ name: 'x', revtrail: { knowledge: 'docs/kb' } }));
  const run = await runCli(['init', '--json'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.deepEqual(report.written, [
    'docs/kb/decisions/adr-0001-controllers-do-not-talk-to-the-database.md',
    'docs/kb/index.md',
  ]);
  assert.deepEqual(report.skipped, [{ path: 'package.json#revtrail', reason: 'config-in-package-json' }]);
  assert.equal(existsSync(join(r.dir, 'revtrail.config.json')), false);
});

test('init outside a git work tree is an input error', async () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = await runCli(['init'], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: dir } });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /is not inside a git work tree/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});

test('newcomer flow: init, the starter bundle passes check, a staged controller change shows the ADR and why', async () => {
  const r = repo();
  assert.equal((await runCli(['init'], { cwd: r.dir })).code, 0);
  const check = await runCli(['knowledge', 'check'], { cwd: r.dir });
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.equal(check.stdout.trim(), '.okfw: 1 concept, 3 rules, 0 errors, 0 warnings');
  r.write('src/controllers/users.ts', 'import { Pool } from "pg";\nexport const list = () => db.query("select 1");\n');
  r.write('src/services/users.ts', 'export const users = 1;\n');
  r.git(['add', 'src']);
  const select = await runCli(['knowledge', 'select', '--staged'], { cwd: join(r.dir, 'src') });
  assert.equal(select.code, 0, select.stderr);
  assert.match(
    select.stdout,
    /^src\/controllers\/users\.ts\n {2}adr-0001 {2}paths: src\/controllers\/\*\* {2}\(\d+ tokens\)\n {6}rules: no-sql-import \(pattern\), no-db-query \(ast\), no-db-layer-import \(imports\)\nsrc\/services\/users\.ts\n {2}no governing documents\n$/,
  );
  const json = JSON.parse((await runCli(['knowledge', 'select', '--staged', '--json'], { cwd: r.dir })).stdout);
  assert.deepEqual(json.chunks[0], {
    path: 'src/controllers/users.ts',
    piece: 1,
    namespace: null,
    documents: [
      {
        id: 'adr-0001',
        match: 'paths',
        matched: 'src/controllers/**',
        tokens: json.chunks[0].documents[0].tokens,
        truncated: false,
        rules: [
          { id: 'no-sql-import', kind: 'pattern' },
          { id: 'no-db-query', kind: 'ast', language: 'typescript' },
          { id: 'no-db-layer-import', kind: 'imports' },
        ],
      },
    ],
  });
  assert.ok(Number(json.chunks[0]?.documents[0]?.tokens) > 100);
  assert.deepEqual(json.warnings, []);
});

test("init's next step is the install that works here: the manager's route beside lefthook or pre-commit, --force beside another core.hooksPath", async () => {
  const plain = repo();
  const run = await runCli(['init'], { cwd: plain.dir });
  assert.match(run.stdout, /^ {2}3\. revtrail install {2,}installs the commit-msg and pre-push hooks$/m);

  for (const [file, manager] of [
    ['lefthook.yml', 'lefthook'],
    ['.pre-commit-config.yaml', 'pre-commit'],
  ] as const) {
    const r = repo();
    r.write(file, 'repos: []\n');
    const said = await runCli(['init'], { cwd: r.dir });
    assert.equal(said.code, 0, said.stderr);
    assert.match(
      said.stdout,
      new RegExp(`^ {2}3\\. revtrail install --${manager} +adds the commit-msg and pre-push hooks`, 'm'),
    );
    assert.doesNotMatch(said.stdout, /^ {2}3\. revtrail install +installs/m);
    // Plain install refuses there, and says the same route.
    const refused = await runCli(['install'], { cwd: r.dir });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`revtrail install --${manager}`));
  }

  const elsewhere = repo();
  elsewhere.git(['config', 'core.hooksPath', '.githooks']);
  const said = await runCli(['init', '--doc-map'], { cwd: elsewhere.dir });
  assert.match(
    said.stdout,
    /^ {2}3\. revtrail install --force +installs the commit-msg and pre-push hooks through husky$/m,
  );
  assert.match(said.stdout, /core\.hooksPath is \.githooks: its hooks keep running, chained/);
});

test("init beside a config that takes revtrail from its repository (lefthook's remotes:, pre-commit's repo:) names that manager's own install, never revtrail install --<manager>", async () => {
  for (const [file, text, step] of [
    [
      'lefthook.yml',
      'remotes:\n  - git_url: https://example.com/team/revtrail\n    ref: v0.1.0\n    configs:\n      - hooks/lefthook.yml\n',
      /^ {2}3\. lefthook install +fetches revtrail's hooks\/lefthook\.yml and writes git's hooks$/m,
    ],
    [
      '.pre-commit-config.yaml',
      'repos:\n  - repo: https://example.com/team/revtrail\n    rev: v0.1.0\n    hooks:\n      - id: revtrail-commit-msg\n      - id: revtrail-pre-push\n',
      /^ {2}3\. pre-commit install --hook-type commit-msg --hook-type pre-push$/m,
    ],
  ] as const) {
    const r = repo();
    r.write(file, text);
    const said = await runCli(['init'], { cwd: r.dir });
    assert.equal(said.code, 0, said.stderr);
    assert.match(said.stdout, step);
    assert.doesNotMatch(said.stdout, /revtrail install/);
  }
});
