/**
 * A commit made with --no-verify is never a dead end (SPEC's promise "It lives beside what is
 * there"): the server gate blocks the push, the clone has no record of the finding (no hook
 * reviewed it), and `revtrail verdict ID` still knows it, by reviewing the commits the push
 * carries; the next commit records the answer, and the push goes through. Real git: a hooked
 * clone, a bare remote with `install --server`.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../kit/repo.js';
import { addRemote, installedRepo } from '../kit/hooks.js';

const made: Array<{ cleanup(): void }> = [];
after(() =>
  made.forEach((r) => {
    r.cleanup();
  }),
);

test('--no-verify, then a push the server gate blocks: one verdict and one commit open it', async () => {
  const r = await installedRepo();
  const bare = addRemote(r);
  made.push(r, bare);
  assert.equal((await r.run(['push', '-q', 'origin', 'main'])).code, 0);
  const server = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(server.code, 0, server.stderr);

  r.write('src/a.js', 'export const f = () => { debugger; };\n');
  r.git(['add', 'src/a.js']);
  assert.equal((await r.run(['commit', '-q', '--no-verify', '-m', 'feat: a'])).code, 0);
  assert.deepEqual(r.trailers(), [], 'no hook ran: no record');
  const blocked = await r.run(['push', '--no-verify', 'origin', 'main']);
  assert.equal(blocked.code, 1, blocked.stderr);
  const id = /remote: +src\/a\.js:1 bug .* (rf-[0-9a-f]{10})/.exec(blocked.stderr)?.[1];
  assert.ok(id, blocked.stderr);
  rmSync(join(r.dir, '.git', 'revtrail', 'last-review.json'), { force: true });
  assert.equal(existsSync(join(r.dir, '.git', 'revtrail', 'last-review.json')), false);

  const answered = await r.cli(['verdict', id, 'DEFER', 'tracked in #7, due 2027-01']);
  assert.equal(answered.code, 0, answered.stderr);
  const recorded = await r.run(['commit', '-q', '--allow-empty', '-m', 'Record review verdicts']);
  assert.equal(recorded.code, 0, recorded.stderr);
  assert.doesNotMatch(recorded.stderr, /not recorded here/);
  assert.match(r.trailers()[0] ?? '', new RegExp(`^${id},src/a\\.js,1,builtin/debug:debugger,.*,DEFER,"tracked in #7`));
  const pushed = await r.run(['push', '--no-verify', 'origin', 'main']);
  assert.equal(pushed.code, 0, `the server gate takes the answer: ${pushed.stderr}`);
  assert.equal(bare.git(['rev-parse', 'main']).trim(), r.git(['rev-parse', 'HEAD']).trim());
});

test('review --range of committed history: a verdict on one of its findings goes into the next commit (the range tip anchors it)', async () => {
  const r = await installedRepo();
  made.push(r);
  r.write('src/b.js', 'debugger;\n');
  r.git(['add', 'src/b.js']);
  assert.equal((await r.run(['commit', '-q', '--no-verify', '-m', 'feat: b'])).code, 0);
  const reviewed = await r.cli(['review', '--range', 'HEAD~1..HEAD', '--format', 'json']);
  const id = /"id": "(rf-[0-9a-f]{10})"/.exec(reviewed.stdout)?.[1];
  assert.ok(id, reviewed.stdout);
  assert.equal((await r.cli(['verdict', id, 'ACKNOWLEDGE', 'a known debug aid, removed in the next release'])).code, 0);
  const recorded = await r.run(['commit', '-q', '--allow-empty', '-m', 'Record review verdicts']);
  assert.doesNotMatch(recorded.stderr, /not recorded here/);
  assert.match(r.trailers()[0] ?? '', new RegExp(`^${id},.*,ACKNOWLEDGE,`));
});
