import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli } from '../kit/repo.js';
import { readCiNotes, outcomeOf } from '../../lib/ci/notes.js';

const cleanups: Array<() => void> = [];
after(() =>
  cleanups.forEach((c) => {
    c();
  }),
);

test('ci record stores pass/fail as a note in refs/notes/revtrail-ci, HEAD by default, a later record replacing the earlier', async () => {
  const r = makeRepo();
  cleanups.push(() => r.cleanup());
  const first = r.commit('one');
  const second = r.commit('two');
  const pass = await runCli(['ci', 'record', 'pass'], { cwd: r.dir });
  assert.equal(pass.code, 0, pass.stderr);
  assert.match(pass.stdout, new RegExp(`^recorded CI pass for ${second.slice(0, 12)} in refs/notes/revtrail-ci\\n`));
  assert.equal(r.git(['notes', '--ref=revtrail-ci', 'show', second]).trim(), 'pass');
  const fail = await runCli(['ci', 'record', 'fail', first.slice(0, 7), '--json'], { cwd: r.dir });
  assert.deepEqual(JSON.parse(fail.stdout), { commit: first, outcome: 'fail', ref: 'refs/notes/revtrail-ci' });
  const again = await runCli(['ci', 'record', 'pass', first], { cwd: r.dir });
  assert.equal(again.code, 0);
  assert.equal(r.git(['notes', '--ref=revtrail-ci', 'show', first]).trim(), 'pass');
  const notes = await readCiNotes(r.dir, [first, second, r.git(['rev-parse', 'HEAD^{tree}']).trim()]);
  assert.deepEqual(
    [...notes].sort(),
    [
      [first, 'pass'],
      [second, 'pass'],
    ].sort(),
  );
  // Notes do not touch the branch.
  assert.equal(r.git(['rev-parse', 'HEAD']).trim(), second);
});

test('ci record: bad outcome or commit is exit 2 with a remedy; no notes ref reads as no outcome', async () => {
  const r = makeRepo();
  cleanups.push(() => r.cleanup());
  const empty = await runCli(['ci', 'record', 'pass'], { cwd: r.dir });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /HEAD is not a commit in this repository/);
  const c = r.commit('one');
  const bad = await runCli(['ci', 'record', 'maybe'], { cwd: r.dir });
  assert.equal(bad.code, 2);
  const unknown = await runCli(['ci', 'record', 'pass', 'deadbeef'], { cwd: r.dir });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /deadbeef is not a commit/);
  assert.deepEqual([...(await readCiNotes(r.dir, [c]))], []);
  assert.deepEqual(
    [outcomeOf(undefined), outcomeOf('PASS\n'), outcomeOf('fail: tests'), outcomeOf('green')],
    ['none', 'pass', 'fail', 'other'],
  );
});

test('ci record with no committer identity: exit 2, the identity named with its remedy, no note written', async () => {
  const r = makeRepo();
  cleanups.push(() => r.cleanup());
  const c = r.commit('one');
  r.git(['config', 'user.useConfigOnly', 'true']);
  const run = await runCli(['ci', 'record', 'pass'], {
    cwd: r.dir,
    env: { GIT_COMMITTER_NAME: '', GIT_COMMITTER_EMAIL: '', EMAIL: '' },
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /git needs a committer identity to write the note/);
  assert.match(run.stderr, /GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL/);
  assert.deepEqual([...(await readCiNotes(r.dir, [c]))], []);
});
