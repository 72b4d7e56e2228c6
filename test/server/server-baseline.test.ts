/**
 * The server gate honours the adoption baseline (docs/server.md "Which policy", docs/mining.md
 * "The baseline") as the pusher's own pre-push does, read from the policy ref as the rest of the
 * policy is: a revert that brings back a recorded violation passes both, while one more violation
 * of the rule, a baseline entry the push itself adds, and a credential (even one a hand wrote into
 * the baseline) are refused. Real git: a bare repository with `install --server`'s hook, a clone
 * with revtrail's own hooks. The cases share both and run in order.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, makeRepo, runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { AWS_KEY, withRun, writeShim, type HookRepo } from '../kit/hooks.js';

let bare: TestRepo;
let dev: HookRepo;
const remoteMain = () => bare.git(['rev-parse', 'refs/heads/main']).trim();
const backToRemote = () => {
  dev.git(['fetch', '-q', 'origin']);
  dev.git(['reset', '-q', '--hard', 'origin/main']);
};
const push = (...args: string[]) => dev.run(['push', 'origin', ...args]);
const VIOLATION = 'export const all = () => db.query("select * from users");';
const KEY_LINE = `export const key = "${AWS_KEY}";`;
const RULE = /Controller queries the database directly \(adr-0001/;

before(async () => {
  bare = makeRepo({ bare: true });
  dev = withRun(makeRepo());
  dev.git(['remote', 'add', 'origin', bare.dir]);
  writeShim(dev.dir);
  dev.write('.gitignore', 'node_modules/\n');
  // The test bundle: one ADR whose rule flags db.query( under src/controllers/.
  cpSync(join(fixturesDir, 'hooks', 'okfw'), join(dev.dir, '.okfw'), { recursive: true });
  dev.commit('feat: users (before the rule)', {
    'src/controllers/user.js': `${VIOLATION}\nexport const one = (id) => id;\n`,
  });
  const recorded = await dev.cli(['baseline', '--quiet']);
  assert.equal(recorded.code, 0, recorded.stderr);
  const file = join(dev.dir, '.revtrail', 'baseline.json');
  const baseline = JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] };
  assert.equal(baseline.entries.length, 1, JSON.stringify(baseline));
  // A hand-written entry for a credential: never read (lib/review/findings/baseline.ts).
  baseline.entries.push({
    rule_source: 'builtin/secrets:aws-access-key',
    path: 'src/keys.js',
    text: KEY_LINE,
    occurrence: 0,
  });
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  dev.commit('chore: baseline');
  const first = await push('main');
  assert.equal(first.code, 0, first.stderr);
  bare.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  const server = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(server.code, 0, server.stderr);
  const client = await dev.cli(['install']);
  assert.equal(client.code, 0, client.stderr);
  dev.git(['add', '-A']);
  if (dev.git(['status', '--porcelain']).trim()) dev.commit('chore: revtrail install');
  const installed = await push('main');
  assert.equal(installed.code, 0, installed.stderr);
});

test('a revert that brings back a baselined violation passes pre-push and the server alike', async () => {
  // The recorded call removed (nothing to review), then brought back by a revert: the old version
  // of the file no longer has it, so the review flags it and only the baseline takes it out.
  dev.commit('refactor: users through the repository', {
    'src/controllers/user.js': 'export const one = (id) => id;\n',
  });
  const removed = await push('main');
  assert.equal(removed.code, 0, removed.stderr);
  dev.git(['revert', '--no-edit', 'HEAD']);
  const reverted = await push('main');
  assert.equal(reverted.code, 0, reverted.stderr);
  assert.doesNotMatch(reverted.stderr, RULE);
  assert.equal(remoteMain(), dev.git(['rev-parse', 'HEAD']).trim());
});

test('one more violation of the rule than the baseline records is refused by the server', async () => {
  const before = remoteMain();
  dev.commit('feat: all users twice', {
    'src/controllers/user.js': `${VIOLATION}\nexport const one = (id) => id;\n${VIOLATION}\n`,
  });
  const local = await push('main');
  assert.equal(local.code, 1, local.stderr);
  const pushed = await push('--no-verify', 'main');
  assert.equal(pushed.code, 1, pushed.stderr);
  assert.match(pushed.stderr, /remote: +src\/controllers\/user\.js:3 \S+ Controller queries the database directly/);
  assert.doesNotMatch(pushed.stderr, /user\.js:1 /);
  assert.equal(remoteMain(), before);
  backToRemote();
});

test('a baseline entry the push itself adds is not the policy: the server refuses the violation', async () => {
  const before = remoteMain();
  const file = join(dev.dir, '.revtrail', 'baseline.json');
  const baseline = JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] };
  const added = 'export const drop = () => db.query("drop table users");';
  baseline.entries.push({
    rule_source: 'adr-0001:no-db-query',
    path: 'src/controllers/admin.js',
    text: added,
    occurrence: 0,
  });
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  dev.commit('feat: admin', { 'src/controllers/admin.js': `${added}\n` });
  const pushed = await push('--no-verify', 'main');
  assert.equal(pushed.code, 1, pushed.stderr);
  assert.match(pushed.stderr, /remote: +src\/controllers\/admin\.js:1 \S+ Controller queries the database directly/);
  assert.equal(remoteMain(), before);
  backToRemote();
});

test('a credential is refused whatever the baseline says', async () => {
  const before = remoteMain();
  // (The clone's commit-msg hook refuses it too, baseline or not: committed past it.)
  dev.commit('feat: key', { 'src/keys.js': `${KEY_LINE}\n` }, { args: ['--no-verify'] });
  const local = await push('main');
  assert.equal(local.code, 1, local.stderr);
  const pushed = await push('--no-verify', 'main');
  assert.equal(pushed.code, 1, pushed.stderr);
  assert.match(
    pushed.stderr,
    /remote: +src\/keys\.js:1 security AWS access key ID committed \(builtin\/secrets:aws-access-key\)/,
  );
  assert.equal(remoteMain(), before);
  backToRemote();
});
