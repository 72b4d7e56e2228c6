/**
 * The push gate fails closed (docs/hooks.md "Hook scripts" and "Push"): with the hooks installed
 * and a bare remote, nothing a repository or its history holds lets an AWS key reach the remote
 * unnoticed. A hook that dies blocks and says how to skip on purpose; replace objects do not
 * change what is reviewed. One repository with a pushed main; each case pushes a branch of its own
 * with a real `git push` and checks that the remote never got it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_KEY, sharedPushedRepo, writeShim, type HookRepo } from '../kit/hooks.js';
import type { TestRepo } from '../kit/repo.js';

// One repository with a pushed main, shared by this file's tests (test/kit/hooks.ts).
const repo = sharedPushedRepo();

const commit = (r: HookRepo, message: string, files: Record<string, string | Buffer>) => {
  for (const [p, c] of Object.entries(files)) r.write(p, c);
  r.git(['add', '-A']);
  r.git(['commit', '-q', '--no-verify', '-m', message]);
  return r.git(['rev-parse', 'HEAD']).trim();
};
const branch = (r: HookRepo, name: string) => r.git(['checkout', '-q', '-b', name, 'main']);
const push = (r: HookRepo, name: string, env?: NodeJS.ProcessEnv) =>
  r.run(['push', 'origin', `${name}:refs/heads/${name}`], { env });
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
    assert.match(
      oom.stderr,
      /revtrail: pre-push check did not finish \(killed by signal 6, exit 134\); the push is blocked\./,
    );
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

test("a NUL byte past git's binary sniff does not cut a commit short: the key after it in the same commit blocks", async () => {
  const { r, bare } = await repo();
  branch(r, 'nul');
  // Text to git (no NUL in the first 8,000 bytes), with a NUL in a later line.
  const data = `${'line of text\n'.repeat(700)}after the sniff \0 a NUL\nmore text\n`;
  commit(r, 'feat: data and key', { 'a-data.txt': data, 'z-key.ts': `export const k = "${AWS_KEY}";\n` });
  commit(r, 'fix: env', { 'z-key.ts': 'export const k = process.env.K;\n' });
  const run = await push(r, 'nul');
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, new RegExp(`z-key\\.ts:1 ${KEY_FINDING.source}`));
  assert.equal(remoteHas(bare, 'nul'), null);
  r.git(['checkout', '-q', 'main']);
});

test('big files: each is reviewed up to the cap and named, memory stays bounded, and a key in a small file still blocks', async () => {
  const { r, bare } = await repo();
  branch(r, 'big');
  const MiB = 1024 * 1024;
  const long = `${'const filler = "0123456789abcdef0123456789abcdef0123456789abcdef";\n'.repeat(Math.ceil((20 * MiB) / 52))}`;
  const short = 'x\n'.repeat(10 * MiB); // 20 MB of two-byte lines
  commit(r, 'feat: big and key', {
    'big/long.js': long,
    'big/short.txt': short,
    'src/key.ts': `export const k = "${AWS_KEY}";\n`,
  });
  commit(r, 'fix: env', { 'src/key.ts': 'export const k = process.env.K;\n' });
  // A heap far smaller than the files' lines as objects would need.
  const run = await push(r, 'big', { NODE_OPTIONS: '--max-old-space-size=192' });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, new RegExp(`src/key\\.ts:1 ${KEY_FINDING.source}`));
  assert.match(run.stderr, /big\/long\.js: reviewed up to the cap/);
  assert.match(run.stderr, /big\/short\.txt: reviewed up to the cap/);
  assert.doesNotMatch(run.stderr, /did not finish/);
  assert.equal(remoteHas(bare, 'big'), null);
  r.git(['checkout', '-q', 'main']);
});

test('git attributes do not hide a key from the credential rules: * binary, * -diff, UTF-16 and UTF-32 with or without a BOM, a binary blob', async () => {
  const { r, bare } = await repo();
  const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
  const utf32 = (s: string, order: 'le' | 'be') =>
    Buffer.concat(
      [...s].map((c) => {
        const b = Buffer.alloc(4);
        if (order === 'le') b.writeUInt32LE(c.codePointAt(0)!);
        else b.writeUInt32BE(c.codePointAt(0)!);
        return b;
      }),
    );
  const cases: Array<[string, Record<string, string | Buffer>, string]> = [
    [
      'attr-binary',
      { 'sub/.gitattributes': '* binary\n', 'sub/conf.ts': `// settings\nexport const k = "${AWS_KEY}";\n` },
      'sub/conf.ts:2',
    ],
    [
      'attr-nodiff',
      { 'sub/.gitattributes': '* -diff\n', 'sub/conf.ts': `export const k = "${AWS_KEY}";\n` },
      'sub/conf.ts:1',
    ],
    ['utf16', { 'win/settings.ini': utf16(`[aws]\r\nkey=${AWS_KEY}\r\n`) }, 'win/settings.ini:2'],
    // Issue 35 item 4: as Windows tools write them, no BOM (both byte orders), and UTF-32.
    ['utf16le-nobom', { 'win/le.ini': Buffer.from(`[aws]\r\nkey=${AWS_KEY}\r\n`, 'utf16le') }, 'win/le.ini:2'],
    ['utf16be-nobom', { 'win/be.ini': Buffer.from(`[aws]\r\nkey=${AWS_KEY}\r\n`, 'utf16le').swap16() }, 'win/be.ini:2'],
    [
      'utf32-bom',
      { 'win/32.ini': Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(`[aws]\nkey=${AWS_KEY}\n`, 'le')]) },
      'win/32.ini:2',
    ],
    ['utf32be-nobom', { 'win/32be.ini': utf32(`[aws]\nkey=${AWS_KEY}\n`, 'be') }, 'win/32be.ini:2'],
    [
      'blob',
      {
        'assets/blob.dat': Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff, 0xfe]),
          Buffer.from(`\0key ${AWS_KEY}\0`),
          Buffer.from([0, 0x9c, 0x10]),
        ]),
      },
      'assets/blob.dat:1',
    ],
  ];
  for (const [name, files, where] of cases) {
    branch(r, name);
    commit(r, 'feat: files', files);
    const removed = Object.fromEntries(
      Object.entries(files)
        .filter(([p]) => !p.endsWith('.gitattributes'))
        .map(([p]) => [p, 'nothing here\n']),
    );
    commit(r, 'fix: no key', removed);
    assert.match(r.git(['show', '--format=', 'HEAD^']), /^Binary files /m, `${name}: git shows the file as binary`);
    // Through a real push (combined diff and per-commit stream), and `review --range` alike.
    const run = await push(r, name);
    assert.equal(run.code, 1, `${name}: ${run.stderr}`);
    assert.ok(run.stderr.includes(`${where} security AWS access key ID committed`), `${name}: ${run.stderr}`);
    assert.equal(remoteHas(bare, name), null, name);
    const review = await r.cli(['review', '--range', 'HEAD~2..HEAD~1']);
    assert.equal(review.code, 1, `${name}: ${review.stderr}`);
    assert.ok(review.stdout.includes(where), `${name}: ${review.stdout}`);
    r.git(['checkout', '-q', 'main']);
  }
  // Staged (the commit-msg hook's diff) too: the commit is recorded with the finding.
  branch(r, 'staged-binary');
  r.write('sub/.gitattributes', '* binary\n');
  r.write('sub/staged.ts', `export const k = "${AWS_KEY}";\n`);
  r.git(['add', '-A']);
  const staged = await r.cli(['review', '--staged']);
  assert.equal(staged.code, 1, staged.stderr);
  assert.match(staged.stdout, /sub\/staged\.ts:1/);
  const worktree = await r.cli(['review']);
  assert.equal(worktree.code, 1, worktree.stderr);
  assert.match(worktree.stdout, /sub\/staged\.ts:1/);
  r.git(['reset', '-q', '--hard']);
  r.git(['checkout', '-q', 'main']);
});

test('a stale remote-tracking branch exempts nothing: a key the remote no longer has is refused when pushed again', async () => {
  const { r, bare } = await repo();
  branch(r, 'gone');
  commit(r, 'feat: key', { 'gone.js': `export const k = "${AWS_KEY}";\n` });
  // On the remote before the gate (pushed without hooks), then deleted there by someone else:
  // this clone's origin/gone still names it.
  const skipped = await r.run(['push', '--no-verify', 'origin', 'gone']);
  assert.equal(skipped.code, 0, skipped.stderr);
  bare.git(['update-ref', '-d', 'refs/heads/gone']);
  assert.ok(r.git(['rev-parse', '--verify', '-q', 'refs/remotes/origin/gone']).trim());
  r.git(['checkout', '-q', '-b', 'again', 'gone']);
  commit(r, 'docs: on top', { 'again.md': 'more\n' });
  const refused = await push(r, 'again');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /gone\.js:1 /);
  assert.match(refused.stderr, KEY_FINDING);
  assert.equal(remoteHas(bare, 'again'), null);
  // Control: a branch on commits the remote does have is accepted, and reviews only its own.
  branch(r, 'fresh');
  commit(r, 'docs: fresh', { 'fresh.md': 'fresh\n' });
  const accepted = await push(r, 'fresh');
  assert.equal(accepted.code, 0, accepted.stderr);
  r.git(['checkout', '-q', 'main']);
});
