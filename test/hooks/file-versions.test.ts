/**
 * Every object a hook reads goes through the one reader of file versions (docs/architecture.md
 * "The one reader of file versions"): a commit and a push that a bundle rule reaches, with a
 * binary file changed, start one `git cat-file` each, whatever stages read blobs.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestRepo } from '../kit/repo.js';
import { addRemote, installedRepo } from '../kit/hooks.js';

const cleanups: TestRepo[] = [];
after(() => {
  for (const c of cleanups) c.cleanup();
});

/** The git commands a GIT_TRACE file shows, one per process. */
const commandsIn = (trace: string) =>
  [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git (\S+)/g)].map((m) => m[1]!);

test('a commit and a push a bundle rule reaches: one git cat-file each, for every stage that reads a file', async () => {
  const r = await installedRepo();
  const bare = addRemote(r);
  cleanups.push(r, bare);
  r.write('src/controllers/a.ts', 'export function list() {\n  return db.query(1);\n}\n');
  r.write('data.bin', Buffer.from([0, 1, 2, 3, 10]));
  r.git(['add', '-A']);
  r.git(['commit', '-q', '--no-verify', '-m', 'feat: list']);
  assert.equal((await r.run(['push', '-q', 'origin', 'main'], { env: { REVTRAIL: '0' } })).code, 0);

  r.write(
    'src/controllers/a.ts',
    'export function list() {\n  return db.query( 1 );\n}\nexport function count() {\n  return db.query(2);\n}\n',
  );
  r.write('data.bin', Buffer.from([0, 9, 9, 10]));
  r.git(['add', '-A']);
  const message = join(r.dir, '.git', 'FV_MSG');
  const trace = join(r.dir, '.git', 'fv-trace.log');
  writeFileSync(message, 'feat: count\n');
  writeFileSync(trace, '');
  const commit = await r.cli(['hook', 'commit-msg', message], { env: { GIT_TRACE: trace } });
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(readFileSync(message, 'utf8'), /Review-Finding: rf-[0-9a-f]{10},src\/controllers\/a\.ts,5,/);
  const atCommit = commandsIn(trace);
  assert.equal(atCommit.filter((c) => c === 'cat-file').length, 1, atCommit.join(' '));
  r.git(['commit', '-q', '--no-verify', '-F', message]);

  r.write('src/controllers/b.ts', 'export const b = 1;\n');
  r.git(['add', '-A']);
  r.git(['commit', '-q', '--no-verify', '-m', 'feat: b']);
  writeFileSync(trace, '');
  const push = await r.run(['push', 'origin', 'main'], { env: { GIT_TRACE: trace } });
  assert.equal(push.code, 1, push.stderr);
  assert.match(push.stderr, /src\/controllers\/a\.ts:5 bug Controller queries the database directly/);
  // The push's own processes (git push itself and its transport write their own lines): those of
  // the hook are the revtrail ones after `git push` spawned the hook.
  const atPush = commandsIn(trace);
  assert.equal(atPush.filter((c) => c === 'cat-file').length, 1, atPush.join(' '));
  assert.equal(atPush.filter((c) => c === 'ls-tree').length, 0, atPush.join(' '));
});
