/**
 * The diff model (docs/architecture.md "The diff model"): a `DiffFile` written by the one writer
 * (lib/diff/format.ts) and read back by the one reader (lib/diff/read.ts, through parseDiff) is
 * the same `DiffFile`, sections, modes, renames and a missing final newline included; the files
 * built from other things than diff text (lib/diff/build.ts, a merge's introduced lines) read
 * back as built; and under caps the input does not exceed, exactly to its sizes, the capped
 * reader (lib/diff/cap.ts) gives the same files as the uncapped one, in pieces of any size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDiff } from '../../lib/diff/parse.js';
import { formatFile } from '../../lib/diff/format.js';
import { addedFile } from '../../lib/diff/build.js';
import { DiffCapper } from '../../lib/diff/cap.js';
import { introducedFiles } from '../../lib/flows/merge-diff.js';
import type { DiffFile, DiffLine, Hunk } from '../../lib/diff/types.js';
import { numberedHunk } from '../kit/diff.js';

const RUNS = { numRuns: 300 };

// Line text: no newline, no trailing CR (a CRLF file's CR is not part of the line); the
// characters a reader could take for a marker or a header often.
const lineText = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('a', ' ', '-', '+', '\\', '@', '\r', 'é', '\t', 'diff --git ', '--- ', '+++ ', '@@ -1 +1 @@'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 12,
  })
  .map((t) => t.replace(/\n/g, ' ').replace(/\r+$/, ''));
const name = fc.constantFrom('a.ts', 'dir/b c.txt', 'é/日.go', 'q"uote', 'back\\slash', 'tab\there', 'x b/y');
const section = fc.constantFrom('', 'function f() {', '@@ x @@', 'class A');

/** Hunks with consistent counts and numbers, apart from each other; the last line may lack its newline. */
function hunksArb(kinds: readonly DiffLine['kind'][]): fc.Arbitrary<Hunk[]> {
  const spec = fc.tuple(
    fc.array(fc.tuple(fc.constantFrom(...kinds), lineText), { minLength: 1, maxLength: 8 }),
    fc.nat(4),
    section,
  );
  return fc.tuple(fc.array(spec, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([specs, noNewline]) => {
    const hunks: Hunk[] = [];
    let oldAt = 1;
    let newAt = 1;
    for (const [lines, gap, sec] of specs) {
      oldAt += gap;
      newAt += gap;
      const made = numberedHunk(lines, oldAt, newAt, sec);
      hunks.push(made.hunk);
      oldAt = made.oldAt;
      newAt = made.newAt;
    }
    if (noNewline) hunks[hunks.length - 1]!.lines.at(-1)!.noNewlineAtEnd = true;
    return hunks;
  });
}

const fileArb: fc.Arbitrary<DiffFile> = fc
  .tuple(fc.constantFrom('modified', 'added', 'deleted', 'renamed', 'copied', 'mode'), name, name, fc.boolean())
  .chain(([shape, a, b, binary]): fc.Arbitrary<DiffFile> => {
    const none = fc.constant<Hunk[]>([]);
    if (shape === 'added')
      return (binary ? none : hunksArb(['add'])).map((hunks) => ({
        oldPath: null,
        newPath: b,
        status: 'added',
        binary,
        oldMode: null,
        newMode: '100644',
        hunks,
      }));
    if (shape === 'deleted')
      return (binary ? none : hunksArb(['del'])).map((hunks) => ({
        oldPath: a,
        newPath: null,
        status: 'deleted',
        binary,
        oldMode: '100755',
        newMode: null,
        hunks,
      }));
    const moved = (shape === 'renamed' || shape === 'copied') && a !== b;
    return (binary ? none : hunksArb(['add', 'del', 'context'])).map((hunks) => ({
      oldPath: a,
      newPath: moved ? b : a,
      status: moved ? (shape as 'renamed' | 'copied') : 'modified',
      binary,
      oldMode: shape === 'mode' ? '100644' : null,
      newMode: shape === 'mode' ? '100755' : null,
      hunks,
    }));
  })
  .filter((f) => f.binary || f.hunks.length > 0 || f.status === 'renamed' || f.status === 'copied' || !!f.oldMode);

const write = (files: readonly DiffFile[]) => files.map((f) => formatFile(f)).join('');

test('a DiffFile written by the one writer reads back as the same DiffFile', () => {
  fc.assert(
    fc.property(fc.array(fileArb, { minLength: 1, maxLength: 4 }), (files) => {
      assert.deepEqual(parseDiff(write(files)), files);
    }),
    RUNS,
  );
});

test('files built from text (a message, a path list) and a merge’s introduced lines read back as built', () => {
  fc.assert(
    fc.property(fc.array(lineText, { minLength: 1, maxLength: 10 }), name, (lines, path) => {
      const file = addedFile(`(message of commit ${path})`, lines.join('\n'));
      if (!file) return;
      assert.deepEqual(parseDiff(formatFile(file)), [file]);
    }),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.array(fileArb, { minLength: 1, maxLength: 3 }),
      fc.array(fileArb, { maxLength: 2 }),
      (first, other) => {
        const introduced = introducedFiles(write(first), other.length ? [write(other)] : []);
        assert.deepEqual(parseDiff(write(introduced)), introduced);
      },
    ),
    RUNS,
  );
});

test('under caps the diff reaches exactly, the capped reader reads what the uncapped one does', () => {
  fc.assert(
    fc.property(
      fc.array(fileArb, { minLength: 1, maxLength: 4 }),
      fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 8 }),
      (files, cuts) => {
        const texts = files.map((f) => Buffer.from(formatFile(f)));
        const bytes = Buffer.concat(texts);
        const lines = (b: Buffer) => b.toString('latin1').split('\n').length - 1;
        const caps = {
          fileBytes: Math.max(...texts.map((t) => t.length)),
          fileLines: Math.max(...texts.map(lines)),
          totalBytes: bytes.length,
        };
        const capper = new DiffCapper(caps);
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = cuts[i % cuts.length]!;
          capper.write(bytes.subarray(at, at + size));
          at += size;
        }
        const out = capper.end().toString('utf8');
        assert.deepEqual(capper.capped, []);
        assert.deepEqual(parseDiff(out, 'capped'), parseDiff(bytes.toString('utf8'), 'uncapped'));
      },
    ),
    RUNS,
  );
});
