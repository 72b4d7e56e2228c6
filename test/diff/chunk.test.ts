import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDiff } from '../../lib/diff/parse.js';
import { toChunks, splitHunk } from '../../lib/diff/chunk.js';
import { throwawayRepos } from '../kit/repo.js';
import type { Hunk } from '../../lib/diff/types.js';

const newRepo = throwawayRepos();
const DIFF = ['diff', '--no-ext-diff', '--no-color', '-M', '--src-prefix=a/', '--dst-prefix=b/'];
const numbered = (n: number, f = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

/** Every piece must itself be a valid diff whose lines carry the same numbers as the whole. */
function assertPieceIsValid(diff: string, expectedAdds: Array<[string, number]>) {
  const [file] = parseDiff(diff, 'piece');
  const adds = file!.hunks
    .flatMap((h) => h.lines)
    .filter((l) => l.kind === 'add')
    .map((l) => [l.text, l.newLine]);
  assert.deepEqual(adds, expectedAdds);
}

test('small files are one piece; the piece carries headers, language, namespace and added lines', () => {
  const r = newRepo();
  r.commit('base', { 'src/store/db.go': 'package store\n\nfunc A() {}\n' });
  r.write('src/store/db.go', 'package store\n\nfunc A() {}\nfunc B() {}\n');
  r.git(['mv', 'src/store/db.go', 'src/store/data base.go']);
  r.git(['add', '-A']);
  const chunks = toChunks(parseDiff(r.git([...DIFF, '--cached'])), 400);
  assert.equal(chunks.length, 1);
  const c = chunks[0]!;
  assert.deepEqual(
    [c.path, c.oldPath, c.piece, c.language, c.namespace],
    ['src/store/data base.go', 'src/store/db.go', 1, 'go', 'store'],
  );
  assert.deepEqual(c.added, [{ line: 4, text: 'func B() {}' }]);
  assert.deepEqual([...c.changedLines], [4]);
  assert.match(c.diff, /^diff --git a\/src\/store\/db\.go b\/src\/store\/data base\.go\n/);
  assert.match(c.diff, /^rename from src\/store\/db\.go$/m);
  assertPieceIsValid(c.diff, [['func B() {}', 4]]);
});

test('files without text changes (binary, mode-only) are one piece with no hunks', () => {
  const [c] = toChunks(parseDiff('diff --git a/x.sh b/x.sh\nold mode 100644\nnew mode 100755\n'), 10);
  assert.deepEqual([c!.path, c!.piece, c!.hunks.length, c!.added.length], ['x.sh', 1, 0, 0]);
  assert.equal(c!.diff, 'diff --git a/x.sh b/x.sh\nold mode 100644\nnew mode 100755\n');
});

test('whole hunks stay together; a new piece starts when the next hunk does not fit', () => {
  const r = newRepo();
  const before = numbered(200);
  r.commit('base', { 'a.txt': before });
  // Three separate hunks with 3, 4 and 3 added lines.
  const after = before
    .replace('line 20\n', 'line 20\nA1\nA2\nA3\n')
    .replace('line 100\n', 'line 100\nB1\nB2\nB3\nB4\n')
    .replace('line 180\n', 'line 180\nC1\nC2\nC3\n');
  r.write('a.txt', after);
  const files = parseDiff(r.git([...DIFF]));
  assert.equal(files[0]!.hunks.length, 3);
  const chunks = toChunks(files, 7);
  assert.deepEqual(
    chunks.map((c) => c.added.map((a) => a.text)),
    [
      ['A1', 'A2', 'A3', 'B1', 'B2', 'B3', 'B4'],
      ['C1', 'C2', 'C3'],
    ],
  );
  assert.deepEqual(
    chunks.map((c) => c.piece),
    [1, 2],
  );
  assertPieceIsValid(chunks[1]!.diff, [
    ['C1', 188],
    ['C2', 189],
    ['C3', 190],
  ]);
  // Too small for two hunks: one per piece, none cut.
  assert.deepEqual(
    toChunks(files, 4).map((c) => c.added.length),
    [3, 4, 3],
  );
});

test('one oversized hunk is cut between runs first, inside a run only when the run alone is too long', () => {
  const r = newRepo();
  const before = numbered(30);
  r.commit('base', { 'a.txt': before });
  // One hunk (runs close together): run1 = 4 changed lines (2 replaced), run2 = 2, run3 = 24.
  const after = before
    .replace('line 5\n', 'five\n')
    .replace('line 6\n', 'X\n')
    .replace('line 9\n', 'nine\n')
    .replace(
      'line 12\n',
      numbered(12, (i) => `R${i}`),
    )
    .replace(/line (1[3-9]|2[0-3])\n/g, '');
  r.write('a.txt', after);
  const files = parseDiff(r.git([...DIFF]));
  assert.equal(files[0]!.hunks.length, 1);
  const changed = (h: Hunk) => h.lines.filter((l) => l.kind !== 'context').length;
  const parts = splitHunk(files[0]!.hunks[0]!, 6);
  for (const p of parts) assert.ok(changed(p) <= 6);
  // Runs of 4 and 2 share the first part whole; the long run is cut as needed.
  assert.deepEqual(parts.map(changed), [6, 6, 6, 6, 6]);
  assert.deepEqual(
    parts[0]!.lines.filter((l) => l.kind === 'add').map((l) => l.text),
    ['five', 'X', 'nine'],
  );
  assert.equal(
    parts.reduce((n, p) => n + changed(p), 0),
    changed(files[0]!.hunks[0]!),
  );
  const chunks = toChunks(files, 6);
  assert.equal(chunks.length, 5);
  const all = chunks.flatMap((c) => c.added);
  assert.deepEqual(
    all,
    files[0]!.hunks[0]!.lines.filter((l) => l.kind === 'add').map((l) => ({ line: l.newLine!, text: l.text })),
  );
  for (const c of chunks)
    assertPieceIsValid(
      c.diff,
      c.added.map((a) => [a.text, a.line]),
    );
});

test('cutting before a run keeps the run whole and repeats context', () => {
  const lines = [
    { kind: 'context', text: 'c1' },
    { kind: 'add', text: 'a1' },
    { kind: 'add', text: 'a2' },
    { kind: 'context', text: 'c2' },
    { kind: 'context', text: 'c3' },
    { kind: 'add', text: 'b1' },
    { kind: 'add', text: 'b2' },
    { kind: 'add', text: 'b3' },
    { kind: 'context', text: 'c4' },
  ] as const;
  let n = 1;
  const hunk: Hunk = {
    oldStart: 1,
    oldLines: 4,
    newStart: 1,
    newLines: 9,
    section: '',
    lines: lines.map((l) =>
      l.kind === 'add' ? { ...l, oldLine: null, newLine: n++ } : { ...l, oldLine: 0, newLine: n++ },
    ),
  };
  hunk.lines.forEach((l, i) => {
    if (l.kind === 'context') l.oldLine = [1, 0, 0, 2, 3, 0, 0, 0, 4][i]!;
  });
  const parts = splitHunk(hunk, 3);
  assert.deepEqual(
    parts.map((p) => p.lines.map((l) => l.text)),
    [
      ['c1', 'a1', 'a2', 'c2', 'c3'],
      ['c2', 'c3', 'b1', 'b2', 'b3', 'c4'],
    ],
  );
  assert.deepEqual(
    parts.map((p) => [p.oldStart, p.oldLines, p.newStart, p.newLines]),
    [
      [1, 3, 1, 5],
      [2, 3, 4, 6],
    ],
  );
});
