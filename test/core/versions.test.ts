/**
 * The one reader of file versions (lib/core/git/versions.ts) against real repositories: many
 * questions, one git process; answers cut at the asker's cap as they arrive, and the next answer
 * still right after a cut one; the index read again once it changed; tree objects read as
 * ls-tree lists them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileVersions, fileVersions, parseTreeObject, versionName } from '../../lib/core/git/versions.js';
import { lsTree, run } from '../../lib/core/git/commands.js';
import { tempDir, throwawayRepos } from '../kit/repo.js';

const repos = throwawayRepos();

/** Runs `body` with GIT_TRACE into a file; returns how many git processes started meanwhile. */
async function gitStarts(body: () => Promise<void>): Promise<number> {
  const trace = join(tempDir(), 'trace');
  writeFileSync(trace, '');
  const before = process.env.GIT_TRACE;
  process.env.GIT_TRACE = trace;
  try {
    await body();
  } finally {
    if (before === undefined) delete process.env.GIT_TRACE;
    else process.env.GIT_TRACE = before;
  }
  return [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git /g)].length;
}

test('many questions of every kind, one git process; a missing name and a name with a line break are none', async () => {
  const r = repos();
  r.commit('one', { 'a.txt': 'alpha\n', 'src/b.txt': 'beta\n' });
  r.write('a.txt', 'staged\n');
  r.git(['add', 'a.txt']);
  const head = r.git(['rev-parse', 'HEAD']).trim();
  const reader = new FileVersions(r.dir);
  const starts = await gitStarts(async () => {
    const [a, b, staged, missing, broken, info, tree] = await Promise.all([
      reader.object(`${head}:a.txt`),
      reader.file({ kind: 'commit', commit: head }, 'src/b.txt', 1000),
      reader.file({ kind: 'index' }, 'a.txt', 1000),
      reader.object(`${head}:nothing.txt`),
      reader.object(`${head}:a.txt\n${head}:src/b.txt`),
      reader.info(`${head}:src/b.txt`),
      reader.object(`${head}:src`),
    ]);
    assert.equal(a?.bytes.toString(), 'alpha\n');
    assert.equal(a?.type, 'blob');
    assert.equal(b?.bytes.toString(), 'beta\n');
    assert.equal(staged?.bytes.toString(), 'staged\n');
    assert.equal(missing, null);
    assert.equal(broken, null);
    assert.deepEqual({ type: info?.type, size: info?.size }, { type: 'blob', size: 5 });
    assert.equal(tree?.type, 'tree');
    // Asked later, the same process answers.
    assert.equal((await reader.object(`${head}:a.txt`))?.bytes.toString(), 'alpha\n');
  });
  assert.equal(starts, 1);
  reader.close();
});

test('a blob past the cap: its start and its size, and the answer after it is whole', async () => {
  const r = repos();
  const big = 'x'.repeat(3 * 1024 * 1024 + 7);
  r.commit('big', { 'big.txt': big, 'small.txt': 'small\n' });
  const reader = new FileVersions(r.dir);
  const [cut, small, info] = await Promise.all([
    reader.object('HEAD:big.txt', 10),
    reader.object('HEAD:small.txt', 10),
    reader.info('HEAD:big.txt'),
  ]);
  assert.deepEqual(
    { bytes: cut?.bytes.toString(), size: cut?.size, cut: cut?.cut },
    {
      bytes: 'xxxxxxxxxx',
      size: big.length,
      cut: true,
    },
  );
  assert.deepEqual({ bytes: small?.bytes.toString(), cut: small?.cut }, { bytes: 'small\n', cut: false });
  assert.equal(info?.size, big.length);
  const empty = repos();
  empty.commit('empty', { 'e.txt': '' });
  const zero = await new FileVersions(empty.dir).object('HEAD:e.txt', 10);
  assert.deepEqual(
    { size: zero?.size, length: zero?.bytes.length, cut: zero?.cut },
    { size: 0, length: 0, cut: false },
  );
});

