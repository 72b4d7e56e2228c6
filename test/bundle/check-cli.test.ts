import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, runCli, tempDir, throwawayRepos, writeFiles } from '../kit/repo.js';

const repo = throwawayRepos();

test('check: a broken bundle prints file:line: message for each problem and exits 1', async () => {
  const r = repo();
  writeFiles(join(r.dir, '.okfw'), {
    'index.md':
      '- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n- [d](d.md)\n- [e](e.md)\n- [out](../outside.md)\n- [sym](sym.md)\n- [sub](sub/index.md)\n',
    'sub/index.md': '[home](/index.md)\n',
    'a.md':
      '---\ntype: Note\nid: dup\npaths: ["src/[x"]\nrules:\n  - id: r1\n    pattern: "a(b"\n    severity: bug\n    title: T\n---\n',
    'b.md': '---\ntype: Note\nid: dup\n---\n',
    'c.md': '---\ntitle: no type\n---\n',
    'd.md': '---\ntype: [unclosed\n---\n',
    'e.md': 'no frontmatter\n',
  });
  writeFileSync(join(r.dir, 'outside.md'), '---\ntype: Note\n---\n');
  symlinkSync(join(r.dir, 'outside.md'), join(r.dir, '.okfw', 'sym.md'));
  mkdirSync(join(r.dir, 'src'));
  const run = await runCli(['knowledge', 'check'], { cwd: join(r.dir, 'src') });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.deepEqual(lines.slice(0, 3), [
    '../.okfw/a.md:4: `paths`: invalid glob "src/[x": Missing closing: "]" - use "\\\\]" to match literal characters',
    '../.okfw/a.md:7: rule "r1": pattern does not compile: Invalid regular expression: /a(b/: Unterminated group',
    '../.okfw/b.md:3: duplicate concept id "dup" (also ../.okfw/a.md); this one is ignored',
  ]);
  assert.ok(lines.includes('../.okfw/index.md:6: warning: link to ../outside.md leaves the bundle; ignored'));
  assert.ok(
    lines.some((l) => l.startsWith('../.okfw/index.md:7: warning: link to sym.md resolves (through a symlink) to ')),
  );
  assert.ok(
    lines.includes(
      '../.okfw/sub/index.md:1: warning: link back to /index.md, which links here already (an index cycle); not followed again',
    ),
  );
  assert.ok(
    lines.includes('../.okfw/c.md:1: warning: no `type` in the frontmatter (OKF requires a non-empty type); skipped'),
  );
  assert.ok(lines.some((l) => /^\.\.\/\.okfw\/d\.md:\d: warning: frontmatter is not valid YAML/.test(l)));
  assert.ok(
    lines.includes('../.okfw/e.md:1: warning: no YAML frontmatter (a concept starts with a --- line); skipped'),
  );
  assert.equal(lines.at(-1), '../.okfw: 1 concept, 0 rules, 3 errors, 6 warnings');
  assert.equal(run.stderr, '');

  const json = await runCli(['knowledge', 'check', '--json', '.okfw'], { cwd: r.dir });
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout);
  assert.equal(report.bundle, '.okfw');
  assert.deepEqual(report.concepts, [{ id: 'dup', file: 'a.md', type: 'Note', title: 'dup', rules: [] }]);
  assert.deepEqual(report.errors[2], {
    file: '.okfw/b.md',
    line: 3,
    message: 'duplicate concept id "dup" (also .okfw/a.md); this one is ignored',
  });
  assert.equal(report.warnings.length, 6);
});

test('check: warnings alone exit 0; a DIR argument works outside a repository', async () => {
  const dir = tempDir();
  writeFiles(join(dir, 'kb'), {
    'index.md': '[gone](gone.md)\n[fixture](ok.md)\n',
    'ok.md': '---\ntype: Note\ndomain: x\n---\n# OK\n',
  });
  const run = await runCli(['knowledge', 'check', 'kb'], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: dir } });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout,
    'kb/index.md:1: warning: link to gone.md: no such file\nkb: 1 concept, 0 rules, 0 errors, 1 warning\n',
  );
});

test('check: a bundle folder that does not exist is an input error naming it (exit 2)', async () => {
  const r = repo();
  const run = await runCli(['knowledge', 'check'], { cwd: r.dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^revtrail: knowledge bundle \.okfw does not exist\n {2}.*revtrail init/);
  const named = await runCli(['knowledge', 'check', 'no/such/dir'], { cwd: r.dir });
  assert.equal(named.code, 2);
  assert.match(named.stderr, /knowledge bundle no\/such\/dir does not exist/);
  r.write('file.md', 'x');
  const file = await runCli(['knowledge', 'check', 'file.md'], { cwd: r.dir });
  assert.equal(file.code, 2);
  assert.match(file.stderr, /knowledge bundle file\.md is not a folder/);
});

test('check: the shop fixture is clean apart from its back link', async () => {
  const r = repo();
  const run = await runCli(['knowledge', 'check', join(fixturesDir, 'bundle', 'shop'), '--json'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stdout);
  const report = JSON.parse(run.stdout);
  assert.deepEqual(
    report.concepts.map((c: { id: string }) => c.id),
    ['adr-repos', 'adr-store', 'adr-billing', 'adr-http', 'adr-geo', 'glossary'],
  );
  assert.deepEqual(report.errors, []);
  assert.deepEqual(
    report.warnings.map((w: { message: string }) => w.message),
    ['link back to ../index.md, which links here already (an index cycle); not followed again'],
  );
});

test('usage errors: select-only options on check, a folder argument on select', async () => {
  const r = repo();
  const a = await runCli(['knowledge', 'check', '--staged'], { cwd: r.dir });
  assert.equal(a.code, 2);
  assert.equal(a.stderr, 'revtrail: Unknown argument: staged\n  Run revtrail knowledge --help for its usage.\n');
  const b = await runCli(['knowledge', 'select', 'somewhere'], { cwd: r.dir });
  assert.equal(b.code, 2);
  assert.match(b.stderr, /^revtrail: Unknown argument: somewhere\n/);
  const c = await runCli(['knowledge', 'lint'], { cwd: r.dir });
  assert.equal(c.code, 2);
  assert.match(c.stderr, /^revtrail: Unknown argument: lint\n/);
});

test('check: a glob too costly to match is a warning naming file:line, and the concept still loads', async () => {
  const dir = tempDir();
  writeFiles(join(dir, 'kb'), {
    'index.md': '- [slow](slow.md)\n',
    'slow.md': '---\ntype: Note\nid: slow\npaths:\n  - "src/**"\n  - "*a*a*a*a*a*a*a*a*a*a*a*a*b"\n---\n# Slow\n',
  });
  const run = await runCli(['knowledge', 'check', 'kb'], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: dir } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /^kb\/slow\.md:6: warning: `paths`: glob "\*a\*a\*a\*a\*a\*a\*a\*a\*a\*a\*a\*a\*b" skipped: a segment with 13 wildcards \(at most 2\)/m,
  );
  assert.match(run.stdout, /kb: 1 concept, 0 rules, 0 errors, 1 warning\n$/);
});
