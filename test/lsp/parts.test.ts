/**
 * The language server's parts without the protocol (docs/editor.md): the allow comment it
 * writes is one the review honours, a diagnostic's range stays in its buffer, the severity
 * follows the contract, the governing paragraph, and the buffer's diff is git's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { allowCommentLine, allowFor } from '../../lib/review/findings/allow-comments.js';
import { severityOf, SEVERITY, toDiagnostic } from '../../lib/lsp/diagnostics.js';
import { governingParagraph } from '../../lib/lsp/documents.js';
import { bufferDiff } from '../../lib/lsp/buffer-diff.js';
import { parseDiff } from '../../lib/diff/parse.js';
import { SEVERITIES } from '../../lib/core/vocabulary.js';
import type { Finding } from '../../lib/review/types.js';
import { addedFile } from '../kit/review.js';
import { throwawayRepos } from '../kit/repo.js';

const repos = throwawayRepos();

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    id: 'rf-0123456789',
    path: 'src/a.ts',
    start_line: 1,
    line: 1,
    side: 'RIGHT',
    severity: 'bug',
    category: 'correctness',
    title: 'A title',
    body: 'A body.',
    rule_source: 'adr-1:rule',
    citations: [],
    suggestion_code: null,
    confidence: 0.9,
    ...overrides,
  };
}

const PATHS = [
  'src/a.ts',
  'main.go',
  'app.py',
  'q.sql',
  'page.html',
  'README.md',
  'style.css',
  'run.sh',
  'ci.yaml',
  'Dockerfile',
  '.env',
  'x.unknownext',
  'App.vue',
];

test('the allow comment the code action writes is one the review honours, with its rule and reason', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...PATHS),
      fc.stringMatching(/^[a-z0-9][a-z0-9/_.-]{0,20}:[a-z0-9][a-z0-9_-]{0,20}$/),
      fc.stringMatching(/^[A-Za-z0-9 ,.:()'`]{0,60}$/),
      fc.constantFrom('', '  ', '\t'),
      (path, rule, reason, indent) => {
        const comment = `${indent}${allowCommentLine(path, rule, reason)}`;
        const file = addedFile(path, [comment, `${indent}flagged();`]);
        const allow = allowFor(finding({ path, rule_source: rule, start_line: 2, line: 2 }), file, false);
        assert.ok(allow, comment);
        assert.equal(allow.line, 1);
        assert.equal(allow.rule, rule);
        assert.equal(allow.reason, reason.replace(/\s+/g, ' ').trim());
      },
    ),
  );
});

test('comment syntax per language: //, #, --, <!-- -->, /* */', () => {
  assert.equal(allowCommentLine('a.ts', 'r:x', 'why'), '// revtrail-allow r:x why');
  assert.equal(allowCommentLine('a.py', 'r:x', 'why'), '# revtrail-allow r:x why');
  assert.equal(allowCommentLine('a.sql', 'r:x', 'why'), '-- revtrail-allow r:x why');
  assert.equal(allowCommentLine('a.md', 'r:x', 'why'), '<!-- revtrail-allow r:x why -->');
  assert.equal(allowCommentLine('a.css', 'r:x', 'why'), '/* revtrail-allow r:x why */');
  assert.equal(allowCommentLine('a.ts', 'r:x', '  '), '// revtrail-allow r:x');
});

test("a diagnostic's range is the finding's lines, clamped to the buffer, ending at the last line's end", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.string({ maxLength: 30 }).filter((s) => !/[\r\n]/.test(s)),
        { minLength: 1, maxLength: 20 },
      ),
      fc.integer({ min: 1, max: 25 }),
      fc.integer({ min: 0, max: 5 }),
      (lines, start, extra) => {
        const d = toDiagnostic(finding({ start_line: start, line: start + extra }), lines, { credential: false });
        const { range } = d;
        assert.equal(range.start.character, 0);
        assert.ok(range.start.line <= range.end.line);
        assert.ok(range.end.line < lines.length);
        assert.equal(range.start.line, Math.min(start - 1, lines.length - 1));
        assert.equal(range.end.line, Math.min(start + extra - 1, lines.length - 1));
        assert.equal(range.end.character, lines[range.end.line]!.length);
      },
    ),
  );
});

test('severity: what blocks a commit is an error, a demoted or soft finding a warning, the rest below', () => {
  for (const severity of SEVERITIES) {
    const got = severityOf({ severity });
    if (['bug', 'security', 'api-surface', 'test'].includes(severity)) assert.equal(got, SEVERITY.error, severity);
    else assert.ok(got > SEVERITY.warning, severity);
  }
  assert.equal(severityOf({ severity: 'test' }, true), SEVERITY.warning);
  assert.equal(severityOf({ severity: 'nit' }), SEVERITY.hint);
  const calibration: Finding['calibration'] = { rejected: 8, verdicts: 9, rate: 0.89 };
  assert.equal(severityOf({ severity: 'bug', calibration }), SEVERITY.warning);
  const d = toDiagnostic(finding(), ['x'], { credential: true });
  assert.equal(d.source, 'adr-1:rule');
  assert.equal(d.code, 'rf-0123456789');
  assert.equal(d.message, 'A title\nA body.');
});

test('the governing paragraph: under Decision, else the first of the body; headings skipped, lines joined', () => {
  assert.equal(
    governingParagraph('# T\n\n## Context\n\nWhy.\n\n## Decision\n\nWe do\nthis.\n\nMore.\n'),
    'We do this.',
  );
  assert.equal(governingParagraph('# T\n\nFirst para\ngoes on.\n\nSecond.\n'), 'First para goes on.');
  assert.equal(governingParagraph(''), '');
  const long = governingParagraph(`## Decision\n\n${'word '.repeat(400)}`);
  assert.ok(long.length <= 702 && long.endsWith(' …'), long.slice(-20));
});

test("the buffer's diff adds the lines git's own diff of the saved file adds", async () => {
  const repo = repos();
  repo.commit('base', { 'src/f.txt': 'a\nb\nc\nd\n' });
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'x y', ''), { maxLength: 8 }), async (lines) => {
      const text = lines.length ? `${lines.join('\n')}\n` : '';
      const ours = await bufferDiff(repo.dir, 'src/f.txt', text);
      repo.write('src/f.txt', text);
      const theirs = repo.git(['diff', 'HEAD', '--', 'src/f.txt']);
      const added = (diff: string) =>
        parseDiff(diff, 't').flatMap((f) =>
          f.hunks.flatMap((h) => h.lines.filter((l) => l.kind === 'add').map((l) => `${l.newLine}:${l.text}`)),
        );
      assert.ok(ours);
      assert.deepEqual(added(ours.text), added(theirs));
      assert.deepEqual(
        parseDiff(ours.text, 't').map((f) => [f.oldPath, f.newPath]),
        parseDiff(theirs, 't').map((f) => [f.oldPath, f.newPath]),
      );
    }),
    { numRuns: 15 },
  );
});

test("a new file's diff is an added file under its own path; an ignored untracked file is not reviewed", async () => {
  const repo = repos();
  repo.commit('base', { '.gitignore': 'build/\n' });
  const diff = await bufferDiff(repo.dir, 'src/new file.ts', 'one\n');
  const [file] = parseDiff(diff!.text, 't');
  assert.equal(file!.status, 'added');
  assert.equal(file!.oldPath, null);
  assert.equal(file!.newPath, 'src/new file.ts');
  assert.equal(await bufferDiff(repo.dir, 'build/out.js', 'x\n'), null);
});
