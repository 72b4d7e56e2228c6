import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  damagedQueueLines,
  dropQueued,
  enqueueVerdict,
  pruneQueue,
  pruneRecorded,
  readQueue,
  type QueuedVerdict,
} from '../../lib/verdicts/queue.js';
import { withLock } from '../../lib/core/fs/lock.js';
import { formatRow, type TrailerRow } from '../../lib/record/row.js';
import { fixturesDir, makeRepo, projectRoot, runCli, runProcess, tempDir } from '../kit/repo.js';
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

test('a damaged line is kept in the file through every rewrite and named; the rest of the queue still counts', async () => {
  const common = join(dir, 'q2');
  await enqueueVerdict(common, entry('rf-cccccccccc'));
  const misspelt = JSON.stringify(entry('rf-ffffffffff')).replace('"verdict":"REJECT"', '"verdcit":"REJECT"');
  appendFileSync(join(common, 'revtrail', 'verdicts.jsonl'), `{not json\n${misspelt}\n`);
  assert.deepEqual(
    (await readQueue(common)).map((e) => e.id),
    ['rf-cccccccccc'],
  );
  // A rewrite of the queue (a new verdict, then a prune) leaves both lines as they were.
  await enqueueVerdict(common, entry('rf-dddddddddd'));
  await pruneQueue(common, (e) => e.id === 'rf-cccccccccc');
  const file = readFileSync(join(common, 'revtrail', 'verdicts.jsonl'), 'utf8');
  assert.ok(file.includes(`{not json\n`) && file.includes(`${misspelt}\n`), file);
  const damaged = await damagedQueueLines(common);
  assert.deepEqual(
    damaged.map((d) => [d.line, d.text]),
    [
      [2, '{not json'],
      [3, misspelt],
    ],
  );
  assert.equal(damaged[0]!.reason, 'not JSON');
  assert.match(damaged[1]!.reason, /^verdict: /);
});

test('verdict --list names a damaged queue line, and a commit keeps it', async () => {
  const repo = makeRepo();
  repo.commit('chore: start');
  const common = join(repo.dir, '.git');
  mkdirSync(join(common, 'revtrail'), { recursive: true });
  const misspelt = JSON.stringify(entry('rf-ffffffffff')).replace('"rationale":', '"rationalle":');
  writeFileSync(join(common, 'revtrail', 'verdicts.jsonl'), `${misspelt}\n`);
  const list = await runCli(['verdict', '--list'], { cwd: repo.dir });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stderr, /verdicts\.jsonl:1 cannot be read \(rationale: .*\); it is kept as it is/);
  await enqueueVerdict(common, entry('rf-aaaaaaaaaa'));
  assert.ok(readFileSync(join(common, 'revtrail', 'verdicts.jsonl'), 'utf8').endsWith(`${misspelt}\n`));
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
