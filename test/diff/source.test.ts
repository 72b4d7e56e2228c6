import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readDiffText, diffSourceFromFile } from '../../lib/diff/source.js';
import { parseDiff } from '../../lib/diff/parse.js';
import { InputError, UsageError } from '../../lib/core/errors.js';
import { throwawayRepos } from '../kit/repo.js';

const repo = throwawayRepos();
const paths = (text: string) =>
  parseDiff(text)
    .map((f) => f.newPath ?? f.oldPath)
    .sort();

test('a repository without commits: worktree and staged diff against the empty tree', async () => {
  const r = repo();
  r.write('a.txt', 'a\n');
  r.write('sub/b.txt', 'b\n');
  r.git(['add', 'a.txt']);
  assert.deepEqual(paths(await readDiffText(r.dir, { kind: 'staged' })), ['a.txt']);
  r.git(['add', 'sub/b.txt']);
  r.write('a.txt', 'a\nmore\n');
  const worktree = parseDiff(await readDiffText(join(r.dir, 'sub'), { kind: 'worktree' }));
  assert.deepEqual(worktree.map((f) => [f.newPath, f.status]).sort(), [
    ['a.txt', 'added'],
    ['sub/b.txt', 'added'],
  ]);
  assert.equal(worktree.find((f) => f.newPath === 'a.txt')!.hunks[0]!.lines.length, 2);
});

test('worktree, staged and ranges in a repository with history; user config does not change the format', async () => {
  const r = repo();
  const base = r.commit('base', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  r.git(['checkout', '-q', '-b', 'topic']);
  const topic = r.commit('topic', { 'a.txt': 'a\ntopic\n' });
  r.git(['checkout', '-q', 'main']);
  r.commit('main', { 'b.txt': 'b\nmain\n' });
  for (const [k, v] of [
    ['diff.noprefix', 'true'],
    ['color.ui', 'always'],
    ['diff.relative', 'true'],
    ['diff.external', 'false'],
    ['diff.mnemonicPrefix', 'true'],
  ]) {
    r.git(['config', k!, v!]);
  }
  r.write('b.txt', 'changed\n');
  r.write('c.txt', 'staged\n');
  r.git(['add', 'c.txt']);
  mkdirSync(join(r.dir, 'deep'));
  assert.deepEqual(paths(await readDiffText(join(r.dir, 'deep'), { kind: 'worktree' })), ['b.txt', 'c.txt']);
  assert.deepEqual(paths(await readDiffText(r.dir, { kind: 'staged' })), ['c.txt']);
  assert.deepEqual(paths(await readDiffText(r.dir, { kind: 'range', range: 'main..topic' })), ['a.txt', 'b.txt']);
  assert.deepEqual(paths(await readDiffText(r.dir, { kind: 'range', range: 'main...topic' })), ['a.txt']);
  assert.deepEqual(paths(await readDiffText(r.dir, { kind: 'range', range: `${base}..${topic}` })), ['a.txt']);
  await assert.rejects(readDiffText(r.dir, { kind: 'range', range: '--output=x' }), UsageError);
  await assert.rejects(
    readDiffText(r.dir, { kind: 'range', range: 'nope..main' }),
    (e: unknown) => e instanceof InputError && /git diff nope\.\.main failed/.test(e.message),
  );
});

test('--diff FILE and - (stdin)', async () => {
  const r = repo();
  writeFileSync(join(r.dir, 'x.diff'), 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');
  const fromFile = await diffSourceFromFile('x.diff', r.dir);
  assert.deepEqual(fromFile.kind === 'text' && [fromFile.name, paths(fromFile.text)], ['x.diff', ['x']]);
  const fromStdin = await diffSourceFromFile('-', r.dir, Readable.from([Buffer.from('diff --git a/y b/y\n')]));
  assert.deepEqual(fromStdin.kind === 'text' && [fromStdin.name, fromStdin.text], ['stdin', 'diff --git a/y b/y\n']);
  await assert.rejects(
    diffSourceFromFile('missing.diff', r.dir),
    (e: unknown) => e instanceof InputError && /missing\.diff does not exist/.test(e.message),
  );
  mkdirSync(join(r.dir, 'folder.diff'));
  await assert.rejects(
    diffSourceFromFile('folder.diff', r.dir),
    (e: unknown) => e instanceof InputError && /folder\.diff: it is a folder/.test(e.message),
  );
});
