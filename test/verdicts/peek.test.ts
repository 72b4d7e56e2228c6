import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mayHaveLastFindings, mayHaveQueued } from '../../lib/verdicts/peek.js';
import { lastReviewFile, queueFile, revtrailDir } from '../../lib/core/state.js';
import { tempDir } from '../kit/repo.js';

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh common dir with the revtrail folder in it. */
function commonDir(): string {
  const common = join(dir, `c${n++}`);
  mkdirSync(revtrailDir(common), { recursive: true });
  return common;
}

test('mayHaveQueued: false only for no queue file or a blank one; anything else is for readQueue to judge', async () => {
  assert.equal(await mayHaveQueued(join(dir, 'nowhere')), false);
  const blank = commonDir();
  writeFileSync(queueFile(blank), '\n  \n');
  assert.equal(await mayHaveQueued(blank), false);
  const one = commonDir();
  writeFileSync(queueFile(one), '{"id":"rf-0123456789"}\n');
  assert.equal(await mayHaveQueued(one), true);
  const garbage = commonDir();
  writeFileSync(queueFile(garbage), 'not json\n');
  assert.equal(await mayHaveQueued(garbage), true);
  const folder = commonDir();
  mkdirSync(queueFile(folder));
  assert.equal(await mayHaveQueued(folder), true, 'an unreadable queue is not "empty"');
});

test('mayHaveLastFindings: false only when saveLastReview would find no finding of that hook to erase', async () => {
  assert.equal(await mayHaveLastFindings(join(dir, 'nowhere'), 'commit-msg'), false);
  const write = (data: string) => {
    const common = commonDir();
    writeFileSync(lastReviewFile(common), data);
    return common;
  };
  const row = {
    id: 'rf-0123456789',
    file: 'a.js',
    line: '1',
    rule_source: 'builtin/debug:debugger',
    category: 'correctness',
    severity: 'bug',
    issue: 'x',
    verdict: 'OPEN',
    rationale: '',
  };
  const pushOnly = write(
    JSON.stringify({ version: 1, reviews: { 'pre-push': { seenAt: '2025-01-01T00:00:00.000Z', findings: [row] } } }),
  );
  assert.equal(await mayHaveLastFindings(pushOnly, 'commit-msg'), false);
  assert.equal(await mayHaveLastFindings(pushOnly, 'pre-push'), true);
  const emptied = write(
    JSON.stringify({ version: 1, reviews: { 'commit-msg': { seenAt: '2025-01-01T00:00:00.000Z', findings: [] } } }),
  );
  assert.equal(await mayHaveLastFindings(emptied, 'commit-msg'), false);
  // Damaged or of another shape: saveLastReview reads it as no findings too.
  assert.equal(await mayHaveLastFindings(write('{torn'), 'commit-msg'), false);
  assert.equal(await mayHaveLastFindings(write('null'), 'commit-msg'), false);
  assert.equal(await mayHaveLastFindings(write('{"reviews":{"commit-msg":{"findings":{}}}}'), 'commit-msg'), false);
  // A list the schema would refuse still goes to the full path, which decides.
  assert.equal(await mayHaveLastFindings(write('{"reviews":{"commit-msg":{"findings":[1]}}}'), 'commit-msg'), true);
  const folder = commonDir();
  mkdirSync(lastReviewFile(folder));
  assert.equal(await mayHaveLastFindings(folder, 'commit-msg'), true);
});
