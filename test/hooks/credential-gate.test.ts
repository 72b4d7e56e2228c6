/**
 * The credential gate (docs/gate.md "The credential stop", "Answers by kind", "After an ACCEPT"):
 * real git with the hooks installed and a local bare remote. A key never enters a commit by
 * default; only the answers `gate.credentialAnswers` allows (REJECT alone by default) open the
 * gate for it; after an ACCEPT the push names the commits that still hold the key and passes
 * once history is rewritten. Keys are built at run time (setup.ts), never written in this file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestRepo } from '../kit/repo.js';
import { AWS_KEY, sharedPushedRepo, type HookRepo } from '../kit/hooks.js';

// One repository with a pushed main, shared by this file's tests (test/kit/hooks.ts).
const repo = sharedPushedRepo();

const idsIn = (text: string) => [...new Set(text.match(/rf-[0-9a-f]{10}/g) ?? [])];
const keyLine = () => `export const key = "${AWS_KEY}";\n`;
const config = (r: HookRepo, value: unknown) =>
  writeFileSync(join(r.dir, 'revtrail.config.json'), JSON.stringify(value));
const noConfig = (r: HookRepo) => rmSync(join(r.dir, 'revtrail.config.json'), { force: true });
const remoteHas = (bare: TestRepo, ref: string) => {
  try {
    return bare.git(['rev-parse', '--verify', '-q', ref]).trim();
  } catch {
    return null;
  }
};

test('commit-msg stops a commit that adds a key, naming file and line; the message file is untouched; a queued REJECT lets it through and is recorded', async () => {
  const { r } = await repo();
  r.git(['checkout', '-q', '-b', 'stop', 'main']);
  const head = r.git(['rev-parse', 'HEAD']).trim();
  r.write('src/config.ts', `// settings\n${keyLine()}`);
  r.git(['add', 'src/config.ts']);
  const stopped = await r.run(['commit', '-m', 'feat: config']);
  assert.equal(stopped.code, 1, stopped.stderr);
  assert.match(
    stopped.stderr,
    /revtrail: commit aborted: a credential in what this commit adds \(commitMsg\.blockCredentials\); your message is unchanged/,
  );
  assert.match(
    stopped.stderr,
    /src\/config\.ts:2 security AWS access key ID committed \(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10}/,
  );
  const [id] = idsIn(stopped.stderr);
  assert.ok(stopped.stderr.includes('a real secret: take it out of the file'), stopped.stderr);
  assert.ok(stopped.stderr.includes(`revtrail verdict ${id} REJECT "…"`), stopped.stderr);
  assert.doesNotMatch(stopped.stderr, /DEFER|ACKNOWLEDGE/);
  assert.equal(r.git(['rev-parse', 'HEAD']).trim(), head, 'no commit was made');
  // commitMsg.block is off (the default): the stop is its own setting.
  assert.doesNotMatch(stopped.stderr, /commitMsg\.block\)/);

  // The hook itself, on a message file of its own: exit 1 and the file byte for byte as it was.
  const file = join(r.dir, '.git', 'MY_MSG');
  const text = 'feat: config\n\nBody line.\n\nSigned-off-by: Ada Tester <ada@example.com>\n';
  writeFileSync(file, text);
  const hook = await r.cli(['hook', 'commit-msg', file]);
  assert.equal(hook.code, 1, hook.stderr);
  assert.equal(readFileSync(file, 'utf8'), text);

  // Not a secret: a queued REJECT suppresses it in commit-msg, and that commit records it.
  const verdict = await r.cli([
    'verdict',
    id!,
    'REJECT',
    'the documented fake key: `grep -n key docs/testing.md` shows it',
  ]);
  assert.equal(verdict.code, 0, verdict.stderr);
  const through = await r.run(['commit', '-m', 'feat: config']);
  assert.equal(through.code, 0, through.stderr);
  assert.match(through.stderr, new RegExp(`recorded 1 queued verdict: REJECT ${id}`));
  assert.ok(
    r
      .trailers()
      .some(
        (row) => row.startsWith(`${id},src/config.ts,2,builtin/secrets:aws-access-key,`) && row.includes(',REJECT,'),
      ),
    r.trailers().join('\n'),
  );
  // The REJECT is in what is pushed: the push passes.
  const push = await r.run(['push', 'origin', 'stop']);
  assert.equal(push.code, 0, push.stderr);

  // commitMsg.blockCredentials: false lets a key into a commit (the push still stops it).
  r.git(['checkout', '-q', '-b', 'off', 'main']);
  config(r, { commitMsg: { blockCredentials: false } });
  try {
    r.write('src/other.ts', keyLine());
    r.git(['add', 'src/other.ts']);
    const off = await r.run(['commit', '-m', 'feat: other']);
    assert.equal(off.code, 0, off.stderr);
    assert.ok(
      r
        .trailers()
        .some((row) => row.includes(',src/other.ts,1,builtin/secrets:aws-access-key,') && row.endsWith(',OPEN,')),
    );
  } finally {
    noConfig(r);
    r.git(['checkout', '-q', 'main']);
  }
});

test('answers by kind: DEFER is refused for a key and does not open the push; allowed when gate.credentialAnswers includes it', async () => {
  const { r, bare } = await repo();
  r.git(['checkout', '-q', '-b', 'defer', 'main']);
  r.write('src/keys.ts', keyLine());
  r.git(['add', 'src/keys.ts']);
  r.git(['commit', '-q', '--no-verify', '-m', 'feat: keys']);
  const keyCommit = r.git(['rev-parse', 'HEAD']).trim();
  const blocked = await r.run(['push', 'origin', 'defer']);
  assert.equal(blocked.code, 1, blocked.stderr);
  const [id] = idsIn(blocked.stderr);
  // The ways on fit a key: the commit that holds it, the rewrite (it is the last commit: amend), rotation, REJECT alone.
  assert.ok(
    blocked.stderr.includes(`This pushed commit adds it:\n    ${keyCommit.slice(0, 12)} feat: keys`),
    blocked.stderr,
  );
  assert.ok(
    blocked.stderr.includes(
      `${keyCommit.slice(0, 12)} is the last commit pushed: remove the key from the file, git add it, git commit --amend`,
    ),
    blocked.stderr,
  );
  assert.match(blocked.stderr, /rotate it/);
  assert.ok(blocked.stderr.includes(`revtrail verdict ${id} REJECT "…"`), blocked.stderr);
  assert.doesNotMatch(blocked.stderr, /REJECT\|DEFER|DEFER\|ACKNOWLEDGE/);

  // `verdict` refuses an answer that cannot open the gate for a credential.
  const refused = await r.cli(['verdict', id!, 'DEFER', 'rotate later, SEC-12']);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    new RegExp(
      `DEFER does not open the gate for a credential: ${id} is a credential finding, answered by REJECT \\(gate\\.credentialAnswers\\)`,
    ),
  );
  assert.match(refused.stderr, /gate\.credentialAnswers/);
  assert.match((await r.cli(['verdict', '--list'])).stdout, /Queued verdicts \(0\)/);

  // A team that allows DEFER for credentials: the verdict is queued, recorded, and opens the push.
  config(r, { gate: { credentialAnswers: ['REJECT', 'DEFER'] } });
  try {
    const deferred = await r.cli(['verdict', id!, 'DEFER', 'rotate later, SEC-12']);
    assert.equal(deferred.code, 0, deferred.stderr);
    const recorded = await r.run(['commit', '--allow-empty', '-m', 'chore: defer the key']);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.ok(
      r.trailers().some((row) => row.startsWith(`${id},`) && row.includes(',DEFER,')),
      r.trailers().join('\n'),
    );
    // Without that config, the DEFER in history does not open the gate.
    noConfig(r);
    const still = await r.run(['push', 'origin', 'defer']);
    assert.equal(still.code, 1, still.stderr);
    assert.match(
      still.stderr,
      /answered DEFER, which does not open the gate for a credential \(gate\.credentialAnswers: REJECT\)/,
    );
    assert.equal(remoteHas(bare, 'defer'), null);
    config(r, { gate: { credentialAnswers: ['REJECT', 'DEFER'] } });
    const through = await r.run(['push', 'origin', 'defer']);
    assert.equal(through.code, 0, through.stderr);
  } finally {
    noConfig(r);
    r.git(['checkout', '-q', 'main']);
  }
});

test('after an ACCEPT of a key already committed the push stays blocked, names the commit and the rewrite; verdict --list says so; after the rewrite the push passes', async () => {
  const { r, bare } = await repo();
  r.git(['checkout', '-q', '-b', 'accept', 'main']);
  r.commit('docs: before', { 'notes.txt': 'before\n' });
  r.write('src/client.ts', keyLine());
  r.git(['add', 'src/client.ts']);
  r.git(['commit', '-q', '--no-verify', '-m', 'feat: client']);
  const keyCommit = r.git(['rev-parse', 'HEAD']).trim();
  const base = r.git(['rev-parse', 'HEAD^']).trim();
  const first = await r.run(['push', 'origin', 'accept']);
  assert.equal(first.code, 1, first.stderr);
  const [id] = idsIn(first.stderr);

  // Fixed in the files, answered ACCEPT (verdict warns that the commit still holds it), committed with the fix.
  const accepted = await r.cli(['verdict', id!, 'ACCEPT', 'the key now comes from the environment']);
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.match(accepted.stderr, /still blocks the push until that commit is rewritten/);
  r.write('src/client.ts', 'export const key = process.env.CLIENT_KEY;\n');
  r.git(['add', 'src/client.ts']);
  const fix = await r.run(['commit', '-m', 'fix: key from the environment']);
  assert.equal(fix.code, 0, fix.stderr);
  assert.ok(
    r.trailers().some((row) => row.startsWith(`${id},`) && row.includes(',ACCEPT,')),
    r.trailers().join('\n'),
  );

  const push = await r.run(['push', 'origin', 'accept']);
  assert.equal(push.code, 1, push.stderr);
  assert.match(
    push.stderr,
    /answered ACCEPT \("the key now comes from the environment"\): fixed in the files, but the pushed history still holds it/,
  );
  assert.ok(
    push.stderr.includes(`This pushed commit adds it:\n    ${keyCommit.slice(0, 12)} feat: client`),
    push.stderr,
  );
  assert.ok(
    push.stderr.includes(
      `    git rebase -i ${base.slice(0, 12)}\n      mark ${keyCommit.slice(0, 12)} "edit": at each stop remove the key`,
    ),
    push.stderr,
  );
  assert.match(push.stderr, /And rotate it/);
  assert.doesNotMatch(push.stderr, /REJECT\|DEFER\|ACKNOWLEDGE/);
  assert.ok(!push.stderr.includes(`revtrail verdict ${id}`), 'no verdict is offered for a key answered as real');
  assert.equal(remoteHas(bare, 'accept'), null);

  const list = await r.cli(['verdict', '--list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /Answered, still in history \(1\)/);
  assert.match(
    list.stdout,
    new RegExp(`  ${id}  src/client\\.ts:1  security .*answered ACCEPT; rewrite the commits that add it`),
  );
  const listed = JSON.parse((await r.cli(['verdict', '--list', '--json'])).stdout);
  assert.deepEqual(
    listed.still_in_history.map((k: { id: string; verdict: string }) => [k.id, k.verdict]),
    [[id, 'ACCEPT']],
  );

  // The rewrite: the fix folded into the commit that added the key (what the message suggests).
  r.git(['rebase', '-q', '-i', base], { env: { GIT_SEQUENCE_EDITOR: `sed -i -e '2s/^pick/fixup/'` } });
  assert.equal(r.git(['log', '--format=%s', `${base}..HEAD`]).trim(), 'feat: client');
  assert.doesNotMatch(r.git(['log', '-p', `${base}..HEAD`]), new RegExp(AWS_KEY));
  const rewritten = await r.run(['push', 'origin', 'accept']);
  assert.equal(rewritten.code, 0, rewritten.stderr);
  assert.equal(remoteHas(bare, 'accept'), r.git(['rev-parse', 'HEAD']).trim());
  assert.doesNotMatch((await r.cli(['verdict', '--list'])).stdout, /Answered, still in history/);
  r.git(['checkout', '-q', 'main']);
});
