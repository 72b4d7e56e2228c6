/**
 * Folding (docs/trailers.md "Folding"), by property: for any row and any width, fold then
 * unfold is the identity; every folded line fits the width wherever a place to fold exists;
 * no line ends in whitespace (git's cleanup would strip it); and the readers (parseRow, lint,
 * mining's line reader) read the folded row back as the unfolded one. Plus real git: a folded
 * row written by `git interpret-trailers` reads back through the history reader unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { foldPlaces, foldRow, formatRow, parseRow, unfoldValue, type TrailerRow } from '../../lib/record/row.js';
import { lintMessage } from '../../lib/record/lint.js';
import { parseCommit } from '../../lib/mine/parse.js';
import { appendTrailers } from '../../lib/record/write.js';
import { readHistoryRows } from '../../lib/record/history.js';
import { CATEGORIES, SEVERITIES, VERDICTS } from '../../lib/core/vocabulary.js';
import { makeRepo } from '../kit/repo.js';

const LEAD = 'Review-Finding: '.length;
const piece = fc.oneof(
  fc.stringMatching(/^[a-z]{1,14}$/),
  fc.constantFrom(' ', '  ', ',', '"', '""', ', ', ' ,', '\t', 'é', '漢', '\\'),
  fc.string({ maxLength: 4 }),
);
const text = (min = 0) => fc.array(piece, { minLength: min, maxLength: 14 }).map((p) => p.join(''));
const row: fc.Arbitrary<TrailerRow> = fc.record({
  id: fc.stringMatching(/^rf-[0-9a-f]{10}$/),
  file: fc.array(fc.stringMatching(/^[a-z][a-z ,."-]{0,30}$/), { minLength: 1, maxLength: 5 }).map((p) => p.join('/')),
  line: fc.integer({ min: 1, max: 99999 }).map(String),
  rule_source: fc.constantFrom(
    'builtin/debug:debugger',
    'adr-0001:no-db-query',
    'reviewer/qwen2-5-coder-7b:long-rule-name',
  ),
  category: fc.constantFrom(...CATEGORIES),
  severity: fc.constantFrom(...SEVERITIES),
  issue: text(1)
    .map((s) => s.slice(0, 80))
    .filter((s) => s.trim().length > 0),
  verdict: fc.constantFrom(...VERDICTS),
  rationale: text(),
});
const width = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 140 }));

test('fold then unfold is the identity, and each reader reads the folded row as the unfolded one', () => {
  fc.assert(
    fc.property(row, width, (r, w) => {
      const value = formatRow(r);
      const folded = foldRow(value, w);
      assert.equal(unfoldValue(folded), value);
      if (w === 0) assert.equal(folded, value);
      assert.deepEqual(parseRow(folded), parseRow(value));
      const message = `feat: x\n\nReview-Finding: ${folded}\n`;
      const linted = lintMessage(message);
      const plain = lintMessage(`feat: x\n\nReview-Finding: ${value}\n`);
      assert.deepEqual(linted.rows, plain.rows);
      // Only the length warning differs: folding is what shortens the lines.
      const reasons = (l: typeof linted) => l.problems.map((p) => p.reason).filter((x) => !x.startsWith('a line of '));
      assert.deepEqual(reasons(linted), reasons(plain));
      assert.ok(
        !linted.problems.some((p) => p.reason.startsWith('folded where')),
        'git reads the fold as revtrail does',
      );
      const mined = parseCommit({
        commit: 'c'.repeat(40),
        date: '2026-01-01T00:00:00Z',
        author: 'a <a@b>',
        body: message,
        trailerValues: [],
      } as never);
      const minedPlain = parseCommit({
        commit: 'c'.repeat(40),
        date: '2026-01-01T00:00:00Z',
        author: 'a <a@b>',
        body: `feat: x\n\nReview-Finding: ${value}\n`,
        trailerValues: [],
      } as never);
      assert.deepEqual(mined, minedPlain);
    }),
    { numRuns: 400 },
  );
});

test('every folded line fits the width where a place to fold exists; none ends in whitespace', () => {
  fc.assert(
    fc.property(row, fc.integer({ min: 1, max: 140 }), (r, w) => {
      const value = formatRow(r);
      const lines = foldRow(value, w).split('\n');
      const { spaces, commas } = foldPlaces(value);
      let start = 0; // where this line's text begins in the row
      lines.forEach((line, i) => {
        const lead = i === 0 ? LEAD : 0; // continuation lines carry their fold's space themselves
        assert.doesNotMatch(line, /\s$/, 'a line ends in whitespace');
        if (i > 0) assert.match(line, /^ \S|^ {2}/);
        const content = i === 0 ? line : line.slice(1);
        if (lead + line.length > w) {
          // Too long: no place to fold (a lone space: non-space on both sides, or right after a
          // comma between fields) within the width.
          const room = w - (i === 0 ? LEAD : 1);
          for (const at of [...spaces, ...commas]) {
            assert.ok(
              !(at > start && at - start <= room),
              `line ${i} (${lead + line.length} > ${w}) could fold at ${at - start}: ${JSON.stringify(line)}`,
            );
          }
        }
        start += content.length;
      });
      assert.equal(start, value.length);
    }),
    { numRuns: 400 },
  );
});

test('a comma between fields is the place to fold where no lone space keeps a line within the width', () => {
  const value =
    'rf-0123456789,src/a/long/path/without/any/spaces/in/it.js,1,builtin/debug:debugger,correctness,bug,a debugger statement,OPEN,';
  const folded = foldRow(value, 40);
  // Nothing before "a debugger" has a lone space: the fields' commas fold it, each line as full as it can be.
  assert.equal(
    folded,
    'rf-0123456789,\n src/a/long/path/without/any/spaces/in/it.js,\n 1,builtin/debug:debugger,correctness,\n bug,a debugger statement,OPEN,',
  );
  assert.equal(unfoldValue(folded), value);
  // A comma inside a quoted field is no place to fold; a stretch with no place at all stays long.
  assert.equal(foldRow('rf-0123456789,"a,b,c,d,e,f,g",1', 20), 'rf-0123456789,\n "a,b,c,d,e,f,g",1');
  assert.equal(foldRow('rf-0123456789,a  b,1', 10), 'rf-0123456789,\n a  b,1', 'two spaces: git would collapse them');
  assert.equal(foldRow('rf-0123456789', 5), 'rf-0123456789');
  // A row an older revtrail folded right after a comma still reads back exactly.
  const older = value.replace('it.js,1,', 'it.js,\n 1,').replace('correctness,', 'correctness,\n ');
  assert.equal(unfoldValue(older), value);
  assert.deepEqual(parseRow(older), parseRow(value));
});

test('real git: a folded row written by interpret-trailers reads back unchanged through the history reader', async () => {
  const repo = makeRepo();
  repo.commit('chore: start');
  const r: TrailerRow = {
    id: 'rf-0123456789',
    file: 'src/a folder with spaces/and, a comma/in its name/and more words here.js',
    line: '12-14',
    rule_source: 'builtin/injection:sql-concat',
    category: 'security',
    severity: 'security',
    issue: 'SQL built by concatenation or interpolation, with words',
    verdict: 'REJECT',
    rationale: 'a fixture, see `git show HEAD --stat` and the words after it',
  };
  const message = await appendTrailers(Buffer.from('feat: folded\n'), [r], { cwd: repo.dir, foldAt: 70 });
  assert.ok(
    message
      .toString()
      .split('\n')
      .every((l) => l.length <= 70),
    message.toString(),
  );
  repo.git(['commit', '--allow-empty', '-q', '-F', '-'], { input: message.toString() });
  const [read] = await readHistoryRows(repo.dir);
  assert.deepEqual(read?.row, r);
  // git's own documented reading gives the same row, byte for byte.
  const unfolded = repo.git(['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly,unfold)']).trim();
  assert.equal(unfolded, formatRow(r));
  // Appending the same row again, folded another way, adds no second copy.
  const again = await appendTrailers(message, [r], { cwd: repo.dir, foldAt: 0 });
  assert.equal(again.toString(), message.toString());
});

test('real git, by property: rows folded at any width read back exactly, and through %(trailers:…,unfold) but for a space after a comma fold', async () => {
  const repo = makeRepo();
  repo.commit('chore: start');
  const cases = fc.sample(fc.tuple(row, fc.integer({ min: 20, max: 120 })), { numRuns: 40, seed: 42 });
  const rows = cases.map(([r], i) => ({ ...r, id: `rf-${i.toString(16).padStart(10, '0')}` }));
  let message: Buffer = Buffer.from('feat: folded rows\n');
  for (let i = 0; i < rows.length; i++) {
    message = await appendTrailers(message, [rows[i]!], { cwd: repo.dir, foldAt: cases[i]![1] });
  }
  repo.git(['commit', '--allow-empty', '-q', '--cleanup=verbatim', '-F', '-'], { input: message.toString() });
  const read = repo
    .git(['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly,unfold,separator=%x01)'])
    .replace(/\n$/, '')
    .split('\x01');
  // git turns each fold into one space: exact at a space fold, one space more after a comma
  // fold (the writer's fallback where no space serves; display only, docs/trailers.md "Folding").
  const gitView = (r: TrailerRow, w: number) => {
    const folded = foldRow(formatRow(r), w);
    return folded.replace(/\n /g, (_, at: number) => (/\s/.test(folded[at + 2]!) ? '' : ' '));
  };
  assert.deepEqual(
    read,
    rows.map((r, i) => gitView(r, cases[i]![1])),
  );
  // revtrail's readers get every row back exactly.
  const history = await readHistoryRows(repo.dir);
  assert.deepEqual(
    history.map((h) => h.row),
    rows,
  );
});
