import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addTrailersToFile, appendTrailers } from '../../lib/record/write.js';
import { formatRow, type TrailerRow } from '../../lib/record/row.js';
import { writeFileAtomic } from '../../lib/core/fs/atomic.js';
import { makeRepo } from '../kit/repo.js';

const repo = makeRepo();
after(() => repo.cleanup());

const row = (n: number, extra: Partial<TrailerRow> = {}): TrailerRow => ({
  id: `rf-00000000${n}${n}`,
  file: 'src/a, b.ts',
  line: `${n}`,
  rule_source: 'builtin/debug:debugger',
  category: 'correctness',
  severity: 'bug',
  issue: 'Quote " and comma, in the title',
  verdict: 'OPEN',
  rationale: '',
  ...extra,
});

// Unfolded (foldAt 0): these cases are about where rows land; folding has its own tests (fold-property).
const add = async (message: string, rows: TrailerRow[], commentChar?: string) =>
  (await appendTrailers(Buffer.from(message), rows, { cwd: repo.dir, commentChar, foldAt: 0 })).toString('utf8');

/** Commits `message` verbatim (cleanup as git commit does with an editor) and returns git's trailer view. */
function commitAndRead(message: string, cleanup = 'strip'): string[] {
  const file = join(repo.dir, '.git', 'TEST_MSG');
  writeFileSync(file, message);
  repo.git(['commit', '-q', '--allow-empty', '--no-verify', `--cleanup=${cleanup}`, '-F', file]);
  return repo.git(['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly)']).split('\n').filter(Boolean);
}

test('trailers go after Signed-off-by: and before comments and the scissors line', async () => {
  const message =
    'feat: x\n\nbody\n\nSigned-off-by: Ada <ada@example.com>\n# Please enter the commit message\n# ------------------------ >8 ------------------------\n# Do not modify or remove the line above.\ndiff --git a/x b/x\n+Foo: bar\n';
  const out = await add(message, [row(1), row(2)]);
  assert.equal(
    out,
    `feat: x\n\nbody\n\nSigned-off-by: Ada <ada@example.com>\nReview-Finding: ${formatRow(row(1))}\nReview-Finding: ${formatRow(row(2))}\n# Please enter the commit message\n# ------------------------ >8 ------------------------\n# Do not modify or remove the line above.\ndiff --git a/x b/x\n+Foo: bar\n`,
  );
  assert.deepEqual(commitAndRead(out, 'scissors'), [formatRow(row(1)), formatRow(row(2))]);
});

test('a --- line in the body does not end the message (--no-divider)', async () => {
  const out = await add('feat: y\n\nbefore\n---\nafter\n', [row(3)]);
  assert.match(out, /after\n\nReview-Finding: /);
  assert.deepEqual(commitAndRead(out), [formatRow(row(3))]);
});

test('a message without a final newline gets one before the trailer (git 2.39 would glue them)', async () => {
  const out = await add('feat: z', [row(4)]);
  assert.equal(out, `feat: z\n\nReview-Finding: ${formatRow(row(4))}\n`);
});

test('addIfDifferent: a row already in the trailer block is not added twice', async () => {
  const once = await add('feat: w\n', [row(5)]);
  const twice = await add(once, [row(5), row(6)]);
  assert.equal(twice.match(/Review-Finding:/g)!.length, 2);
});

test('core.commentChar ; : comments in ; are skipped, # lines are message text', async () => {
  repo.git(['config', 'core.commentChar', ';']);
  try {
    const out = await add('feat: c\n\n#123 is the ticket\n\n; Please enter the commit message\n', [row(7)], ';');
    assert.equal(
      out,
      `feat: c\n\n#123 is the ticket\n\nReview-Finding: ${formatRow(row(7))}\n\n; Please enter the commit message\n`,
    );
    assert.deepEqual(commitAndRead(out), [formatRow(row(7))]);
  } finally {
    repo.git(['config', '--unset', 'core.commentChar']);
  }
});

test('addTrailersToFile replaces the file by rename and leaves no temp file; no rows: untouched', async () => {
  const dir = join(repo.dir, '.git');
  const file = join(dir, 'MSG_A');
  writeFileSync(file, 'feat: f\n');
  assert.equal(await addTrailersToFile(file, [], { cwd: repo.dir }), false);
  assert.equal(await addTrailersToFile(file, [row(8)], { cwd: repo.dir, foldAt: 0 }), true);
  assert.equal(readFileSync(file, 'utf8'), `feat: f\n\nReview-Finding: ${formatRow(row(8))}\n`);
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.includes('revtrail-tmp')),
    [],
  );
});

test('a message in another encoding keeps its bytes', async () => {
  const latin1 = Buffer.from('feat: caf\xe9\n', 'latin1');
  const out = await appendTrailers(latin1, [row(9)], { cwd: repo.dir });
  assert.deepEqual(out.subarray(0, latin1.length), latin1);
});

test('writeFileAtomic keeps the mode of the file it replaces', async () => {
  const file = join(repo.dir, 'script.sh');
  writeFileSync(file, 'old', { mode: 0o750 });
  await writeFileAtomic(file, 'new');
  assert.equal(readFileSync(file, 'utf8'), 'new');
  const { statSync } = await import('node:fs');
  assert.equal(statSync(file).mode & 0o777, 0o750);
});
