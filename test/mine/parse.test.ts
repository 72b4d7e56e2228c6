import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findingLines, placements, parseCommit, parseCommits } from '../../lib/mine/parse.js';
import { parseAdr0029 } from '../../lib/record/adr0029.js';
import type { RawCommit } from '../../lib/mine/types.js';
import { formatRow } from '../../lib/record/row.js';
import { row } from '../kit/mine.js';

const SHA = 'a'.repeat(40);
const raw = (body: string, trailerValues: string[] = []): RawCommit => ({
  commit: SHA,
  date: '2024-01-01T00:00:00+00:00',
  author: 'Ada <ada@example.com>',
  body,
  trailerValues,
});

test('findingLines: key case-insensitive, at line start only, continuation lines unfolded, CRLF tolerated', () => {
  const body = [
    'Subject',
    '',
    'review-finding: one',
    '  Review-Finding: indented is a continuation, not a key',
    'REVIEW-FINDING :two',
    '\tcontinued with a tab',
    'Not a Review-Finding: line',
    'Review-Finding: three\r',
    '',
  ].join('\n');
  const lines = findingLines(body);
  assert.deepEqual(
    lines.map((l) => l.value),
    ['one Review-Finding: indented is a continuation, not a key', 'two continued with a tab', 'three'],
  );
  assert.equal(lines[1]!.raw, 'REVIEW-FINDING :two continued with a tab');
});

test('placements: a value git lists is a trailer; a second copy earlier in the message is body', () => {
  const lines = findingLines('S\n\nReview-Finding: x\n\nReview-Finding: y\nReview-Finding: x\n');
  assert.deepEqual(placements(lines, ['y', 'x']), ['body', 'trailer', 'trailer']);
  // Folding and spacing differences do not matter.
  assert.deepEqual(placements(findingLines('S\n\nReview-Finding: a,b\n  c\n'), ['a,b c']), ['trailer']);
});

test('CSV rows: nine fields read; 8 and 10 fields and an unterminated quote are rejected with the reason', () => {
  const good = formatRow(row({ id: 'rf-0123456789', rationale: '' }));
  const fields = good.split(',');
  const eight = fields.slice(0, 8).join(',');
  const ten = [...fields, 'extra'].join(',');
  const unterminated = 'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,"SQL built,OPEN,';
  const result = parseCommit(
    raw(['S', '', ...[good, eight, ten, unterminated].map((v) => `Review-Finding: ${v}`)].join('\n'), [
      good,
      eight,
      ten,
      unterminated,
    ]),
  );
  assert.equal(result.findings.length, 1);
  assert.deepEqual(result.findings[0], {
    commit: SHA,
    date: '2024-01-01T00:00:00+00:00',
    author: 'Ada <ada@example.com>',
    id: 'rf-0123456789',
    file: 'src/a.ts',
    line: '1',
    rule_source: 'builtin/sql:concat',
    category: 'security',
    severity: 'security',
    issue: 'SQL built by concatenation',
    verdict: 'OPEN',
    rationale: '',
    placement: 'trailer',
    grammar: 'csv',
  });
  assert.deepEqual(
    result.rejected.map((r) => [r.type, r.raw, r.reason.split(' (')[0]]),
    [
      ['rejected', `Review-Finding: ${eight}`, '8 fields, expected 9'],
      ['rejected', `Review-Finding: ${ten}`, '10 fields, expected 9'],
      [
        'rejected',
        `Review-Finding: ${unterminated}`,
        'not a CSV record: Quote Not Closed: the parsing is finished with an opening quote at line 1',
      ],
    ],
  );
});

test('adr-0029 grammar: read with a stable id, location, mapped severity and the raw severity kept', () => {
  const r = parseAdr0029('security HIGH \u2014 src/db/query.ts:42-44 builds SQL from input');
  assert.ok(r?.ok);
  assert.deepEqual(
    { ...r.finding },
    {
      reviewer: 'security',
      rawSeverity: 'HIGH',
      text: 'src/db/query.ts:42-44 builds SQL from input',
      id: r.finding.id,
      file: 'src/db/query.ts',
      line: '42-44',
      ruleSource: 'adr-0029/security:high',
      severity: 'security',
      category: 'security',
    },
  );
  assert.match(r.finding.id, /^rf-[0-9a-f]{10}$/);
  // Same reviewer and text, other severity: the same finding (one thread).
  const again = parseAdr0029('security LOW \u2014 src/db/query.ts:42-44 builds SQL from input');
  assert.ok(again?.ok && again.finding.id === r.finding.id);
  const code = parseAdr0029('code-review MEDIUM \u2014 naming is inconsistent');
  assert.ok(code?.ok);
  assert.deepEqual(
    [code.finding.file, code.finding.line, code.finding.severity, code.finding.category],
    [null, null, 'suggestion', 'correctness'],
  );
  const low = parseAdr0029('adversarial CRITICAL \u2014 x');
  assert.ok(low?.ok && low.finding.severity === 'bug');
});

