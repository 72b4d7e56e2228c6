/**
 * The escaped form of paths a row cannot hold as they are (docs/record.md "Names"): every path
 * round-trips, through the codec and through a whole row; ordinary paths and every row written
 * before read as they did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodePath, encodePath } from '../../lib/record/path-escape.js';
import { formatRow, isRepoPath, parseRow, type TrailerRow } from '../../lib/record/row.js';
import { parseRows } from '../../lib/record/row.js';

// Characters that make paths interesting: controls, the escape's own characters, CSV's, separators.
const char = fc.oneof(
  fc.constantFrom(
    '\n',
    '\r',
    '\t',
    '\x00',
    '\x01',
    '\x1b',
    '\x7f',
    '%',
    '/',
    '"',
    ',',
    ' ',
    '\\',
    'A',
    '0',
    'F',
    'é',
    '\u2028',
  ),
  fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
);
const anyString = fc.array(char, { maxLength: 24 }).map((cs) => cs.join(''));
const repoPath = anyString.filter((p) => isRepoPath(p));

const row = (file: string): TrailerRow => ({
  id: 'rf-0123456789',
  file,
  line: '3',
  rule_source: 'builtin/debug:debugger',
  category: 'correctness',
  severity: 'bug',
  issue: 'debugger statement left in',
  verdict: 'REJECT',
  rationale: 'a fixture as `npm test` shows',
});

test('encode then decode gives back every string', () => {
  fc.assert(
    fc.property(anyString, (p) => decodePath(encodePath(p)) === p),
    { numRuns: 2000 },
  );
});

test('a path without control characters is written as it is, and every field not in escaped form reads as it is', () => {
  fc.assert(
    fc.property(anyString, (p) => {
      if (!/[\x00-\x1f\x7f]/.test(p)) assert.equal(encodePath(p), p);
      // A row written before could only hold a repo path, never one starting with "/": unchanged.
      if (isRepoPath(p)) assert.equal(decodePath(p), p);
    }),
    { numRuns: 2000 },
  );
});

test('a whole row with any path git can hold reads back exactly, one line, through both readers', () => {
  fc.assert(
    fc.property(repoPath, (file) => {
      const text = formatRow(row(file));
      assert.ok(!/[\r\n]/.test(text), JSON.stringify(text));
      const parsed = parseRow(text);
      assert.ok(parsed.ok, `${JSON.stringify(file)}: ${parsed.ok ? '' : parsed.reason}`);
      assert.deepEqual(parsed.row, row(file));
      assert.deepEqual(parseRows([text])[0], parsed);
    }),
    { numRuns: 1000 },
  );
});

test('examples: a newline, a tab, a percent sign; a malformed or non-canonical escape is refused', () => {
  assert.equal(encodePath('src/a\nb.js'), '/src/a%0Ab.js');
  assert.equal(encodePath('src/100%\t.js'), '/src/100%25%09.js');
  assert.equal(encodePath('src/100%.js'), 'src/100%.js');
  assert.equal(decodePath('/src/a%0Ab.js'), 'src/a\nb.js');
  for (const bad of ['/src/a.js', '/src/a%0ab.js', '/src/a%0', '/src/%25.js']) {
    assert.equal(decodePath(bad), bad);
    const parsed = parseRow(formatRow(row('x')).replace(',x,', `,${bad},`));
    assert.equal(parsed.ok, false, bad);
  }
});
