import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintMessage, trailerValuesFromParse } from '../../lib/record/lint.js';
import { detectCommentChar, isEmptyMessage, keptLines } from '../../lib/record/message.js';
import { makeRepo, runCli } from '../kit/repo.js';

const OPEN = 'rf-0123456789,src/a.ts,3,builtin/debug:debugger,correctness,bug,`debugger` statement left in,OPEN,';
const REJECT_OK =
  'rf-0123456789,src/a.ts,3,builtin/debug:debugger,correctness,bug,`debugger` left in,REJECT,"`npm test` passes: https://ci.example/1"';

test('valid rows pass; the key is case-insensitive; comment lines and the scissors tail are ignored', () => {
  const text = [
    'feat: x',
    '',
    'body',
    '',
    `Review-Finding: ${OPEN}`,
    `review-finding: ${REJECT_OK}`,
    '# Review-Finding: not,a,row',
    '# ------------------------ >8 ------------------------',
    'Review-Finding: after the scissors, not part of the message',
  ].join('\n');
  const result = lintMessage(text);
  assert.equal(result.errors, 0);
  assert.equal(result.warnings, 0);
  assert.deepEqual(
    result.rows.map((r) => [r.line, r.row.verdict]),
    [
      [5, 'OPEN'],
      [6, 'REJECT'],
    ],
  );
});

test('a bad row is an error naming its line and reason; gate problems are errors or warnings', () => {
  const text = [
    'fix: y',
    '',
    'Review-Finding: rf-xyz,src/a.ts,3,builtin/debug:debugger,correctness,bug,t,OPEN,',
    'Review-Finding: rf-0123456789,src/a.ts,3,builtin/debug:debugger,correctness,bug,t,REJECT,',
    'Review-Finding: rf-0123456789,src/a.ts,3,builtin/debug:debugger,correctness,bug,t,REJECT,I just think so',
    'Review-Finding: rf-0123456789,src/a.ts,3,builtin/debug:debugger,correctness,bug,t,OPEN',
  ].join('\n');
  const result = lintMessage(text);
  assert.equal(result.errors, 3);
  assert.equal(result.warnings, 1);
  assert.deepEqual(
    result.problems.map((p) => [p.line, p.level]),
    [
      [3, 'error'],
      [4, 'error'],
      [5, 'warning'],
      [6, 'error'],
    ],
  );
  assert.match(result.problems[0]!.reason, /^id: /);
  assert.match(result.problems[1]!.reason, /REJECT needs a rationale/);
  assert.match(result.problems[2]!.reason, /checkable/);
  assert.match(result.problems[3]!.reason, /8 fields, expected 9/);
});

test('continuation lines unfold into the value; ADR-0029 lines are a warning, not an error', () => {
  const text = [
    's',
    '',
    'Review-Finding: rf-0123456789,src/a.ts,3,builtin/debug:debugger,correctness,bug,a title',
    '  folded over two lines,OPEN,',
    'Review-Finding: security HIGH \u2014 token in logs',
  ].join('\n');
  const result = lintMessage(text);
  assert.equal(result.errors, 0);
  assert.equal(result.rows.length, 1);
  assert.equal(result.rows[0]!.row.issue, 'a title folded over two lines');
  assert.deepEqual(
    result.problems.map((p) => [p.line, p.level]),
    [[5, 'warning']],
  );
});

test("a row git does not see as a trailer earns a warning when git's view is given", () => {
  const text = `s\n\nSome text\nReview-Finding: ${OPEN}\n`;
  const result = lintMessage(text, { trailerValues: trailerValuesFromParse('') });
  assert.equal(result.errors, 0);
  assert.match(result.problems[0]!.reason, /trailer block/);
  const seen = lintMessage(`s\n\nReview-Finding: ${OPEN}\n`, {
    trailerValues: trailerValuesFromParse(`Review-Finding: ${OPEN}\n`),
  });
  assert.equal(seen.problems.length, 0);
});

test('empty messages, comment characters and the auto comment character', () => {
  assert.equal(isEmptyMessage('\n\n# Please enter the commit message\n#\n', '#'), true);
  assert.equal(isEmptyMessage('  \n; comment\n', ';'), true);
  assert.equal(isEmptyMessage('# not a comment with ;\n', ';'), false);
  assert.equal(
    isEmptyMessage('\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n', '#'),
    true,
  );
  assert.deepEqual(
    keptLines('a\n; c\nb', ';').map((l) => l.number),
    [1, 3],
  );
  assert.equal(detectCommentChar('msg\n#tag line\n\n; Please enter\n;\n'), ';');
  assert.equal(detectCommentChar('msg\n@ ------------------------ >8 ------------------------\n+diff\n'), '@');
  assert.equal(detectCommentChar('msg only\n'), '#');
});

