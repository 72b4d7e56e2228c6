import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDiff } from '../../lib/diff/parse.js';
import { formatFile } from '../../lib/diff/format.js';
import { quotePath, unquotePath } from '../../lib/diff/quote.js';
import { InputError } from '../../lib/core/errors.js';
import { throwawayRepos } from '../kit/repo.js';
import type { DiffFile } from '../../lib/diff/types.js';

const repo = throwawayRepos();
const DIFF = ['diff', '--no-ext-diff', '--no-color', '-M', '--src-prefix=a/', '--dst-prefix=b/'];
const byPath = (files: DiffFile[], path: string) => {
  const f = files.find((x) => (x.newPath ?? x.oldPath) === path);
  assert.ok(f, `no file ${JSON.stringify(path)} in ${JSON.stringify(files.map((x) => x.newPath ?? x.oldPath))}`);
  return f;
};

test('new files: spaces, quotes, newline, non-ASCII, CRLF, no newline at end, binary, empty', () => {
  const r = repo();
  r.write('with space.txt', 'hello\n');
  r.write('q"uote.txt', 'x\n');
  r.write('ünï.txt', 'ü\n');
  r.write('new\nline.txt', 'n\n');
  r.write('crlf.txt', 'one\r\ntwo\r\n');
  r.write('nonl.txt', 'a\nlast');
  r.write('b.bin', Buffer.from([0, 1, 2, 3]));
  r.write('empty', '');
  r.git(['add', '-A']);
  const text = r.git([...DIFF, '--cached']);
  assert.match(text, /"b\/new\\nline\.txt"/); // git really quoted it
  const files = parseDiff(text, 'staged');
  assert.equal(files.length, 8);
  for (const f of files) {
    assert.equal(f.status, 'added');
    assert.equal(f.oldPath, null);
    assert.equal(f.newMode, '100644');
  }
  assert.deepEqual(
    byPath(files, 'with space.txt').hunks[0]!.lines.map((l) => l.text),
    ['hello'],
  );
  assert.equal(byPath(files, 'q"uote.txt').hunks[0]!.lines[0]!.text, 'x');
  assert.equal(byPath(files, 'ünï.txt').hunks[0]!.lines[0]!.text, 'ü');
  assert.equal(byPath(files, 'new\nline.txt').hunks.length, 1);
  const crlf = byPath(files, 'crlf.txt').hunks[0]!.lines;
  assert.deepEqual(
    crlf.map((l) => [l.kind, l.text, l.newLine]),
    [
      ['add', 'one', 1],
      ['add', 'two', 2],
    ],
  );
  const nonl = byPath(files, 'nonl.txt').hunks[0]!.lines;
  assert.equal(nonl[1]!.text, 'last');
  assert.equal(nonl[1]!.noNewlineAtEnd, true);
  assert.equal(nonl[0]!.noNewlineAtEnd, undefined);
  assert.equal(byPath(files, 'b.bin').binary, true);
  assert.equal(byPath(files, 'b.bin').hunks.length, 0);
  assert.equal(byPath(files, 'empty').hunks.length, 0);
});

test('renames (with spaces), deletions, mode-only changes, binary changes, numbering in the new file', () => {
  const r = repo();
  const body = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  r.commit('base', {
    'old name.txt': body,
    'gone.txt': 'bye\n',
    'run.sh': 'echo\n',
    'img.bin': Buffer.from([0, 1]),
    'src/a.ts': body,
  });
  r.git(['mv', 'old name.txt', 'new name.txt']);
  r.write('new name.txt', body.replace('line 10\n', 'line 10\nadded\n'));
  r.git(['rm', '-q', 'gone.txt']);
  r.write('img.bin', Buffer.from([0, 1, 2]));
  r.write('src/a.ts', body.replace('line 2\n', '').replace('line 15\n', 'fifteen\n'));
  r.git(['add', '-A']);
  r.git(['update-index', '--chmod=+x', 'run.sh']);
  const files = parseDiff(r.git([...DIFF, '--cached']));
  const renamed = byPath(files, 'new name.txt');
  assert.equal(renamed.status, 'renamed');
  assert.equal(renamed.oldPath, 'old name.txt');
  const added = renamed.hunks[0]!.lines.find((l) => l.kind === 'add')!;
  assert.deepEqual([added.text, added.newLine], ['added', 11]);
  const gone = byPath(files, 'gone.txt');
  assert.deepEqual([gone.status, gone.newPath, gone.oldMode], ['deleted', null, '100644']);
  assert.deepEqual(
    gone.hunks[0]!.lines.map((l) => [l.kind, l.text, l.oldLine]),
    [['del', 'bye', 1]],
  );
  const mode = byPath(files, 'run.sh');
  assert.deepEqual([mode.status, mode.oldMode, mode.newMode, mode.hunks.length], ['modified', '100644', '100755', 0]);
  const bin = byPath(files, 'img.bin');
  assert.deepEqual([bin.status, bin.binary], ['modified', true]);
  const a = byPath(files, 'src/a.ts');
  const adds = a.hunks.flatMap((h) => h.lines).filter((l) => l.kind === 'add');
  assert.deepEqual(
    adds.map((l) => [l.text, l.newLine]),
    [['fifteen', 14]],
  );
});

