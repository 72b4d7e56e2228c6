/**
 * Properties of the unified diff reader over generated input: any text gives files or an
 * InputError (nothing else is thrown), and a diff written by formatFile reads back as the same
 * files, for any path git allows (spaces, quotes, backslashes, tabs, newlines, non-ASCII, ` b/`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDiff } from '../../lib/diff/parse.js';
import { formatFile } from '../../lib/diff/format.js';
import { InputError } from '../../lib/core/errors.js';
import type { DiffFile, DiffLine, Hunk } from '../../lib/diff/types.js';
import { numberedHunk } from '../kit/diff.js';

const RUNS = { numRuns: 300 };

// A path component: anything but NUL and `/`, never `.` or `..`; the odd characters often.
const odd = fc.constantFrom(
  ' ',
  '"',
  '\\',
  '\t',
  '\n',
  'é',
  '日',
  ' b',
  'b/',
  '-',
  '+',
  '@',
  '#',
  '😀',
  '\x7f',
  '\x01',
);
const componentChar = fc.oneof(
  fc.constantFrom('a', 'b', 'x', '.', '_', '1'),
  odd,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const component = fc
  .array(componentChar, { minLength: 1, maxLength: 8 })
  .map((cs) => cs.join('').replace(/[\0/]/g, '_'))
  .filter((c) => c !== '.' && c !== '..' && !/[\uD800-\uDFFF]/.test(c.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')));
const path = fc.array(component, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

// Line text: no newline, no trailing CR (a CRLF file's CR is not part of the line).
const lineText = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('a', ' ', '-', '+', '\\', '@', '\r', 'é', '\t'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 20,
  })
  .map((t) => t.replace(/\n/g, ' ').replace(/\r+$/, ''));

const kinds = fc.array(fc.constantFrom<DiffLine['kind']>('add', 'del', 'context'), { minLength: 1, maxLength: 8 });

/** Hunks with consistent counts and line numbers, in order, apart from each other. */
function hunksArb(allowDel: boolean, allowAdd: boolean): fc.Arbitrary<Hunk[]> {
  return fc
    .array(
      fc.tuple(kinds, fc.array(lineText, { minLength: 8, maxLength: 8 }), fc.nat(5), fc.string({ maxLength: 10 })),
      { minLength: 1, maxLength: 3 },
    )
    .map((specs) => {
      const hunks: Hunk[] = [];
      let oldAt = 1;
      let newAt = 1;
      for (const [rawKinds, texts, gap, section] of specs) {
        const ks = allowDel && allowAdd ? rawKinds : rawKinds.map(() => (allowAdd ? 'add' : 'del'));
        oldAt += gap;
        newAt += gap;
        const made = numberedHunk(
          ks.map((kind, i) => [kind, texts[i]!] as const),
          oldAt,
          newAt,
          section.replace(/[\r\n]/g, '').trim(),
        );
        hunks.push(made.hunk);
        oldAt = made.oldAt;
        newAt = made.newAt;
      }
      return allowDel && allowAdd ? hunks : hunks.slice(0, 1);
    });
}

const fileArb: fc.Arbitrary<DiffFile> = fc
  .tuple(fc.constantFrom('modified', 'added', 'deleted', 'renamed'), path, path, fc.boolean())
  .chain(([status, a, b, binary]) => {
    const base = { binary, hunks: [] as Hunk[] };
    if (status === 'added') {
      return (binary ? fc.constant<Hunk[]>([]) : hunksArb(false, true)).map(
        (hunks): DiffFile => ({ ...base, oldPath: null, newPath: b, status, oldMode: null, newMode: '100644', hunks }),
      );
    }
    if (status === 'deleted') {
      return (binary ? fc.constant<Hunk[]>([]) : hunksArb(true, false)).map(
        (hunks): DiffFile => ({ ...base, oldPath: a, newPath: null, status, oldMode: '100644', newMode: null, hunks }),
      );
    }
    const newPath = status === 'renamed' && a !== b ? b : a;
    return (binary ? fc.constant<Hunk[]>([]) : hunksArb(true, true)).map(
      (hunks): DiffFile => ({
        ...base,
        oldPath: a,
        newPath,
        status: newPath === a ? 'modified' : 'renamed',
        oldMode: null,
        newMode: null,
        hunks,
      }),
    );
  })
  .filter((f) => f.binary || f.hunks.length > 0 || f.status === 'renamed');

test('a diff written by formatFile reads back as the same files (any path git allows)', () => {
  fc.assert(
    fc.property(fc.array(fileArb, { minLength: 1, maxLength: 3 }), (files) => {
      const text = files.map((f) => formatFile(f)).join('');
      assert.deepEqual(parseDiff(text), files);
    }),
    RUNS,
  );
});

test('any text: files or an InputError, nothing else thrown', () => {
  const diffish = fc.array(
    fc.oneof(
      fc.constantFrom(
        'diff --git a/x b/x',
        '--- a/x',
        '+++ b/x',
        '@@ -1 +1 @@',
        '@@ -1,2 +1,3 @@ f',
        '+a',
        '-b',
        ' c',
        '\\ No newline at end of file',
        'rename from "a\\tb"',
        'Binary files a/x and b/y differ',
        'new file mode 100644',
        'index 123..456',
      ),
      fc.string({ unit: 'binary', maxLength: 30 }),
    ),
    { maxLength: 12 },
  );
  fc.assert(
    fc.property(diffish, fc.boolean(), (lines, crlf) => {
      const text = lines.join(crlf ? '\r\n' : '\n');
      try {
        const files = parseDiff(text);
        assert.ok(Array.isArray(files));
      } catch (error) {
        assert.ok(
          error instanceof InputError,
          `threw ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`,
        );
      }
    }),
    { numRuns: 500 },
  );
});
