/**
 * The default (work-tree) diff takes untracked, not ignored files as new files, through a
 * throwaway index: the user's index is never written.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDiffText } from '../../lib/diff/source.js';
import { parseDiff } from '../../lib/diff/parse.js';
import { makeRepo, tempDir, type TestRepo } from '../kit/repo.js';

// Temporary indexes go to os.tmpdir(): a private one shows that each is removed.
const scratch = tempDir('revtrail-untracked-tmp-');
process.env.TMPDIR = scratch;
const cleanups: Array<() => void> = [];
after(() => {
  cleanups.forEach((c) => {
    c();
  });
  rmSync(scratch, { recursive: true, force: true });
});
function repo(): TestRepo {
  const r = makeRepo();
  cleanups.push(() => r.cleanup());
  return r;
}
const summary = (text: string) =>
  parseDiff(text)
    .map(
      (f) =>
        `${f.status} ${f.oldPath && f.status !== 'added' && f.oldPath !== f.newPath ? `${f.oldPath} -> ` : ''}${f.newPath ?? f.oldPath}${f.binary ? ' (binary)' : ''}`,
    )
    .sort();

/** What must not change: the index file's bytes and git's view of what is staged. */
function indexState(r: TestRepo, gitDir = join(r.dir, '.git'), cwd = r.dir): string {
  // No optional locks: `git status` would otherwise refresh (rewrite) the index itself.
  const env = { GIT_OPTIONAL_LOCKS: '0' };
  return (
    readFileSync(join(gitDir, 'index')).toString('base64') +
    r.git(['diff', '--cached', '--stat'], { cwd, env }) +
    r.git(['status', '--porcelain=v1', '-z'], { cwd, env })
  );
}