test('quoted rename and copy headers, --binary patches, suppressBlankEmpty', () => {
  const r = repo();
  const body = 'a\nb\n\nc\nd\ne\n';
  r.commit('base', { 'src/ört.txt': body, 'orig.txt': 'one\ntwo\nthree\nfour\n', 'b.bin': Buffer.from([0, 9]) });
  r.git(['mv', 'src/ört.txt', 'src/"q" x.txt']);
  r.write('copy.txt', 'one\ntwo\nthree\nfour\n');
  r.write('src/"q" x.txt', body.replace('d\n', 'D\n'));
  r.write('b.bin', Buffer.from([0, 9, 9]));
  r.git(['add', '-A']);
  const text = r.git([
    '-c',
    'diff.suppressBlankEmpty=true',
    ...DIFF,
    '--binary',
    '-C',
    '--find-copies-harder',
    '--cached',
  ]);
  assert.match(text, /GIT binary patch/);
  assert.match(text, /^copy from orig\.txt$/m);
  const files = parseDiff(text);
  const renamed = byPath(files, 'src/"q" x.txt');
  assert.deepEqual([renamed.status, renamed.oldPath], ['renamed', 'src/ört.txt']);
  assert.ok(renamed.hunks[0]!.lines.some((l) => l.kind === 'context' && l.text === ''));
  assert.deepEqual(
    renamed.hunks[0]!.lines.filter((l) => l.kind === 'add').map((l) => [l.text, l.newLine]),
    [['D', 5]],
  );
  const copy = byPath(files, 'copy.txt');
  assert.deepEqual([copy.status, copy.oldPath], ['copied', 'orig.txt']);
  const bin = byPath(files, 'b.bin');
  assert.deepEqual([bin.binary, bin.hunks.length], [true, 0]);
  assert.equal(files.length, 3);
});

test('formatFile writes back what parseDiff reads', () => {
  const r = repo();
  r.commit('base', { 'a b.txt': 'x\ny\n', 'del.txt': 'd\n', 'm.sh': 'm\n' });
  r.git(['mv', 'a b.txt', 'c d.txt']);
  r.write('c d.txt', 'x\nY\n');
  r.write('new\tfile.txt', 'n\nlast');
  r.write('ü.txt', 'u\r\n');
  r.git(['rm', '-q', 'del.txt']);
  r.git(['add', '-A']);
  r.git(['update-index', '--chmod=+x', 'm.sh']);
  const files = parseDiff(r.git([...DIFF, '--cached']));
  assert.equal(files.length, 5);
  const again = parseDiff(files.map((f) => formatFile(f)).join(''));
  // An unchanged mode and the objects live only on git's `index` line, which is not written back.
  const withoutIndex = files.map(({ blobs: _blobs, ...f }) => f);
  const unchangedModesDropped = withoutIndex.map((f) =>
    (f.status === 'modified' || f.status === 'renamed') && f.oldMode === f.newMode
      ? { ...f, oldMode: null, newMode: null }
      : f,
  );
  assert.deepEqual(again, unchangedModesDropped);
});

