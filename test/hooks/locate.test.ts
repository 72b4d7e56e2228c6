import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { locateHook } from '../../lib/flows/locate.js';
import { findRepo } from '../../lib/core/git/repo.js';
import { NotARepositoryError } from '../../lib/core/git/errors.js';
import { throwawayRepos, tempDir } from '../kit/repo.js';

const cleanups: Array<() => void> = [];
after(() =>
  cleanups.forEach((c) => {
    c();
  }),
);
const repo = throwawayRepos();

test('an unborn branch: the same folders as findRepo, and no HEAD commit', async () => {
  const r = repo();
  mkdirSync(join(r.dir, 'sub'));
  const cwd = join(r.dir, 'sub');
  const where = await locateHook(cwd);
  assert.deepEqual(where.repo, await findRepo(cwd));
  assert.equal(where.repo.top, r.dir);
  assert.equal(where.hasHead, false);
});

test('after a commit HEAD is a commit; in a linked worktree gitDir and commonDir differ', async () => {
  const r = repo();
  r.commit('first', { 'a.txt': 'a\n' });
  assert.equal((await locateHook(r.dir)).hasHead, true);
  const parent = tempDir();
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const wt = join(parent, 'wt two');
  r.git(['worktree', 'add', '-q', '-b', 'two', wt]);
  const where = await locateHook(wt);
  assert.deepEqual(where.repo, await findRepo(wt));
  assert.equal(where.repo.top, wt);
  assert.equal(where.repo.commonDir, join(r.dir, '.git'));
  assert.notEqual(where.repo.gitDir, where.repo.commonDir);
  assert.equal(where.hasHead, true);
});

test('outside a repository: NotARepositoryError, as findRepo', async () => {
  const dir = tempDir();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  await assert.rejects(locateHook(dir), NotARepositoryError);
});
