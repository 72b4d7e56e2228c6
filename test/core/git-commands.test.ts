/**
 * The parsers of the named git commands (lib/core/git/commands.ts), as pure functions of git's
 * output: a cat-file batch reads back every object exactly, whatever bytes it holds; worktree
 * lists, status entries and single answers as git prints them. One command runs against a real
 * repository, to show run hands the parser git's own answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  configValue,
  listRefs,
  lsTree,
  parseLsTree,
  parseConfigValue,
  parseStatusPaths,
  parseVerified,
  parseWorktreeList,
  peel,
  run,
} from '../../lib/core/git/commands.js';
import { GitError } from '../../lib/core/git/errors.js';
import { throwawayRepos } from '../kit/repo.js';

const repos = throwawayRepos();

test('worktree list: each block is one worktree, the bare one marked', () => {
  const text =
    'worktree /srv/repo.git\nbare\n\nworktree /home/a/x y\nHEAD 0123\nbranch refs/heads/main\n\nworktree /tmp/w\nHEAD 4567\ndetached\n\n';
  assert.deepEqual(parseWorktreeList(text), [
    { path: '/srv/repo.git', bare: true },
    { path: '/home/a/x y', bare: false },
    { path: '/tmp/w', bare: false },
  ]);
  assert.deepEqual(parseWorktreeList(''), []);
});

test('status -z: the path of each entry, with spaces kept', () => {
  assert.deepEqual(parseStatusPaths(' M .husky/commit-msg\0?? a b.txt\0'), ['.husky/commit-msg', 'a b.txt']);
});

test('single answers: a name or value on exit 0, null on the exit code that means none', () => {
  assert.equal(parseVerified(`${'f'.repeat(40)}\n`, 0), 'f'.repeat(40));
  assert.equal(parseVerified('', 1), null);
  assert.equal(parseVerified('', 0), null);
  assert.equal(parseConfigValue(';\n', 0), ';');
  assert.equal(parseConfigValue('', 1), null);
});

test('run: the parser gets git’s own answer (unset key null, HEAD peeled to its commit)', async () => {
  const repo = repos();
  repo.git(['config', 'core.commentChar', ';']);
  assert.equal(await run(configValue('core.commentChar'), { cwd: repo.dir }), ';');
  assert.equal(await run(configValue('revtrail.nothing'), { cwd: repo.dir }), null);
  assert.equal(await run(peel('HEAD'), { cwd: repo.dir }), null);
  repo.write('a.txt', 'a\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'a']);
  assert.equal(await run(peel('HEAD'), { cwd: repo.dir }), repo.git(['rev-parse', 'HEAD']).trim());
});

test('run: a command past its timeout is killed and fails as a GitError, input reaches git’s stdin', async () => {
  const repo = repos();
  const started = Date.now();
  await assert.rejects(
    run({ args: ['-c', 'alias.wait=!sleep 1', 'wait'], timeoutMs: 100, parse: () => null }, { cwd: repo.dir }),
    (error: Error) => {
      assert.ok(error instanceof GitError, String(error));
      assert.match(error.message, /killed by SIGKILL/);
      return true;
    },
  );
  assert.ok(Date.now() - started < 5000);
  const blob = await run(
    { args: ['hash-object', '--stdin'], input: Buffer.from('a\n'), parse: (a) => a.text.trim() },
    { cwd: repo.dir },
  );
  assert.equal(blob, repo.git(['hash-object', '--stdin'], { input: 'a\n' }).trim());
});

test('ls-tree -z: mode, type, object, size (with -l) and the path, tabs and spaces in names kept', () => {
  const oid = 'b'.repeat(40);
  assert.deepEqual(parseLsTree(`100644 blob ${oid}      12\ta b.txt\x00040000 tree ${oid}       -\tdir\0`), [
    { mode: '100644', type: 'blob', oid, size: 12, path: 'a b.txt' },
    { mode: '040000', type: 'tree', oid, size: null, path: 'dir' },
  ]);
  assert.deepEqual(parseLsTree(`100755 blob ${oid}\tx\ty\0`), [
    { mode: '100755', type: 'blob', oid, size: null, path: 'x\ty' },
  ]);
});

test('lsTree: paths are literal (a file named * lists itself, not every file)', async () => {
  const repo = repos();
  repo.write('*', 'star\n');
  repo.write('other.txt', 'other\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'two']);
  const listed = await run(lsTree('HEAD', ['*'], { sizes: true }), { cwd: repo.dir });
  assert.deepEqual(
    listed.map((e) => [e.path, e.type, e.size]),
    [['*', 'blob', 5]],
  );
});

test("listRefs: each ref with its commit (an annotated tag peeled, a tree none) and a symbolic ref's target, in one process", async () => {
  const repo = repos();
  repo.write('a.txt', 'a\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'a']);
  const head = repo.git(['rev-parse', 'HEAD']).trim();
  const tree = repo.git(['rev-parse', 'HEAD^{tree}']).trim();
  repo.git(['tag', '-a', '-m', 'v1', 'v1']);
  repo.git(['update-ref', 'refs/remotes/origin/main', head]);
  repo.git(['update-ref', 'refs/remotes/origin/tree', tree]);
  repo.git(['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main']);
  const refs = await run(listRefs(['refs/remotes/', 'refs/tags/v1', 'refs/heads/none']), { cwd: repo.dir });
  // The commit and the symbolic target of each (the listing's other fields: test/org/listing.test.ts).
  const commits = [...refs.entries()].map(([name, r]) => [name, { commit: r.commit, symref: r.symref }] as const);
  assert.deepEqual(commits.sort(), [
    ['refs/remotes/origin/HEAD', { commit: head, symref: 'refs/remotes/origin/main' }],
    ['refs/remotes/origin/main', { commit: head, symref: null }],
    ['refs/remotes/origin/tree', { commit: null, symref: null }],
    ['refs/tags/v1', { commit: head, symref: null }],
  ]);
});