test('plain diff -u output and mnemonic prefixes', () => {
  const plain = [
    '--- src/app.js\t2024-01-01 10:00:00.000000000 +0000',
    '+++ src/app.js\t2024-01-02 10:00:00.000000000 +0000',
    '@@ -1,2 +1,3 @@',
    ' const a = 1;',
    '+const b = 2;',
    ' export { a };',
  ].join('\n');
  const [f] = parseDiff(plain, 'x.patch');
  assert.deepEqual([f!.oldPath, f!.newPath, f!.status], ['src/app.js', 'src/app.js', 'modified']);
  assert.deepEqual(f!.hunks[0]!.lines[1], { kind: 'add', text: 'const b = 2;', oldLine: null, newLine: 2 });
  const mnemonic = 'diff --git i/x.ts w/x.ts\nindex 1..2 100644\n--- i/x.ts\n+++ w/x.ts\n@@ -1 +1 @@\n-a\n+b\n';
  assert.equal(parseDiff(mnemonic)[0]!.newPath, 'x.ts');
});

test('a deleted line that reads "-- x" is not a file header; a CRLF diff file parses', () => {
  const text =
    'diff --git a/s.sql b/s.sql\n--- a/s.sql\n+++ b/s.sql\n@@ -1,2 +1,2 @@\n--- comment\n-++ x\n+-- new\n+b\n';
  const [f] = parseDiff(text.replace(/\n/g, '\r\n'));
  assert.deepEqual(
    f!.hunks[0]!.lines.map((l) => [l.kind, l.text]),
    [
      ['del', '-- comment'],
      ['del', '++ x'],
      ['add', '-- new'],
      ['add', 'b'],
    ],
  );
});

test('combined (merge) diffs are skipped; text around a diff (format-patch mail) is ignored', () => {
  const cc =
    'diff --cc a.txt\nindex 1,2..3\n--- a/a.txt\n+++ b/a.txt\n@@@ -1,1 -1,1 +1,3 @@@\n++<<<<<<< HEAD\n + main\n++>>>>>>> side\n';
  const plain = 'diff --git a/b b/b\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-x\n+y\n';
  assert.deepEqual(
    parseDiff(cc + plain).map((f) => f.newPath),
    ['b'],
  );
  const mail = `From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n b | 2 +-\n\n${plain}-- \n2.39.5\n`;
  assert.deepEqual(
    parseDiff(mail).map((f) => [f.newPath, f.hunks[0]!.lines.length]),
    [['b', 2]],
  );
});

test('empty diffs, text that is not a diff, damaged hunks', () => {
  assert.deepEqual(parseDiff(''), []);
  assert.deepEqual(parseDiff('\n\n'), []);
  assert.deepEqual(parseDiff('* Unmerged path a.txt\n'), []);
  assert.throws(
    () => parseDiff('hello world\nthis is prose\n', 'notes.txt'),
    (e: unknown) => e instanceof InputError && e.exitCode === 2 && /notes\.txt is not a unified diff/.test(e.message),
  );
  assert.throws(
    () => parseDiff('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n', 'cut.diff'),
    (e: unknown) => e instanceof InputError && /cut\.diff:6: the diff ends inside a hunk/.test(e.message),
  );
  assert.throws(
    () => parseDiff('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n?b\n', 'bad.diff'),
    (e: unknown) => e instanceof InputError && /bad\.diff:6: unexpected line inside a hunk/.test(e.message),
  );
  assert.throws(
    () => parseDiff('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -x +y @@\n', 'h.diff'),
    (e: unknown) => e instanceof InputError && /h\.diff:4: malformed hunk header/.test(e.message),
  );
});

test('C-style quoting both ways', () => {
  assert.equal(unquotePath('"a\\nb"'), 'a\nb');
  assert.equal(unquotePath('"\\303\\274.txt"'), 'ü.txt');
  assert.equal(unquotePath('"q\\"t\\\\"'), 'q"t\\');
  assert.equal(unquotePath('plain name'), 'plain name');
  assert.equal(quotePath('a\nb'), '"a\\nb"');
  assert.equal(quotePath('ü.txt'), '"\\303\\274.txt"');
  assert.equal(quotePath('with space'), 'with space');
});
