/**
 * The hooks that keep the record (docs/record.md): install writes them through husky beside
 * commit-msg and pre-push, uninstall removes them, and on a clean commit they cost no process:
 * revtrail runs once (commit-msg), and the others only when they have something to do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, makeRepo } from '../kit/repo.js';
import { DEBUGGER_LINE, withRun, type HookRepo } from '../kit/hooks.js';

const RECORD_HOOKS = ['prepare-commit-msg', 'post-commit', 'post-merge', 'post-rewrite'];
// Repositories are tempDirs, removed when this file's tests end (test/kit/repo.ts).

/** A CLI shim that logs each call (its arguments) before running the real CLI. */
function loggingRepo(): { r: HookRepo; calls: () => string[] } {
  const r = withRun(makeRepo());
  const log = join(r.dir, '.git', 'calls.log');
  writeFileSync(log, '');
  r.write(
    'node_modules/.bin/revtrail',
    `#!/bin/sh\necho "$*" >> '${log}'\nexec '${process.execPath}' '${cliPath}' "$@"\n`,
  );
  chmodSync(join(r.dir, 'node_modules', '.bin', 'revtrail'), 0o755);
  r.write('.gitignore', 'node_modules/\n');
  return {
    r,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('hook '))
        .map((l) => l.split(' ').slice(0, 2).join(' ')),
  };
}

test('install writes the record hooks through husky; uninstall removes them', async () => {
  const { r } = loggingRepo();
  const run = await r.cli(['install']);
  assert.equal(run.code, 0, run.stderr);
  for (const name of RECORD_HOOKS) {
    assert.match(run.stdout, new RegExp(`created \\.husky/${name}`));
    const text = readFileSync(join(r.dir, '.husky', name), 'utf8');
    assert.match(text, /^# >>> revtrail >>>\n/);
    assert.match(text, new RegExp(`hook ${name}`));
    assert.ok(existsSync(join(r.dir, '.husky', '_', name)), `husky's runner for ${name}`);
  }
  const un = await r.cli(['uninstall']);
  assert.equal(un.code, 0, un.stderr);
  for (const name of RECORD_HOOKS) assert.equal(existsSync(join(r.dir, '.husky', name)), false, name);
});

test('a clean commit runs revtrail once; a queued verdict, a rewrite and a merge call the hooks that settle them', async () => {
  const { r, calls } = loggingRepo();
  assert.equal((await r.cli(['install'])).code, 0);
  r.commit('chore: start');
  writeFileSync(join(r.dir, '.git', 'calls.log'), '');
  r.write('a.js', 'export const a = 1;\n');
  r.git(['add', '-A']);
  assert.equal((await r.run(['commit', '-m', 'feat: clean'])).code, 0);
  assert.deepEqual(calls(), ['hook commit-msg']);

  r.write('b.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  assert.equal((await r.run(['commit', '-m', 'feat: b'])).code, 0);
  const id = r.trailers()[0]!.split(',')[0]!;
  assert.equal((await r.cli(['verdict', id, 'ACKNOWLEDGE', 'intended per ADR-1'])).code, 0);
  writeFileSync(join(r.dir, '.git', 'calls.log'), '');
  assert.equal((await r.run(['commit', '--allow-empty', '-m', 'chore: record'])).code, 0);
  assert.deepEqual(calls(), ['hook commit-msg', 'hook post-commit'], 'the queue had an entry');

  writeFileSync(join(r.dir, '.git', 'calls.log'), '');
  assert.equal((await r.run(['commit', '--amend', '--allow-empty', '-m', 'chore: record, reworded'])).code, 0);
  assert.deepEqual(calls(), ['hook commit-msg', 'hook post-rewrite'], 'queue empty again: no post-commit');

  r.git(['checkout', '-q', '-b', 'side', 'HEAD~1']);
  assert.equal((await r.run(['commit', '--allow-empty', '-m', 'chore: side'])).code, 0);
  writeFileSync(join(r.dir, '.git', 'calls.log'), '');
  assert.equal((await r.run(['merge', '--no-ff', '--no-edit', 'main'])).code, 0);
  assert.deepEqual(calls(), ['hook commit-msg'], 'nothing queued: post-merge costs no process');
});

test('a user post-rewrite hook after the block still reads the commit lines', async () => {
  const { r } = loggingRepo();
  const seen = join(r.dir, '.git', 'user-post-rewrite.txt');
  r.write('.husky/post-rewrite', `#!/bin/sh\ncat > '${seen}'\n`);
  assert.equal((await r.cli(['install'])).code, 0);
  assert.match(readFileSync(join(r.dir, '.husky', 'post-rewrite'), 'utf8'), /^#!\/bin\/sh\n# >>> revtrail >>>/);
  r.commit('chore: start');
  const before = r.git(['rev-parse', 'HEAD']).trim();
  assert.equal((await r.run(['commit', '--amend', '--allow-empty', '-m', 'chore: start, reworded'])).code, 0);
  assert.equal(readFileSync(seen, 'utf8'), `${before} ${r.git(['rev-parse', 'HEAD']).trim()}\n`);
});
