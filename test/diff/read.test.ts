/**
 * The one diff reader's events (lib/diff/read.ts, docs/architecture.md "The diff model"): what a
 * sink is handed for git's files, a plain `diff -u` file, the lines between files that belong to
 * none (the commit names `git diff-tree --stdin` prints, which the gate's facts read), skipped
 * combined diffs and binary patches, and a hunk read by its counts whatever its lines look like.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiffReader, readEvents, type DiffEvents } from '../../lib/diff/read.js';
import { InputError } from '../../lib/core/errors.js';

function events(text: string): string[] {
  const seen: string[] = [];
  const sink: DiffEvents = {
    gitFile: (rest) => seen.push(`git ${rest}`),
    plainFile: (o, n) => seen.push(`plain ${o} ${n}`),
    names: (o, n) => seen.push(`names ${o} ${n}`),
    endFile: () => seen.push('end'),
    header: (line) => seen.push(`header ${line}`),
    other: (line) => seen.push(`other ${line}`),
    hunk: (h, at) => seen.push(`hunk ${h.oldStart},${h.oldLines} ${h.newStart},${h.newLines} "${h.tail}" @${at}`),
    line: (kind, text, o, n) => seen.push(`${kind} ${o ?? '-'} ${n ?? '-'} ${text}`),
    noNewline: () => seen.push('no-newline'),
  };
  readEvents(text, sink);
  return seen;
}

test('git files, their headers and hunks, and the lines between files that belong to none', () => {
  const commit = 'a'.repeat(40);
  const text = [
    commit,
    'diff --git a/x b/x',
    'index 1234567..89abcde 100644',
    '--- a/x',
    '+++ b/x',
    '@@ -1 +1 @@ f()',
    '--- not a header',
    '+++ nor this',
    '\\ No newline at end of file',
    'b'.repeat(40),
    'diff --git a/m b/m',
    'old mode 100644',
    'new mode 100755',
    'c'.repeat(40),
  ].join('\n');
  assert.deepEqual(events(text), [
    `other ${commit}`,
    'git a/x b/x',
    'header index 1234567..89abcde 100644',
    'names a/x b/x',
    'hunk 1,1 1,1 " f()" @6',
    'del 1 - -- not a header',
    'add - 1 ++ nor this',
    'no-newline',
    `other ${'b'.repeat(40)}`,
    'git a/m b/m',
    'header old mode 100644',
    'header new mode 100755',
    `header ${'c'.repeat(40)}`,
  ]);
});

test('a plain diff -u file, a combined diff and a binary patch skipped, CRLF lines', () => {
  const text = [
    '--- a.txt\t2024-01-01',
    '+++ b.txt\t2024-01-02',
    '@@ -1,2 +1,2 @@',
    ' same\r',
    '\r',
    'diff --cc merged',
    '@@@ -1 -1 +1 @@@',
    '++x',
    'diff --git a/bin b/bin',
    'GIT binary patch',
    'literal 3',
    '@@ -1 +1 @@',
    'diff --git a/y b/y',
  ].join('\n');
  assert.deepEqual(events(text), [
    'plain a.txt\t2024-01-01 b.txt\t2024-01-02',
    'hunk 1,2 1,2 "" @3',
    'context 1 1 same',
    'context 2 2 ',
    'end',
    'git a/bin b/bin',
    'header GIT binary patch',
    'git a/y b/y',
  ]);
});

test('a hunk short of its counts, or a line its counts do not allow, throws an InputError naming the line', () => {
  assert.throws(
    () => events('diff --git a/x b/x\n@@ -1,3 +1,3 @@\n a\n'),
    (e: unknown) => e instanceof InputError && /diff:3:/.test(e.message),
  );
  assert.throws(
    () => events('diff --git a/x b/x\n@@ -1 +1 @@\n-a\n-b\n'),
    (e: unknown) => e instanceof InputError && /diff:4:/.test(e.message),
  );
  // Streamed line by line, the reader holds nothing but the line it reads.
  const reader = new DiffReader({ hunk() {}, line() {}, noNewline() {} }, 'stream');
  for (const line of ['diff --git a/x b/x', '@@ -0,0 +1 @@', '+k']) reader.line(line);
  reader.end();
  assert.equal(reader.recognized, true);
});