test('untracked files are new files in the work-tree diff; ignored ones and nested repositories are not; the index is untouched', async () => {
  const r = repo();
  r.commit('base', {
    'kept.txt': 'kept\n',
    'gone.txt': 'same content\nfor the rename\n',
    '.gitignore': '*.log\nbuild/\n',
  });
  r.write('kept.txt', 'kept\nchanged\n');
  r.write('staged.txt', 'staged\n');
  r.git(['add', 'staged.txt']);
  r.write('sub dir/new file.js', 'debugger;\n');
  r.write('odd\nname "q".txt', 'odd\n');
  r.write('café/ünï.txt', 'utf8\n');
  r.write(':colon *.txt', 'literal pathspec\n');
  r.write('blob.bin', Buffer.from([0, 1, 2, 255, 0, 10]));
  r.write('debug.log', 'debugger;\n');
  r.write('build/out.js', 'debugger;\n');
  r.write('private.txt', 'excluded by info/exclude\n');
  mkdirSync(join(r.dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(r.dir, '.git', 'info', 'exclude'), 'private.txt\n');
  const nested = makeRepo({ dir: join(r.dir, 'nested') });
  nested.commit('inner', { 'inner.txt': 'inner\n' });
  // An unstaged deletion plus an untracked copy is a rename, as after a plain `mv`.
  rmSync(join(r.dir, 'gone.txt'));
  r.write('moved.txt', 'same content\nfor the rename\n');
  const before = indexState(r);

  const text = await readDiffText(join(r.dir, 'sub dir'), { kind: 'worktree' });
  assert.deepEqual(summary(text), [
    'added :colon *.txt',
    'added blob.bin (binary)',
    'added café/ünï.txt',
    'added odd\nname "q".txt',
    'added staged.txt',
    'added sub dir/new file.js',
    'modified kept.txt',
    'renamed gone.txt -> moved.txt',
  ]);
  const js = parseDiff(text).find((f) => f.newPath === 'sub dir/new file.js')!;
  assert.deepEqual(
    js.hunks[0]!.lines.map((l) => [l.kind, l.newLine, l.text]),
    [['add', 1, 'debugger;']],
  );
  assert.equal(indexState(r), before);
  // The staged diff is unchanged: only what the index holds.
  assert.deepEqual(summary(await readDiffText(r.dir, { kind: 'staged' })), ['added staged.txt']);
  assert.deepEqual(
    readdirSync(scratch).filter((n) => n.startsWith('revtrail-index-')),
    [],
    'the temporary index is removed',
  );
});

test('a new folder is one pathspec; a repository nested in it is left out, its other files are not', async () => {
  const r = repo();
  r.commit('base', { 'src/kept.js': 'kept\n', '.gitignore': '*.log\n' });
  for (let i = 0; i < 300; i++) r.write(`generated/part ${i}/file.js`, `export const n${i} = ${i};\n`);
  r.write('generated/skip.log', 'ignored\n');
  r.write('tools/new/tool.js', 'tool\n');
  r.write('tools/new/notes/more.md', 'more\n');
  const inner = makeRepo({ dir: join(r.dir, 'tools', 'new', 'vendored') });
  inner.commit('inner', { 'inner.js': 'debugger;\n' });
  makeRepo({ dir: join(r.dir, 'empty-repo') });
  r.write('src/loose.js', 'loose\n');
  const before = indexState(r);
  const files = summary(await readDiffText(r.dir, { kind: 'worktree' }));
  assert.equal(files.length, 303);
  assert.deepEqual(
    files.filter((f) => !f.startsWith('added generated/part ')),
    ['added src/loose.js', 'added tools/new/notes/more.md', 'added tools/new/tool.js'],
  );
  assert.ok(files.includes('added generated/part 299/file.js'));
  assert.equal(indexState(r), before);
});

test('a file name that is not UTF-8 reaches git byte for byte', async () => {
  const r = repo();
  r.commit('base', { 'a.txt': 'a\n' });
  writeFileSync(Buffer.from(`${r.dir}/lat\xe9.txt`, 'latin1'), 'latin-1 name\n');
  const before = indexState(r);
  const files = parseDiff(await readDiffText(r.dir, { kind: 'worktree' }));
  assert.equal(files.length, 1);
  assert.equal(files[0]!.status, 'added');
  assert.deepEqual(
    files[0]!.hunks[0]!.lines.map((l) => l.text),
    ['latin-1 name'],
  );
  assert.equal(indexState(r), before);
});

test('no untracked files: the diff is `git diff HEAD`; nothing changed: empty', async () => {
  const r = repo();
  r.commit('base', { 'a.txt': 'a\n', '.gitignore': 'tmp/\n' });
  r.write('tmp/x.txt', 'ignored\n');
  assert.equal(await readDiffText(r.dir, { kind: 'worktree' }), '');
  r.write('a.txt', 'a\nb\n');
  assert.equal(await readDiffText(r.dir, { kind: 'worktree' }), r.git(['diff', '--no-color', 'HEAD']));
});

test('a repository without commits: untracked and staged files are new, against the empty tree; no index file yet', async () => {
  const r = repo();
  r.write('only untracked.txt', 'first\n');
  assert.deepEqual(summary(await readDiffText(r.dir, { kind: 'worktree' })), ['added only untracked.txt']);
  assert.throws(() => readFileSync(join(r.dir, '.git', 'index')), /ENOENT/, 'no index was created');
  r.write('staged.txt', 'staged\n');
  r.git(['add', 'staged.txt']);
  const before = indexState(r);
  assert.deepEqual(summary(await readDiffText(r.dir, { kind: 'worktree' })), [
    'added only untracked.txt',
    'added staged.txt',
  ]);
  assert.equal(indexState(r), before);
});

test('a linked worktree: its own untracked files, its own index, both indexes untouched', async () => {
  const r = repo();
  r.commit('base', { 'a.txt': 'a\n' });
  r.write('main-only.txt', 'untracked in the main work tree\n');
  const linked = join(tempDir('revtrail-linked-'), 'wt');
  cleanups.push(() => rmSync(join(linked, '..'), { recursive: true, force: true }));
  r.git(['worktree', 'add', '-q', '-b', 'side', linked]);
  writeFileSync(join(linked, 'linked new.txt'), 'new in the linked tree\n');
  writeFileSync(join(linked, 'a.txt'), 'a\nlinked\n');
  const linkedGitDir = r.git(['rev-parse', '--absolute-git-dir'], { cwd: linked }).trim();
  const mainBefore = indexState(r);
  const linkedBefore = indexState(r, linkedGitDir, linked);
  assert.deepEqual(summary(await readDiffText(linked, { kind: 'worktree' })), [
    'added linked new.txt',
    'modified a.txt',
  ]);
  assert.deepEqual(summary(await readDiffText(r.dir, { kind: 'worktree' })), ['added main-only.txt']);
  assert.equal(indexState(r), mainBefore);
  assert.equal(indexState(r, linkedGitDir, linked), linkedBefore);
});

test('a split index: the shared index files in the git dir stay as they were', async () => {
  const r = repo();
  r.git(['config', 'core.splitIndex', 'true']);
  r.commit('base', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  r.write('c.txt', 'c\n');
  const shared = () =>
    readdirSync(join(r.dir, '.git'))
      .filter((n) => n.startsWith('sharedindex.'))
      .sort();
  const filesBefore = shared();
  assert.equal(filesBefore.length, 1);
  const before = indexState(r);
  assert.deepEqual(summary(await readDiffText(r.dir, { kind: 'worktree' })), ['added c.txt']);
  assert.deepEqual(shared(), filesBefore);
  assert.equal(indexState(r), before);
});
