/**
 * The capped diff reader (lib/diff/cap.ts) over generated diffs read in pieces of any size:
 * under caps it never reaches, the output is the input byte for byte (pieces and NUL bytes
 * included); under small caps it still parses, keeps every file, keeps a prefix of each file's
 * lines and names exactly the files it cut.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DiffCapper, StreamSplitter, type DiffCaps } from '../../lib/diff/cap.js';
import { parseDiff } from '../../lib/diff/parse.js';
import { formatFile } from '../../lib/diff/format.js';
import type { DiffFile, DiffLine } from '../../lib/diff/types.js';

const RUNS = { numRuns: 200 };

const text = fc.string({
  unit: fc.constantFrom('a', ' ', '\0', 'é', '-', '+', '@', 'd', 'i', 'f', '\t', '\\'),
  maxLength: 30,
});
const fileArb = (i: number): fc.Arbitrary<DiffFile> =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom<DiffLine['kind']>('add', 'del', 'context'), text), {
        minLength: 1,
        maxLength: 40,
      }),
      fc.boolean(),
    )
    .map(([specs, added]) => {
      let oldLine = 1;
      let newLine = 1;
      const lines: DiffLine[] = specs.map(([kind, t]) => {
        const k = added ? 'add' : kind;
        if (k === 'add') return { kind: k, text: t, oldLine: null, newLine: newLine++ };
        if (k === 'del') return { kind: k, text: t, oldLine: oldLine++, newLine: null };
        return { kind: k, text: t, oldLine: oldLine++, newLine: newLine++ };
      });
      const oldLines = lines.filter((l) => l.kind !== 'add').length;
      const newLines = lines.filter((l) => l.kind !== 'del').length;
      const hunk = { oldStart: oldLines ? 1 : 0, oldLines, newStart: newLines ? 1 : 0, newLines, section: '', lines };
      return {
        oldPath: added ? null : `f${i}.txt`,
        newPath: `f${i}.txt`,
        status: added ? 'added' : 'modified',
        binary: false,
        oldMode: null,
        newMode: added ? '100644' : null,
        hunks: [hunk],
      };
    });
const diffArb = fc
  .integer({ min: 1, max: 5 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => fileArb(i))));
const cutsArb = fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 12 });

function capped(bytes: Buffer, cuts: number[], caps: DiffCaps): { out: Buffer; capped: string[] } {
  const capper = new DiffCapper(caps);
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = cuts[i % cuts.length]!;
    capper.write(bytes.subarray(at, at + size));
    at += size;
  }
  const out = capper.end();
  return { out, capped: capper.capped };
}

test('caps never reached: the output is the input, in any pieces', () => {
  fc.assert(
    fc.property(diffArb, cutsArb, (files, cuts) => {
      const bytes = Buffer.from(files.map((f) => formatFile(f)).join(''));
      const r = capped(bytes, cuts, { fileBytes: 1 << 30, fileLines: 1 << 30, totalBytes: 1 << 30 });
      assert.deepEqual(r.capped, []);
      assert.ok(r.out.equals(bytes));
    }),
    RUNS,
  );
});

test('small caps: every file kept and named when cut, a prefix of its lines, and the diff parses', () => {
  fc.assert(
    fc.property(
      diffArb,
      cutsArb,
      fc.integer({ min: 0, max: 400 }),
      fc.integer({ min: 1, max: 30 }),
      (files, cuts, fileBytes, fileLines) => {
        const texts = files.map((f) => formatFile(f));
        const bytes = Buffer.from(texts.join(''));
        const r = capped(bytes, cuts, { fileBytes, fileLines, totalBytes: 1 << 30 });
        const parsed = parseDiff(r.out.toString('utf8'), 'capped');
        assert.deepEqual(
          parsed.map((f) => f.newPath),
          files.map((f) => f.newPath),
        );
        const expectCut = texts.filter(
          (t) => Buffer.byteLength(t) > fileBytes || t.split('\n').length - 1 > fileLines,
        ).length;
        assert.equal(r.capped.length, expectCut);
        parsed.forEach((file, i) => {
          const kept = file.hunks.flatMap((h) => h.lines.map((l) => `${l.kind}${l.text}`));
          const all = files[i]!.hunks.flatMap((h) => h.lines.map((l) => `${l.kind}${l.text}`));
          assert.deepEqual(kept, all.slice(0, kept.length));
        });
      },
    ),
    RUNS,
  );
});

test('a delimiter is found across reads of any size, and at the very start', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('x', '\n', 'MARK ', 'MAR', 'K '), { maxLength: 30 }),
      cutsArb,
      (parts, cuts) => {
        const input = Buffer.from(parts.join(''));
        const seen: string[] = [];
        let current = '';
        const splitter = new StreamSplitter(Buffer.from('\nMARK '), {
          bytes: (b) => (current += b.toString()),
          boundary: () => {
            seen.push(current);
            current = '';
          },
        });
        let at = 0;
        for (let i = 0; at < input.length; i++) {
          splitter.write(input.subarray(at, at + cuts[i % cuts.length]!));
          at += cuts[i % cuts.length]!;
        }
        splitter.end();
        seen.push(current);
        assert.deepEqual(
          seen,
          `\n${input.toString()}`.split('\nMARK ').map((s, i) => (i === 0 ? s.slice(1) : s)),
        );
      },
    ),
    RUNS,
  );
});
