/**
 * maskLines skips runs of characters that change nothing (lib/review/engine/mask.ts): over generated
 * JavaScript-ish lines heavy in quotes, templates, braces, slashes, comments and escapes, it
 * gives exactly what the character-by-character lexer gave (test/kit/mask-reference.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { maskLines } from '../../lib/review/engine/mask.js';
import { referenceMaskLines } from '../kit/mask-reference.js';

const token = fc.constantFrom(
  '/',
  '//',
  '/*',
  '*/',
  '*',
  '"',
  "'",
  '`',
  '${',
  '$',
  '{',
  '}',
  '\\',
  '\\`',
  '\\"',
  "\\'",
  '(',
  ')',
  '=',
  ',',
  ';',
  ' ',
  '\t',
  'return',
  'typeof',
  'x',
  'ab',
  'AKIA',
  'a.b',
  '1',
  '[',
  ']',
  'debugger',
  'key',
  '\u00e9',
  '\u{1F600}',
);
const line = fc.array(token, { maxLength: 24 }).map((t) => t.join(''));

test('maskLines gives what the character-by-character lexer gives, line for line', () => {
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
      assert.deepEqual(maskLines(lines), referenceMaskLines(lines));
    }),
    { numRuns: 3000 },
  );
});

test('maskLines on real-looking code: strings, templates with expressions, regexes, comments', () => {
  const lines = [
    'const a = "x // not a comment"; // a comment',
    'const t = `line ${a + `inner ${b}`} and {braces}',
    'still in the template ${ { nested: "q" } } `; const r = /a\\/b[/]c/g;',
    '/* opens',
    '   still a comment */ const after = 1 / 2 / 3;',
    "const s = 'goes on \\",
    "  here'; if (x) { return /re/.test(y); }",
  ];
  assert.deepEqual(maskLines(lines), referenceMaskLines(lines));
  assert.equal(maskLines(['const a = "secret";'])[0]!.code, 'const a = "      ";');
});