const repo = makeRepo();
after(() => repo.cleanup());

test('revtrail trailers lint FILE: exit 1 and FILE:LINE: reason for a bad row; exit 0 for good rows', async () => {
  const bad = join(repo.dir, 'bad-msg');
  writeFileSync(
    bad,
    `feat: x\n\nReview-Finding: ${OPEN}\nReview-Finding: rf-0123456789,src/a.ts,0,x:y,style,nit,t,OPEN,\n`,
  );
  const run = await runCli(['trailers', 'lint', 'bad-msg'], { cwd: repo.dir });
  assert.equal(run.code, 1);
  assert.match(run.stdout, /^bad-msg:4: line: line must be N or N-M with 1 <= N <= M$/m);
  assert.match(run.stdout, /^ {2}Review-Finding: rf-0123456789,src\/a.ts,0,/m);

  const good = join(repo.dir, 'good-msg');
  writeFileSync(good, `feat: x\n\nReview-Finding: ${OPEN}\n`);
  const ok = await runCli(['trailers', 'lint', good], { cwd: repo.dir });
  assert.equal(ok.code, 0);
  assert.equal(ok.stdout, '');
  assert.match(ok.stderr, /1 Review-Finding row, 0 errors, 0 warnings/);
});

test('revtrail trailers lint - reads stdin; --json; a missing file is an input error (exit 2)', async () => {
  const run = await runCli(['trailers', 'lint', '-', '--json'], {
    cwd: repo.dir,
    input: `s\n\nReview-Finding: ${REJECT_OK.replace(/"[^"]*"$/, 'because')}\n`,
  });
  assert.equal(run.code, 0);
  const json = JSON.parse(run.stdout) as {
    file: string;
    rows: number;
    warnings: number;
    problems: Array<{ line: number; level: string }>;
  };
  assert.equal(json.file, '<stdin>');
  assert.equal(json.rows, 1);
  assert.deepEqual(
    json.problems.map((p) => [p.line, p.level]),
    [[3, 'warning']],
  );
  const missing = await runCli(['trailers', 'lint', 'nope.txt'], { cwd: repo.dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read nope\.txt/);
});

test('revtrail trailers lint outside a repository still checks the rows', async () => {
  const run = await runCli(['trailers', 'lint', '-'], { cwd: '/', input: 'x\n\nReview-Finding: bad\n' });
  assert.equal(run.code, 1);
  assert.match(run.stdout, /^<stdin>:3: /m);
});

test('a fold git unfolds otherwise (after a comma) and a long line with no space to fold at are warnings, not errors', () => {
  const comma = lintMessage(
    'feat: x\n\nReview-Finding: rf-0123456789,a.js,1,builtin/debug:debugger,correctness,bug,x y,\n OPEN,\n',
  );
  assert.equal(comma.errors, 0);
  assert.equal(comma.rows.length, 1);
  assert.deepEqual(
    comma.problems.map((p) => p.reason.split(' (')[0]),
    ["folded where git's own unfolding"],
  );
  const path = `src/${'deep/'.repeat(20)}file.js`;
  const line = `Review-Finding: rf-0123456789,${path},1,builtin/debug:debugger,correctness,bug,x,OPEN,`;
  const long = lintMessage(`feat: x\n\n${line}\n`);
  assert.equal(long.errors, 0);
  assert.match(
    long.problems[0]?.reason ?? '',
    new RegExp(`^a line of ${line.length} characters with no space to fold it at`),
  );
  // A long line a fold brings within 100 columns (a lone space, or a comma between fields) is the
  // writer's choice, not named; nor is the writer's own comma fold on a line with no lone space.
  const shorter = `src/${'deep/'.repeat(12)}file.js`;
  const foldable = lintMessage(
    `feat: x\n\nReview-Finding: rf-0123456789,${shorter},1,builtin/debug:debugger,correctness,bug,a b,OPEN,\n`,
  );
  assert.deepEqual(foldable.problems, []);
  const written = lintMessage(
    `feat: x\n\nReview-Finding: rf-0123456789,\n ${shorter},1,builtin/debug:debugger,correctness,bug,a\n  b,OPEN,\n`,
  );
  assert.deepEqual(written.problems, []);
});