test('the index is read again once it changed: a staged change after the first read is seen', async () => {
  const r = repos();
  r.commit('one', { 'a.txt': 'first\n' });
  const reader = new FileVersions(r.dir);
  assert.equal((await reader.file({ kind: 'index' }, 'a.txt', 100))?.bytes.toString(), 'first\n');
  r.write('a.txt', 'second\n');
  r.git(['add', 'a.txt']);
  assert.equal((await reader.file({ kind: 'index' }, 'a.txt', 100))?.bytes.toString(), 'second\n');
  reader.close();
});

test('a path that starts like an index stage is read as the path', async () => {
  const r = repos();
  r.commit('odd', { '1:x': 'one-colon\n', x: 'plain\n' });
  assert.equal(versionName({ kind: 'index' }, '1:x'), ':0:1:x');
  const reader = new FileVersions(r.dir);
  assert.equal((await reader.file({ kind: 'index' }, '1:x', 100))?.bytes.toString(), 'one-colon\n');
  reader.close();
});

test('the work tree: a regular file through the safe reader; a symbolic link only when followed', async () => {
  const r = repos();
  r.write('real.txt', 'real\n');
  symlinkSync('real.txt', join(r.dir, 'link.txt'));
  const reader = fileVersions(r.dir);
  assert.equal(reader, fileVersions(r.dir), 'one reader per repository in a process');
  assert.equal((await reader.file({ kind: 'worktree' }, 'real.txt', 100))?.bytes.toString(), 'real\n');
  assert.equal(await reader.file({ kind: 'worktree' }, 'link.txt', 100), null);
  assert.equal((await reader.file({ kind: 'worktree' }, 'link.txt', 100, true))?.bytes.toString(), 'real\n');
  const cut = await reader.file({ kind: 'worktree' }, 'real.txt', 2);
  assert.deepEqual({ bytes: cut?.bytes.toString(), cut: cut?.cut }, { bytes: 're', cut: true });
  execFileSync('mkfifo', [join(r.dir, 'fifo')]);
  assert.equal(await reader.file({ kind: 'worktree' }, 'fifo', 100), null);
});

test('outside a repository every object is none, and git is started once', async () => {
  const dir = tempDir();
  const reader = new FileVersions(dir);
  const starts = await gitStarts(async () => {
    assert.equal(await reader.object('HEAD:a'), null);
    assert.equal(await reader.object('HEAD:b'), null);
    assert.equal(await reader.info('HEAD:c'), null);
  });
  assert.ok(starts <= 1, `${starts} starts`);
});

for (const objectFormat of ['sha1', 'sha256'] as const)
  test(`a tree object's entries are ls-tree's: modes, names, ids (${objectFormat})`, async () => {
    const r = repos({ objectFormat });
    r.write('file.txt', 'f\n');
    r.write('run.sh', '#!/bin/sh\n');
    r.write('dir/inner.txt', 'i\n');
    r.write('name with space', 's\n');
    symlinkSync('file.txt', join(r.dir, 'link'));
    r.git(['add', '-A']);
    r.git(['update-index', '--chmod=+x', 'run.sh']);
    const sub = r.git(['hash-object', '-w', '--stdin'], { input: 'not really a commit' }).trim();
    r.git(['update-index', '--add', '--cacheinfo', `160000,${sub},module`]);
    r.git(['commit', '-q', '-m', 'tree']);
    const tree = await new FileVersions(r.dir).object('HEAD:');
    assert.equal(tree?.type, 'tree');
    const parsed = parseTreeObject(tree!.bytes, tree!.oid.length / 2);
    const listed = await run(lsTree('HEAD', []), { cwd: r.dir });
    assert.deepEqual(
      parsed.map((e) => [e.mode, e.name, e.oid]),
      listed.map((e) => [e.mode, e.path, e.oid]),
    );
  });
