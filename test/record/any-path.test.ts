/**
 * Any name git can hold is a file a finding can be on, and so a file a trailer records and a
 * verdict answers: backslashes, quotes, commas, a colon after a letter, non-ASCII. Real hooks,
 * a real push, then mining reads back what was written.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { installedRepo, addRemote } from '../kit/hooks.js';

const made: Array<{ cleanup(): void }> = [];
after(() =>
  made.forEach((r) => {
    r.cleanup();
  }),
);

const NAMES = ['b\\ack.js', 'C:odd "name", 1.js', 'naïve\\dir/ü.js'];

test('a finding on b\\ack.js (and other names git holds) is recorded, blocks the push, is answered and mined', async () => {
  const r = await installedRepo();
  made.push(r, addRemote(r));
  assert.equal((await r.run(['push', '-q', 'origin', 'main'])).code, 0);
  for (const name of NAMES) r.write(name, 'debugger;\n');
  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-m', 'feat: odd names']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.doesNotMatch(commit.stderr, /not recordable|cannot be recorded/);
  const { records: opened } = await mined(r);
  assert.deepEqual(opened.map((x) => [x.file, x.verdict]).sort(), NAMES.map((n) => [n, 'OPEN']).sort());

  const blocked = await r.run(['push', 'origin', 'main']);
  assert.equal(blocked.code, 1, blocked.stderr);
  for (const { id } of opened) {
    const verdict = await r.cli(['verdict', id, 'REJECT', 'a fixture, see `git show HEAD --stat`']);
    assert.equal(verdict.code, 0, verdict.stderr);
  }
  const answer = await r.run(['commit', '--allow-empty', '-m', 'chore: answers']);
  assert.equal(answer.code, 0, answer.stderr);
  const through = await r.run(['push', 'origin', 'main']);
  assert.equal(through.code, 0, through.stderr);

  const { records, rejected } = await mined(r);
  assert.deepEqual(rejected, []);
  assert.deepEqual(
    records
      .filter((x) => x.verdict === 'REJECT')
      .map((x) => x.file)
      .sort(),
    [...NAMES].sort(),
  );
});

async function mined(r: Awaited<ReturnType<typeof installedRepo>>) {
  const run = await r.cli(['mine', '--format', 'json', '--no-cache']);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as {
    records: Array<{ id: string; file: string; verdict: string }>;
    rejected: unknown[];
  };
}
