/**
 * The push gate fails closed (docs/hooks.md "Hook scripts" and "Push"): with the hooks installed
 * and a bare remote, nothing a repository or its history holds lets an AWS key reach the remote
 * unnoticed. A hook that dies blocks and says how to skip on purpose; replace objects do not
 * change what is reviewed. One repository with a pushed main; each case pushes a branch of its own
 * with a real `git push` and checks that the remote never got it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_KEY, addRemote, installedRepo, writeShim, type HookRepo } from './setup.js';
import type { TestRepo } from '../helpers/repo.js';

const cleanups: Array<{ cleanup(): void }> = [];
after(() => cleanups.forEach((c) => c.cleanup()));

let shared: Promise<{ r: HookRepo; bare: TestRepo }> | undefined;
function repo(): Promise<{ r: HookRepo; bare: TestRepo }> {
  shared ??= (async () => {
    const r = await installedRepo();
    const bare = addRemote(r);
    cleanups.push(r, bare);
    const first = await r.run(['push', '-q', 'origin', 'main']);
    assert.equal(first.code, 0, first.stderr);
    return { r, bare };
  })();
  return shared;
}

const commit = (r: HookRepo, message: string, files: Record<string, string | Buffer>) => {
  for (const [p, c] of Object.entries(files)) r.write(p, c);
  r.git(['add', '-A']);
  r.git(['commit', '-q', '--no-verify', '-m', message]);
  return r.git(['rev-parse', 'HEAD']).trim();
};
const branch = (r: HookRepo, name: string) => r.git(['checkout', '-q', '-b', name, 'main']);
const push = (r: HookRepo, name: string, env?: NodeJS.ProcessEnv) => r.run(['push', 'origin', `${name}:refs/heads/${name}`], { env });
const remoteHas = (bare: TestRepo, ref: string) => {
  try {
    return bare.git(['rev-parse', '--verify', '-q', `refs/heads/${ref}`]).trim();
  } catch {
    return null;
  }
};
const KEY_FINDING = /security AWS access key ID committed \(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10}/;

test('a pre-push hook that does not finish blocks the push and says how to skip on purpose', async () => {
  const { r, bare } = await repo();
  branch(r, 'dies');
  commit(r, 'feat: plain', { 'plain.txt': 'nothing to see\n' });
  const shim = join(r.dir, 'node_modules', '.bin', 'revtrail');
  const real = readFileSync(shim, 'utf8');
  try {
    // A real heap OOM of the real CLI (V8 aborts: exit 134).
    const oom = await push(r, 'dies', { NODE_OPTIONS: '--max-old-space-size=4' });
    assert.equal(oom.code, 1, oom.stderr);
    assert.match(oom.stderr, /revtrail: pre-push check did not finish \(killed by signal 6, exit 134\); the push is blocked\./);
    assert.match(oom.stderr, /REVTRAIL=0 git push/);
    assert.equal(remoteHas(bare, 'dies'), null);
    // An OOM kill or `kill -9` (137), an internal error (3, 2), a CLI that cannot start (127).
    for (const [body, why] of [
      ['kill -9 $$', 'killed by signal 9, exit 137'],
      ['exit 3', 'exit 3'],
      ['exit 2', 'exit 2'],
      ['exec /nonexistent/node', 'exit 127'],
    ] as const) {
      writeFileSync(shim, `#!/bin/sh\n${body}\n`);
      chmodSync(shim, 0o755);
      const run = await push(r, 'dies');
      assert.equal(run.code, 1, `${body}: ${run.stderr}`);
      assert.ok(run.stderr.includes(`pre-push check did not finish (${why}); the push is blocked.`), run.stderr);
      assert.equal(remoteHas(bare, 'dies'), null, body);
    }
    // Skipping on purpose is the person's choice, and works.
    const skipped = await push(r, 'dies', { REVTRAIL: '0' });
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.ok(remoteHas(bare, 'dies'));
  } finally {
    writeFileSync(shim, real);
    writeShim(r.dir);
    r.git(['checkout', '-q', 'main']);
  }
});

test('git replace: a replacement of the key commit does not hide it, and a REJECT row added through one does not count', async () => {
  const { r, bare } = await repo();
  branch(r, 'replaced');
  const keyed = commit(r, 'feat: key', { 'src/key.ts': `export const k = "${AWS_KEY}";\n` });
  commit(r, 'fix: env', { 'src/key.ts': 'export const k = process.env.K;\n' });
  // The key commit's replacement: same parent, a tree without the key.
  const cleanTree = r.git(['rev-parse', 'HEAD^{tree}']).trim();
  const fake = r.git(['commit-tree', cleanTree, '-p', `${keyed}^`, '-m', 'feat: key'], {}).trim();
  r.git(['replace', keyed, fake]);
  assert.doesNotMatch(r.git(['log', '-p', 'replaced']), new RegExp(AWS_KEY), 'git itself shows the replacement');
  const hidden = await push(r, 'replaced');
  assert.equal(hidden.code, 1, hidden.stderr);
  assert.match(hidden.stderr, new RegExp(`src/key\\.ts:1 ${KEY_FINDING.source}`));
  assert.equal(remoteHas(bare, 'replaced'), null);
  r.git(['replace', '-d', keyed]);

  // A REJECT of that finding in a replacement of the tip's message: history as pushed has none.
  const [id] = hidden.stderr.match(/rf-[0-9a-f]{10}/) ?? [];
  assert.ok(id);
  const tip = r.git(['rev-parse', 'HEAD']).trim();
  const message = `fix: env\n\nReview-Finding: ${id},src/key.ts,1,builtin/secrets:aws-access-key,security,security,AWS access key ID committed,REJECT,"a test fixture, not a secret"\n`;
  const answered = r.git(['commit-tree', `${tip}^{tree}`, '-p', `${tip}^`, '-F', '-'], { input: message }).trim();
  r.git(['replace', tip, answered]);
  const rejected = await push(r, 'replaced');
  assert.equal(rejected.code, 1, rejected.stderr);
  assert.match(rejected.stderr, KEY_FINDING);
  assert.equal(remoteHas(bare, 'replaced'), null);
  r.git(['replace', '-d', tip]);
  r.git(['checkout', '-q', 'main']);
});
