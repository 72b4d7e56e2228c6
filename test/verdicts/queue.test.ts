import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  dropQueued,
  enqueueVerdict,
  pruneQueue,
  pruneRecorded,
  readQueue,
  type QueuedVerdict,
} from '../../lib/verdicts/queue.js';
import { withLock } from '../../lib/core/fs/lock.js';
import { formatRow, type TrailerRow } from '../../lib/record/row.js';
import { fixturesDir, makeRepo, projectRoot, runProcess, tempDir } from '../kit/repo.js';
import { rmSync, utimesSync } from 'node:fs';

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

function entry(
  id: string,
  verdict: QueuedVerdict['verdict'] = 'REJECT',
  rationale = '`npm test` passes',
): QueuedVerdict {
  const row: TrailerRow = {
    id,
    file: 'src/a.ts',
    line: '3',
    rule_source: 'builtin/debug:debugger',
    category: 'correctness',
    severity: 'bug',
    issue: 'debugger',
    verdict,
    rationale,
  };
  return { id, verdict, rationale, row, queuedAt: '2025-01-01T00:00:00.000Z' };
}

test('readQueue: no queue yet is an empty list', async () => {
  assert.deepEqual(await readQueue(join(dir, 'none')), []);
});

test('enqueue appends; a second verdict on the same finding replaces the first; drop removes it', async () => {
  const common = join(dir, 'q1');
  mkdirSync(common);
  assert.equal(await enqueueVerdict(common, entry('rf-aaaaaaaaaa')), null);
  await enqueueVerdict(common, entry('rf-bbbbbbbbbb'));
  const replaced = await enqueueVerdict(common, entry('rf-aaaaaaaaaa', 'DEFER', 'JIRA-12 next sprint'));
  assert.equal(replaced?.verdict, 'REJECT');
  assert.deepEqual(
    (await readQueue(common)).map((e) => [e.id, e.verdict]),
    [
      ['rf-bbbbbbbbbb', 'REJECT'],
      ['rf-aaaaaaaaaa', 'DEFER'],
    ],
  );
  assert.equal((await dropQueued(common, 'rf-bbbbbbbbbb'))?.id, 'rf-bbbbbbbbbb');
  assert.equal(await dropQueued(common, 'rf-bbbbbbbbbb'), null);
  assert.deepEqual(
    (await readQueue(common)).map((e) => e.id),
    ['rf-aaaaaaaaaa'],
  );
  assert.deepEqual(readdirSync(join(common, 'revtrail')).sort(), ['verdicts.jsonl']);
});

test('a damaged line is skipped, the rest of the queue still counts', async () => {
  const common = join(dir, 'q2');
  await enqueueVerdict(common, entry('rf-cccccccccc'));
  appendFileSync(join(common, 'revtrail', 'verdicts.jsonl'), '{not json\n{"id":"rf-x"}\n');
  assert.deepEqual(
    (await readQueue(common)).map((e) => e.id),
    ['rf-cccccccccc'],
  );
});

test('pruneQueue removes only what the predicate says is recorded', async () => {
  const common = join(dir, 'q3');
  await enqueueVerdict(common, entry('rf-dddddddddd'));
  await enqueueVerdict(common, entry('rf-eeeeeeeeee'));
  const kept = await pruneQueue(common, (e) => e.id === 'rf-dddddddddd');
  assert.deepEqual(
    kept.map((e) => e.id),
    ['rf-eeeeeeeeee'],
  );
  assert.deepEqual(
    (await readQueue(common)).map((e) => e.id),
    ['rf-eeeeeeeeee'],
  );
});

test('pruneRecorded: an entry leaves the queue once a commit on HEAD carries its trailer', async () => {
  const repo = makeRepo();
  try {
    const common = join(repo.dir, '.git');
    const e = entry('rf-ffffffffff', 'REJECT', '`npm test` output: 12 passing');
    await enqueueVerdict(common, e);
    await enqueueVerdict(common, entry('rf-0000000000'));
    repo.commit('first');
    assert.equal((await pruneRecorded(repo.dir, common)).length, 2, 'no commit carries them yet');
    // Same finding, different rationale: not this verdict's trailer.
    repo.commit(`other\n\nReview-Finding: ${formatRow({ ...e.row, rationale: 'something else, `x`' })}\n`);
    assert.equal((await pruneRecorded(repo.dir, common)).length, 2);
    repo.commit(`record\n\nReview-Finding: ${formatRow(e.row)}\n`);
    assert.deepEqual(
      (await pruneRecorded(repo.dir, common)).map((q) => q.id),
      ['rf-0000000000'],
    );
  } finally {
    repo.cleanup();
  }
});

test('concurrent writers (four processes) lose no entry and leave a valid file', async () => {
  const common = join(dir, 'q4');
  mkdirSync(common);
  const script = join(fixturesDir, 'hooks', 'enqueue-many.mjs');
  const runs = await Promise.all(
    ['a', 'b', 'c', 'd'].map((p) =>
      runProcess(process.execPath, [script, join(projectRoot, 'dist'), common, `${p}${p}${p}${p}${p}0`, '15'], {
        cwd: dir,
      }),
    ),
  );
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const queue = await readQueue(common);
  assert.equal(queue.length, 60);
  assert.equal(new Set(queue.map((q) => q.id)).size, 60);
  const lines = readFileSync(join(common, 'revtrail', 'verdicts.jsonl'), 'utf8')
    .trimEnd()
    .split('\n');
  assert.equal(lines.length, 60);
});

test('a stale lock (its holder was killed) is broken; a live one is waited for', async () => {
  const lock = join(dir, 'stale.lock');
  writeFileSync(lock, '999999\n');
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  assert.equal(await withLock(lock, async () => 'ran'), 'ran');
  const order: string[] = [];
  // b asks for the lock only once a holds it, and a lets go only once b is waiting: no timing.
  let entered!: () => void;
  const aHolds = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const bWaits = new Promise<void>((r) => (release = r));
  await Promise.all([
    withLock(lock, async () => {
      order.push('a-in');
      entered();
      await bWaits;
      order.push('a-out');
    }),
    aHolds.then(() => {
      const b = withLock(lock, async () => order.push('b'));
      release();
      return b;
    }),
  ]);
  assert.deepEqual(order, ['a-in', 'a-out', 'b']);
});