test('adr-0029 with a hyphen or en dash instead of the em dash, or wrong case, is rejected; other text is not adr-0029', () => {
  for (const value of [
    'security HIGH - text',
    'security HIGH \u2013 text',
    'security HIGH \u2014',
    'security HIGH\u2014text',
  ]) {
    const r = parseAdr0029(value);
    assert.ok(r && !r.ok, value);
    assert.match(r.reason, /em dash|no text/);
  }
  const lower = parseAdr0029('security high \u2014 text');
  assert.ok(lower && !lower.ok);
  assert.match(lower.reason, /upper-case SEVERITY/);
  assert.equal(parseAdr0029('rf-0123456789,src/a.ts,1,x:y,style,nit,t,OPEN,'), null);
  const c = parseCommit(raw('S\n\nReview-Finding: security HIGH - uses a hyphen\n'));
  assert.deepEqual([c.findings.length, c.rejected.length], [0, 1]);
  assert.equal(c.rejected[0]!.raw, 'Review-Finding: security HIGH - uses a hyphen');
});

test('a finding paragraph above the Signed-off-by paragraph is placement body with a warning', () => {
  const value = formatRow(row({ id: 'rf-00000000aa' }));
  const c = parseCommit(raw(`S\n\nReview-Finding: ${value}\n\nSigned-off-by: A <a@b.c>\n`, []));
  assert.equal(c.findings[0]!.placement, 'body');
  assert.equal(c.warnings.length, 1);
  assert.match(c.warnings[0]!.message, /rf-00000000aa is in the message body, not in git's trailer block/);
});

test('an empty value is rejected; commits in a batch keep their own records', () => {
  const a = raw('S\n\nReview-Finding:\n');
  const b = { ...raw(`S\n\nReview-Finding: ${formatRow(row({ id: 'rf-00000000bb' }))}\n`), commit: 'b'.repeat(40) };
  const [ra, rb] = parseCommits([a, b]);
  assert.deepEqual(
    ra!.rejected.map((r) => r.reason),
    ['empty Review-Finding value'],
  );
  assert.deepEqual(
    rb!.findings.map((f) => [f.commit, f.id, f.placement]),
    [['b'.repeat(40), 'rf-00000000bb', 'body']],
  );
});

test('rejection reasons name the problem: an adr-0029 line with an unknown reviewer or severity says so', () => {
  const cases: Array<[string, RegExp]> = [
    ['nobody LOW \u2014 text', /adr-0029 grammar .*"nobody" is not one of its reviewers/],
    ['nobody high - text', /"nobody" is not one of its reviewers/],
    ['code-review BLOCKER \u2014 text', /"BLOCKER" is not one of its severities/],
    ['code-review HIGH - text', /needs " \u2014 "/],
    ['just words', /^neither grammar/],
  ];
  for (const [value, reason] of cases) {
    const result = parseCommit(raw(`S\n\nReview-Finding: ${value}\n`, [value]));
    assert.equal(result.findings.length, 0, value);
    assert.match(result.rejected[0]!.reason, reason, value);
    assert.doesNotMatch(result.rejected[0]!.reason, /1 fields/, value);
  }
  // A CSV row whose issue happens to read like the other grammar is still a CSV row.
  const csv = formatRow(row({ id: 'rf-0123456789', issue: 'Token HIGH \u2014 leak', rationale: '' }));
  assert.equal(parseCommit(raw(`S\n\nReview-Finding: ${csv}\n`, [csv])).findings.length, 1);
});

test('placements: values that differ only in whitespace (runs, tabs, newlines, Unicode spaces, edges) are the same value', () => {
  // As lib/mine/parse.ts normalize: git's unfolding leaves a space after a folded comma, revtrail's none.
  const reference = (v: string) => v.replace(/,\s+/g, ',').replace(/\s+/g, ' ').trim();
  const piece = fc.constantFrom(
    ' ',
    '  ',
    '\t',
    '\n',
    '\u00a0',
    '\u2028',
    '\ufeff',
    'a',
    'b',
    'rf-1',
    ',',
    '"',
    'é',
    '~',
    '!',
  );
  const value = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
  fc.assert(
    fc.property(value, value, (v, w) => {
      const expected = reference(w) !== '' && reference(v) === reference(w) ? 'trailer' : 'body';
      assert.deepEqual(placements([{ value: v, raw: v }], [w]), [expected]);
    }),
    { numRuns: 3000 },
  );
});

test('placements: several lines and values, repeated ones and lines found as they are, as the normalized matching from the last line', () => {
  const reference = (v: string) => v.replace(/,\s+/g, ',').replace(/\s+/g, ' ').trim();
  /** The matching with every value normalized: the block's copies are the later ones. */
  const expected = (lines: string[], values: string[]) => {
    const left = new Map<string, number>();
    for (const v of values) if (reference(v)) left.set(reference(v), (left.get(reference(v)) ?? 0) + 1);
    return lines
      .map((l) => l)
      .reverse()
      .map((l) => {
        const n = left.get(reference(l)) ?? 0;
        if (n > 0) left.set(reference(l), n - 1);
        return n > 0 ? 'trailer' : 'body';
      })
      .reverse();
  };
  const value = fc.constantFrom('a,b', 'a, b', ' a,b', 'a,b ', 'a  b', 'a b', '', ' ', 'c', 'c\t', '\u00a0c');
  fc.assert(
    fc.property(fc.array(value, { maxLength: 6 }), fc.array(value, { maxLength: 6 }), (lines, values) => {
      assert.deepEqual(
        placements(
          lines.map((v) => ({ value: v, raw: v })),
          values,
        ),
        expected(lines, values),
      );
    }),
    { numRuns: 5000 },
  );
});
