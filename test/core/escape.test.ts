/**
 * Control characters from repository content (file names, trailers, titles, bundle text) never
 * reach the terminal raw: every text output escapes them (`\e`, `\n`, `\x07`, `\u202e`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeControl, jsonForTerminal } from '../../lib/core/output.js';
import { formatRow } from '../../lib/record/row.js';
import { runCli } from '../kit/repo.js';
import { installedRepo, DEBUGGER_LINE } from '../kit/hooks.js';

// Anything a terminal acts on: C0 but tab and newline, DEL, C1, bidi controls.
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

test('escapeControl: visible escapes for controls, plain text untouched, nothing raw left', () => {
  assert.equal(escapeControl('src/a.js'), 'src/a.js');
  assert.equal(escapeControl('b\\ack.js naïve'), 'b\\ack.js naïve');
  assert.equal(escapeControl('a\x1b[31mb'), 'a\\e[31mb');
  assert.equal(escapeControl('x\ny\r\x07\u202e'), 'x\\ny\\r\\x07\\u202e');
  assert.equal(escapeControl('x\ny\x1b', { keepNewlines: true }), 'x\ny\\e');
  assert.equal(escapeControl('tab\there'), 'tab\there');
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const out = escapeControl(s);
      return !RAW.test(out) && !out.includes('\n') && (RAW.test(s) || s.includes('\n') || out === s);
    }),
  );
});

const EVIL = 'evil\x1b[2J\x1b]0;pwned\x07\u202e.js';
const ISSUE = 'Looks fine\x1b[8m hidden';

test('review, the hooks, verdict --list, trailers lint and mine print no raw control character', async () => {
  const r = await installedRepo();
  r.write(EVIL, `${DEBUGGER_LINE}\n`);
  const review = await runCli(['review'], { cwd: r.dir });
  assert.equal(review.code, 1, review.stderr);
  assert.match(review.stdout, /evil\\e\[2J\\e\]0;pwned\\x07\\u202e\.js:1 bug/);

  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-m', 'feat: evil']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(commit.stderr, /evil\\e\[2J/);

  // A hand-written trailer whose issue carries an escape sequence (another tool wrote it).
  const id = 'rf-00000000ff';
  const row = formatRow({
    id,
    file: 'x\x1b[1m.js',
    line: '1',
    rule_source: 'tool/x:y',
    category: 'style',
    severity: 'nit',
    issue: ISSUE,
    verdict: 'OPEN',
    rationale: '',
  });
  r.commit(`chore: imported\n\nReview-Finding: ${row}\n`, {}, { args: ['--no-verify'] });
  const list = await r.cli(['verdict', '--list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`${id}  x\\\\e\\[1m\\.js:1  nit  Looks fine\\\\e\\[8m hidden`));

  r.write('MSG', `subject\n\nReview-Finding: nobody\x1b[31m LOW \u2014 text\n`);
  const lint = await r.cli(['trailers', 'lint', 'MSG']);
  assert.match(lint.stdout, /nobody\\e\[31m/);

  r.commit('chore: odd\n\nReview-Finding: nobody\x1b[31m,zz\n', {}, { args: ['--no-verify'] });
  const mine = await r.cli(['mine']);
  assert.equal(mine.code, 0, mine.stderr);

  for (const [name, run] of Object.entries({ review, commit, list, lint, mine })) {
    assert.doesNotMatch(run.stdout.replace(/^\{.*$/gm, ''), RAW, `${name} stdout`);
    assert.doesNotMatch(run.stderr, RAW, `${name} stderr`);
  }
});

test('property: JSON for a terminal parses to the same value and holds no raw DEL, C1 or bidi control', () => {
  const risky = fc.constantFrom(
    '\x7f',
    '\x85',
    '\x9b',
    '\u061c',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202e',
    '\u2066',
    '\u2069',
    'a',
    '"',
    '\\',
    '\n',
    'é',
    '😀',
  );
  const text = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.array(risky, { maxLength: 12 }).map((a) => a.join('')),
  );
  fc.assert(
    fc.property(fc.array(text, { maxLength: 4 }), (values) => {
      const value = { values, nested: { key: values.join('') } };
      const out = jsonForTerminal(JSON.stringify(value, null, 2));
      assert.deepEqual(JSON.parse(out), value);
      assert.doesNotMatch(out, /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    }),
    { numRuns: 300 },
  );
  assert.equal(jsonForTerminal(JSON.stringify('a\u202eb')), '"a\\u202eb"');
});
