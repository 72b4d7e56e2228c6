/**
 * Property tests of the trailer grammar (fast-check): any row round-trips through
 * formatRow/parseRow (newlines in a text field become spaces, a path comes back exactly,
 * nothing else changes), whatever its text and whatever path git can hold; no input makes the
 * readers throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  formatRow,
  parseRow,
  isRepoPath,
  checkRationale,
  trailerRowSchema,
  ROW_FIELDS,
  type TrailerRow,
} from '../../lib/record/row.js';
import { parseAdr0029 } from '../../lib/record/adr0029.js';
import { RULE_SOURCE_PATTERN } from '../../lib/core/rule-source.js';
import { parseRows } from '../../lib/record/row.js';
import { parseCommit } from '../../lib/mine/parse.js';
import { lintMessage } from '../../lib/record/lint.js';
import { CATEGORIES, SEVERITIES, VERDICTS } from '../../lib/core/vocabulary.js';

// Text that stresses the CSV codec: quotes, commas, backslashes, whitespace and newlines at
// the edges, controls, non-ASCII, and anything else Unicode holds.
const tricky = fc.constantFrom(
  '"',
  ',',
  '\\',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '""',
  ',"',
  '\u00a0',
  '\u2028',
  'é',
  '漢',
  '😀',
  '\x1b',
  '\x00',
);
const text = (min = 0) =>
  fc
    .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), tricky), { minLength: min, maxLength: 8 })
    .map((parts) => parts.join(''));

// A name git can hold in a tree: no '/', no NUL, not '.', '..' or '.git'.
const segment = text(1)
  .map((s) => s.replace(/[/\0]/g, '_'))
  .filter((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

const part = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.+@-]{0,11}$/);
const ruleSource = fc.tuple(part, fc.option(part), part).map(([n, s, r]) => `${n}${s === null ? '' : `/${s}`}:${r}`);
const line = fc
  .tuple(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }))
  .map(([a, d]) => (d === 0 ? String(a) : `${a}-${a + d}`));

const oneLine = (s: string) => s.replace(/\r\n|\r|\n/g, ' ');

const row: fc.Arbitrary<TrailerRow> = fc.record({
  id: fc.stringMatching(/^rf-[0-9a-f]{6,40}$/),
  file: path,
  line,
  rule_source: ruleSource,
  category: fc.constantFrom(...CATEGORIES),
  severity: fc.constantFrom(...SEVERITIES),
  issue: text(1).filter((s) => s !== '' && oneLine(s).length <= 80),
  verdict: fc.constantFrom(...VERDICTS),
  rationale: text(),
});

test('any row round-trips: one line, nine fields, every field back as written (newlines in text as spaces, the path exact)', () => {
  fc.assert(
    fc.property(row, (r) => {
      const value = formatRow(r);
      assert.equal(/[\r\n]/.test(value), false, 'one line');
      const back = parseRow(value);
      assert.ok(back.ok, `${JSON.stringify(value)}: ${back.ok ? '' : back.reason}`);
      const expected = Object.fromEntries(ROW_FIELDS.map((k) => [k, k === 'file' ? r.file : oneLine(r[k])]));
      assert.deepEqual(back.row, expected);
      // The batch reader of mining reads it the same way.
      assert.deepEqual(parseRows([value])[0], back);
    }),
    { numRuns: 500 },
  );
});

test('isRepoPath answers as the plain reading: no empty, . or .. part, no .git in any case, no NUL', () => {
  const reference = (p: string) =>
    !!p &&
    !p.includes('\0') &&
    p.split('/').every((x) => x !== '' && x !== '.' && x !== '..' && x.toLowerCase() !== '.git');
  const piece = fc.constantFrom(
    '/',
    '.',
    '..',
    '.git',
    '.GIT',
    '.Git',
    '.gIt/',
    'git',
    '.gitx',
    'a',
    '\0',
    '\u0130',
    '\u212a',
    'é',
    '',
  );
  fc.assert(
    fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 6 }), (parts) => {
      const p = parts.join('');
      assert.equal(isRepoPath(p), reference(p), JSON.stringify(p));
    }),
    { numRuns: 3000 },
  );
});

test('the schema takes a line N or N-M with 1 <= N <= M, read as numbers', () => {
  const reference = (l: string) => {
    if (!/^\d+(-\d+)?$/.test(l)) return false;
    const [a, b] = l.split('-').map(Number);
    return a! >= 1 && (b === undefined || a! <= b);
  };
  const digits = fc.stringMatching(/^[0-9]{1,4}$/);
  const line = fc.oneof(
    digits,
    fc.tuple(digits, digits).map(([a, b]) => `${a}-${b}`),
    fc.string({ maxLength: 5 }),
  );
  fc.assert(
    fc.property(line, (l) => {
      const fields = ['rf-0123456789', 'a.ts', l, 'builtin/sql:concat', 'security', 'bug', 'x', 'OPEN', ''];
      assert.equal(
        trailerRowSchema.safeParse(Object.fromEntries(ROW_FIELDS.map((k, i) => [k, fields[i]!]))).success,
        reference(l),
        l,
      );
    }),
    { numRuns: 2000 },
  );
});

test('the generators hold what they claim (paths git holds, the rule_source grammar)', () => {
  fc.assert(fc.property(path, (p) => isRepoPath(p) && isRepoPath(oneLine(p))));
  fc.assert(fc.property(ruleSource, (s) => RULE_SOURCE_PATTERN.test(s)));
});

test('no value makes the readers throw: parseRow, parseRows, parseAdr0029, checkRationale', () => {
  fc.assert(
    fc.property(text(), (value) => {
      const one = parseRow(value);
      assert.equal(typeof one.ok, 'boolean');
      if (!one.ok) assert.equal(typeof one.reason, 'string');
      assert.deepEqual(parseRows([value]), [one]);
      const adr = parseAdr0029(value);
      assert.ok(adr === null || typeof adr.ok === 'boolean');
      checkRationale('REJECT', value);
    }),
    { numRuns: 1000 },
  );
});

test('the adr-0029 grammar: every well-formed line reads back its reviewer, severity and text', () => {
  const reviewer = fc.constantFrom('code-review', 'code', 'security', 'adversarial');
  const severity = fc.constantFrom('CRITICAL', 'HIGH', 'MEDIUM', 'LOW');
  const body = text(1)
    .map((s) => s.replace(/[\r\n]/g, ' '))
    .filter((s) => s.trim() !== '');
  fc.assert(
    fc.property(reviewer, severity, body, (who, sev, what) => {
      const got = parseAdr0029(`${who} ${sev} \u2014 ${what}`);
      assert.ok(got?.ok, JSON.stringify(got));
      assert.deepEqual([got.finding.reviewer, got.finding.rawSeverity, got.finding.text], [who, sev, what.trim()]);
      assert.match(got.finding.id, /^rf-[0-9a-f]{10}$/);
      assert.ok(RULE_SOURCE_PATTERN.test(got.finding.ruleSource));
      if (got.finding.file !== null) assert.ok(isRepoPath(got.finding.file));
    }),
    { numRuns: 500 },
  );
});

test('whole messages never make mining or the lint throw; every Review-Finding line is a finding or a rejection', () => {
  const lineOf = fc.oneof(
    row.map((r) => `Review-Finding: ${formatRow(r)}`),
    text().map((t) => `Review-Finding: ${t}`),
    text().map((t) => `review-finding:${t}`),
    text(),
  );
  fc.assert(
    fc.property(fc.array(lineOf, { maxLength: 8 }), (lines) => {
      const body = `subject\n\n${lines.join('\n')}\n`;
      const mined = parseCommit({
        commit: 'a'.repeat(40),
        date: '2024-01-01T00:00:00Z',
        author: 'A <a@b>',
        body,
        trailerValues: [],
      });
      const keys = body.split('\n').filter((l) => /^review-finding[ \t]*:/i.test(l)).length;
      assert.equal(mined.findings.length + mined.rejected.length, keys);
      const lint = lintMessage(body);
      assert.equal(lint.errors + lint.warnings >= 0, true);
    }),
    { numRuns: 300 },
  );
});
