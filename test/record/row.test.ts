import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { checkRationale, formatRow, parseRow, type TrailerRow } from '../../lib/record/row.js';

const row: TrailerRow = {
  id: 'rf-0123456789',
  file: 'src/a b/c.ts',
  line: '3-7',
  rule_source: 'decisions/adr-001:no-db',
  category: 'architecture',
  severity: 'bug',
  issue: 'Controller queries the database, "directly"',
  verdict: 'REJECT',
  rationale: 'see `npm test` output,\nall green',
};

test('a row round-trips through csv-stringify and csv-parse as one line of nine fields', () => {
  const text = formatRow(row);
  assert.equal(text.includes('\n'), false);
  assert.equal((parse(text) as string[][])[0]!.length, 9);
  const back = parseRow(text);
  assert.deepEqual(back, { ok: true, row: { ...row, rationale: 'see `npm test` output, all green' } });
});

test('fields holding a comma or a quote are quoted', () => {
  assert.match(formatRow(row), /,"Controller queries the database, ""directly""",/);
});

test('bad rows come back with the reason, never an exception', () => {
  const cases: Array<[string, RegExp]> = [
    ['rf-012345,a.ts,1,x:y,architecture,bug,t,OPEN', /8 fields, expected 9/],
    ['rf-012345,a.ts,1,x:y,architecture,bug,t,OPEN,,extra', /10 fields/],
    ['rf-012345,a.ts,1,x:y,architecture,bug,"t,OPEN,', /not a CSV record/],
    ['rf-xyz,a.ts,1,x:y,architecture,bug,t,OPEN,', /^id: /],
    ['rf-012345,/abs.ts,1,x:y,architecture,bug,t,OPEN,', /^file: /],
    ['rf-012345,a.ts,9-3,x:y,architecture,bug,t,OPEN,', /^line: /],
    ['rf-012345,a.ts,1,nosep,architecture,bug,t,OPEN,', /^rule_source: /],
    ['rf-012345,a.ts,1,x:y,vibes,bug,t,OPEN,', /^category: /],
    ['rf-012345,a.ts,1,x:y,architecture,fatal,t,OPEN,', /^severity: /],
    [`rf-012345,a.ts,1,x:y,architecture,bug,${'t'.repeat(81)},OPEN,`, /^issue: .*80/],
    ['rf-012345,a.ts,1,x:y,architecture,bug,t,MAYBE,', /^verdict: /],
  ];
  for (const [value, reason] of cases) {
    const result = parseRow(value);
    assert.equal(result.ok, false, value);
    if (!result.ok) assert.match(result.reason, reason, value);
  }
});

test('rationale gates: empty is an error on a human verdict, uncheckable REJECT a warning', () => {
  assert.deepEqual(checkRationale('OPEN', ''), []);
  assert.equal(checkRationale('ACCEPT', ' ')[0]!.level, 'error');
  assert.equal(checkRationale('REJECT', 'I disagree')[0]!.level, 'warning');
  assert.deepEqual(checkRationale('REJECT', 'false positive: `grep -n query src/x.ts` shows a comment'), []);
  assert.deepEqual(checkRationale('REJECT', 'see https://example.com/adr/7'), []);
  assert.equal(checkRationale('DEFER', 'later')[0]!.level, 'warning');
  assert.deepEqual(checkRationale('DEFER', 'tracked in JIRA-123'), []);
  assert.deepEqual(checkRationale('ACKNOWLEDGE', 'documented intent in ADR-0004'), []);
  assert.deepEqual(checkRationale('ACCEPT', 'moved the query into the repository'), []);
});

test('file: any path git can hold (backslashes, quotes, commas, a drive-like colon, non-ASCII); never absolute, empty parts, . or ..', () => {
  for (const file of [
    'b\\ack.js',
    'C:odd.js',
    'a "q", b.js',
    'naïve/ü.ts',
    'dir\\sub\\x.c',
    ' lead.js',
    '.github/x.yml',
  ]) {
    const back = parseRow(formatRow({ ...row, file }));
    assert.deepEqual(back.ok && back.row.file, file, file);
  }
  for (const file of ['/abs.js', 'a//b.js', 'a/./b.js', '../up.js', 'a/', '.git/config', 'x/.GIT/y']) {
    const back = parseRow(formatRow({ ...row, file }));
    assert.equal(back.ok, false, file);
  }
});

test('rule_source is name[/section]:rule-id only: no < >, no second /', () => {
  for (const ok of [
    'builtin/secrets:aws-access-key',
    'adr-0001:no-db',
    'adr-0029/code-review:high',
    'reviewer:architecture',
  ]) {
    assert.equal(parseRow(formatRow({ ...row, rule_source: ok })).ok, true, ok);
  }
  for (const bad of ['<b>x</b>:y', 'a/b/c:d', 'a:b>', 'a:b:c', '/a:b', 'a/:b', 'a:', ':b', 'a b:c']) {
    const back = parseRow(formatRow({ ...row, rule_source: bad }));
    assert.equal(back.ok, false, bad);
    if (!back.ok) assert.match(back.reason, /^rule_source: rule_source must be name\[\/section\]:rule-id/, bad);
  }
});

test('a value with no comma is named as fitting neither grammar, not "1 fields"', () => {
  const back = parseRow('just some words');
  assert.equal(back.ok, false);
  if (!back.ok)
    assert.match(
      back.reason,
      /^neither grammar: not a CSV row of 9 fields .*, nor <reviewer> <SEVERITY> \u2014 <text>$/,
    );
});
