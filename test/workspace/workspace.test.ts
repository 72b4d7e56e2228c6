/**
 * The workspace (lib/workspace): the repository found once, the config loaded once, the bundle
 * loaded once per folder; `knowledge check` runs on one (lib/review/knowledge-check.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, throwawayRepos, writeFiles } from '../kit/repo.js';
import { openWorkspace } from '../../lib/workspace/index.js';
import { checkKnowledge } from '../../lib/review/knowledge-check.js';

const repo = throwawayRepos();

const bundle = {
  '.okfw/index.md': '- [a](a.md)\n',
  '.okfw/a.md':
    '---\ntype: Note\nid: a\nrules:\n  - id: r1\n    pattern: "console\\\\.log"\n    severity: nit\n    title: no logs\n---\n',
};

test('knowledge check finds the repository with one git rev-parse, from a subfolder, with a config and excludes', async () => {
  const r = repo();
  writeFiles(r.dir, {
    ...bundle,
    'revtrail.config.json': JSON.stringify({ exclude: { 'a:r1': ['gen/**'] } }),
    'src/x.ts': '',
  });
  const trace = join(tempDir(), 'trace');
  const run = await runCli(['knowledge', 'check'], { cwd: join(r.dir, 'src'), env: { GIT_TRACE: trace } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(run.stdout, '../.okfw: 1 concept, 1 rule, 0 errors, 0 warnings\n');
  const revParses = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => / git rev-parse /.test(l));
  assert.equal(revParses.length, 1, revParses.join('\n'));
});

test('the config is read when the workspace opens and not again: the check uses what was loaded', async () => {
  const r = repo();
  writeFiles(r.dir, { ...bundle, 'revtrail.config.json': '{"knowledge": ".okfw"}\n' });
  const ws = await openWorkspace(r.dir, { configCache: false });
  assert.equal(ws.repo?.top, r.dir);
  assert.equal(ws.configFile, join(r.dir, 'revtrail.config.json'));
  // A config broken after the workspace opened is not seen: nothing reads it a second time.
  writeFileSync(join(r.dir, 'revtrail.config.json'), '{ not json');
  const result = await checkKnowledge(ws);
  assert.equal(result.exitCode, 0);
  assert.deepEqual(result.errors, []);
  assert.equal(result.rules, 1);
  // The bundle of a folder loads once however many ask for it.
  assert.equal(ws.bundle(ws.knowledge, { audit: true }), ws.bundle(ws.knowledge, { audit: true }));
});

test('a config that cannot be used: the workspace holds the defaults and the error; check with DIR reports it (exit 2), without DIR stops', async () => {
  const r = repo();
  writeFiles(r.dir, { ...bundle, 'revtrail.config.json': '{"minConfidense": 1}\n' });
  const ws = await openWorkspace(r.dir, { configCache: false });
  assert.match(ws.configError?.message ?? '', /minConfidense/);
  assert.equal(ws.config.knowledge, '.okfw');
  const withDir = await checkKnowledge(ws, '.okfw');
  assert.equal(withDir.exitCode, 2);
  assert.match(withDir.errors[0]!.message, /minConfidense/);
  await assert.rejects(checkKnowledge(ws), /minConfidense/);
});

test('outside a repository: only when allowed, with the start folder and the defaults', async () => {
  const outside = tempDir();
  const env = process.env.GIT_CEILING_DIRECTORIES;
  process.env.GIT_CEILING_DIRECTORIES = outside;
  try {
    await assert.rejects(openWorkspace(outside), /not inside a git work tree/);
    const ws = await openWorkspace(outside, { needRepo: false });
    assert.equal(ws.repo, null);
    assert.equal(ws.top, outside);
    assert.equal(ws.configFile, null);
  } finally {
    if (env === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
    else process.env.GIT_CEILING_DIRECTORIES = env;
  }
});
