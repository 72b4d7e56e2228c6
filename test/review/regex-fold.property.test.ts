/**
 * The `i` flag written out (lib/review/engine/regex-fold.ts) matches exactly what the flag matches,
 * and V8's linear engine, where it takes a pattern, answers as the backtracking one does: over
 * generated patterns and subjects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { foldCase } from '../../lib/review/engine/regex-fold.js';
import { enableBacktrackFallback, linearEngineTakes } from '../../lib/review/engine/regex-guard.js';

const RUNS = { numRuns: 400 };

// A small regex grammar: letters of both cases, classes with ranges and escapes, groups,
// alternation, quantifiers, anchors, escapes for letters by code.
const atom: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'a',
    'B',
    'c',
    'z',
    'K',
    's',
    '_',
    '1',
    '-',
    '.',
    ' ',
    '\\d',
    '\\w',
    '\\W',
    '\\s',
    '\\b',
    '\\x41',
    '\\u0062',
    '\\-',
    '\\.',
    '\\n',
  ),
  fc.constantFrom(
    '[a-c]',
    '[^b]',
    '[A-z]',
    '[\\d-z]',
    '[X-Z_]',
    '[^a-zA-Z]',
    '[]',
    '[^]',
    '[\\x41-\\x43k]',
    '[-a]',
    '[a-]',
    '[\\w]',
    '[\\W]',
    '[\\--z]',
  ),
);
const piece = fc
  .tuple(atom, fc.constantFrom('', '', '*', '+', '?', '{1,2}', '{2}', '*?', '{,2}'))
  .map(([a, q]) => a + q);
const sequence = fc.array(piece, { minLength: 1, maxLength: 5 }).map((ps) => ps.join(''));
const pattern = fc
  .tuple(
    fc.constantFrom('', '^'),
    fc.array(
      fc.tuple(
        sequence,
        fc.constantFrom('', '(?:', '(', '(?=', '(?!'),
        fc.option(sequence),
        fc.constantFrom('', '', '+', '*', '{2}'),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom('', '$'),
    fc.boolean(),
  )
  .map(([start, parts, end, alt]) => {
    const body = parts
      .map(([seq, open, other, q]) =>
        open ? `${open}${seq}${other === null ? '' : `|${other}`})${open.length > 1 && open !== '(?:' ? '' : q}` : seq,
      )
      .join(alt ? '|' : '');
    return `${start}${body}${end}`;
  })
  .filter((p) => {
    try {
      new RegExp(p, 'i');
      return true;
    } catch {
      return false;
    }
  });
const subject = fc
  .array(
    fc.constantFrom(
      'a',
      'A',
      'b',
      'B',
      'c',
      'C',
      'k',
      'K',
      '\u212A',
      's',
      'S',
      '\u017F',
      'z',
      'Z',
      '_',
      '1',
      '-',
      ' ',
      'é',
      'É',
      '\n',
      '[',
      '`',
    ),
    { maxLength: 12 },
  )
  .map((cs) => cs.join(''));

test('a pattern folded for case matches exactly what the i flag matches', () => {
  fc.assert(
    fc.property(
      pattern,
      fc.array(subject, { minLength: 1, maxLength: 5 }),
      fc.constantFrom('', 'm', 's'),
      (p, subjects, flags) => {
        const folded = foldCase(p);
        assert.notEqual(folded, null, `the grammar holds only foldable patterns: ${p}`);
        const withI = new RegExp(p, `i${flags}`);
        const without = new RegExp(folded!, flags);
        for (const s of subjects)
          assert.equal(
            without.test(s),
            withI.test(s),
            `/${p}/i${flags} vs /${folded}/${flags} on ${JSON.stringify(s)}`,
          );
      },
    ),
    RUNS,
  );
});

test('what the fold does not follow gives null: backreferences, named references, letter escapes, non-ASCII', () => {
  for (const p of ['(a)\\1', '(?<n>a)\\k<n>', '\\p{L}', '\\e', 'é', '[à-ÿ]', '\\u00e9'])
    assert.equal(foldCase(p), null, p);
  assert.equal(foldCase('(?<name>ab)c'), '(?<name>[aA][bB])[cC]', 'a group name is not text');
});

test('where the linear engine takes a pattern, it answers as the backtracking engine does', () => {
  enableBacktrackFallback();
  fc.assert(
    fc.property(pattern, fc.array(subject, { minLength: 1, maxLength: 5 }), (p, subjects) => {
      const folded = foldCase(p)!;
      if (!linearEngineTakes(folded, '')) return;
      const linear = new RegExp(folded, 'l');
      const backtracking = new RegExp(folded);
      for (const s of subjects)
        assert.equal(linear.test(s), backtracking.test(s), `/${folded}/ on ${JSON.stringify(s)}`);
    }),
    RUNS,
  );
});
