/**
 * The hook registry (lib/hooks/registry.ts, docs/hooks.md "The hooks, and adding one"): one record per file
 * of lib/hooks/hook/, and every list of hooks derived from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_HOOKS, HOOK_RECORDS, RUNNABLE_HOOKS } from '../../lib/hooks/registry.js';
import { HOOKS } from '../../lib/install/install.js';
import { codeCacheFile } from '../../lib/start/code-cache.js';
import { makeRepo, projectRoot, runCli } from '../kit/repo.js';

test('one record per file of lib/hooks/hook/, named as its file', () => {
  const files = readdirSync(join(projectRoot, 'lib', 'hooks', 'hook'))
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.slice(0, -3))
    .sort();
  assert.deepEqual(
    HOOK_RECORDS.map((r) => r.name),
    files,
  );
  assert.ok(files.includes('commit-msg') && files.includes('pre-receive'), files.join(' '));
});

test('install writes the client hooks, each from a template in hooks/; the server hooks are not among them', () => {
  assert.deepEqual(
    HOOKS,
    CLIENT_HOOKS.map((r) => r.name),
  );
  assert.ok(!HOOKS.includes('pre-receive') && !HOOKS.includes('update'));
  for (const r of HOOK_RECORDS) assert.ok(existsSync(join(projectRoot, 'hooks', r.script ?? 'hook')), r.name);
  // The generic script serves every hook that names no template of its own.
  assert.equal(HOOK_RECORDS.find((r) => r.name === 'commit-msg')?.script, undefined);
});

test('the start-up gives a code cache of its own exactly to the records that ask for one', () => {
  for (const r of HOOK_RECORDS)
    assert.match(
      codeCacheFile('hook.cjs', r.name),
      new RegExp(`^hook\\.cjs\\.${r.cached ? r.name : 'other'}\\.`),
      r.name,
    );
  assert.match(codeCacheFile('hook.cjs', 'nonsense'), /^hook\.cjs\.other\./);
  // The starter holds the records' data, never a handler (scripts/build.mjs keeps their imports out).
  const starter = readFileSync(join(projectRoot, 'dist', 'cli', 'hook-start.cjs'), 'utf8');
  assert.match(starter, /\/\/ lib\/hooks\/hook\/commit-msg\.ts/);
  assert.doesNotMatch(starter, /\/\/ lib\/hooks\/commit-msg\.ts/);
});

test('revtrail hook dispatches by the records: an unknown name lists every runnable hook, --help shows each', async () => {
  const repo = makeRepo();
  const unknown = await runCli(['hook', 'no-such-hook'], { cwd: repo.dir });
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /unknown hook "no-such-hook"/);
  for (const r of RUNNABLE_HOOKS)
    assert.ok(unknown.stderr.includes(`revtrail hook ${r.name}`), `${r.name}: ${unknown.stderr}`);
  assert.ok(!unknown.stderr.includes('revtrail hook post-checkout'), 'post-checkout has no handler');
  const help = await runCli(['hook', '--help'], { cwd: repo.dir });
  assert.equal(help.code, 0, help.stderr);
  for (const r of RUNNABLE_HOOKS) assert.ok(help.stdout.includes(`hook ${r.name}`), `${r.name}: ${help.stdout}`);
  // A hook's own argument check: commit-msg needs the message file.
  const noFile = await runCli(['hook', 'commit-msg'], { cwd: repo.dir });
  assert.equal(noFile.code, 2, noFile.stderr);
  assert.match(noFile.stderr, /needs the message FILE/);
});

test('every hook an older install calls is still a hook revtrail runs (their blocks call revtrail hook NAME)', () => {
  // The self-contained blocks earlier versions wrote (.husky/post-merge had its own template)
  // and the server scripts call these names: dropping one would break installs in the field.
  const called = [
    'commit-msg',
    'prepare-commit-msg',
    'post-commit',
    'post-merge',
    'post-rewrite',
    'pre-push',
    'pre-receive',
    'update',
  ];
  const runnable = new Set(RUNNABLE_HOOKS.map((r) => r.name));
  assert.deepEqual(
    called.filter((name) => !runnable.has(name)),
    [],
  );
});
