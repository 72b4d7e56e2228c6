import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli } from '../helpers/repo.js';

const repo = makeRepo();
after(() => repo.cleanup());

test('--help lists the commands and exits 0', async () => {
  const r = await runCli(['--help'], { cwd: repo.dir });
  assert.equal(r.code, 0);
  for (const name of ['init', 'knowledge', 'review', 'mine', 'demo']) assert.match(r.stdout, new RegExp(`revtrail ${name} `));
});

test('an unknown command is a usage error: exit 2, one line and the remedy, no stack', async () => {
  const r = await runCli(['nope'], { cwd: repo.dir });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'revtrail: unknown command "nope"\n  Run revtrail --help for the usage.\n');
});

test("yargs' own argument errors are usage errors too, naming the command's help", async () => {
  const r = await runCli(['knowledge', 'select', '--diff'], { cwd: repo.dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^revtrail: Not enough arguments following: diff\n  Run revtrail knowledge --help for its usage\.\n$/);
});

test('outside a git work tree: a clear error, and REVTRAIL_DEBUG=1 adds the stack', async () => {
  const outside = (await import('node:os')).tmpdir();
  const r = await runCli(['review'], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: outside } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is not inside a git work tree/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const debug = await runCli(['review'], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: outside, REVTRAIL_DEBUG: '1' } });
  assert.match(debug.stderr, /\n\s+at /);
});
