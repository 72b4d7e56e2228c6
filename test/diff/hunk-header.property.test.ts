/**
 * The one hunk-header reader (lib/diff/hunk-header.ts): any header written with or without its
 * counts reads back as written, whatever its section holds (a CR, U+2028, `@@`); a line that
 * is not a header (a body line, a combined diff's `@@@`) reads as none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseHunkHeader } from '../../lib/diff/hunk-header.js';

const count = fc.nat({ max: 1_000_000 });
const section = fc.oneof(fc.string(), fc.constantFrom('', ' function f() {\r', ' a\u2028b', ' @@ x @@'));

test('a header reads back as written, a count left out is 1', () => {
  fc.assert(
    fc.property(count, fc.option(count), count, fc.option(count), section, (os, ol, ns, nl, tail) => {
      const side = (start: number, lines: number | null) => (lines === null ? `${start}` : `${start},${lines}`);
      const line = `@@ -${side(os, ol)} +${side(ns, nl)} @@${tail}`;
      assert.deepEqual(parseHunkHeader(line), {
        oldStart: os,
        oldLines: ol ?? 1,
        newStart: ns,
        newLines: nl ?? 1,
        tail,
      });
    }),
  );
});

test('lines that are not a hunk header read as none', () => {
  for (const line of [
    '',
    '+@@ -1 +1 @@',
    ' @@ -1 +1 @@',
    '@@@ -1,2 -1,2 +1,3 @@@',
    '@@ -x +1 @@',
    '@@ -1 +1',
    '@@-1 +1@@',
  ])
    assert.equal(parseHunkHeader(line), null, line);
});
