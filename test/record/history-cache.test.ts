/**
 * The history cache (lib/record/history-cache.ts, docs/record.md "The history cache"): a start at
 * the commit of the last read takes its rows without a `git log`; another commit, a shallow
 * boundary moved, or a file this build did not write is read from git again.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo } from '../kit/repo.js';
import { cachedHistoryRows } from '../../lib/record/history-cache.js';
import { readHistoryRows } from '../../lib/record/history.js';
import { historyCacheFile } from '../../lib/core/state.js';

const repo = makeRepo();
after(() => repo.cleanup());
const commonDir = join(repo.dir, '.git');
const trace = join(commonDir, 'history-trace.log');

/** The rows, and how many `git log` processes reading them took (GIT_TRACE). */
async function read(commit: string): Promise<{ rows: unknown[]; logs: number }> {
  writeFileSync(trace, '');
  process.env.GIT_TRACE = trace;
  try {
    const history = cachedHistoryRows(repo.dir, commonDir, commit);
    const rows = await history.rows;
    await history.keep();
    const logs = [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git log/g)].length;
    return { rows, logs };
  } finally {
    delete process.env.GIT_TRACE;
  }
}

const row = (id: string, verdict: string) =>
  `Review-Finding: ${id},src/a.ts,3,adr-1:no-x,architecture,bug,Bad thing,${verdict},\n`;

test('the same commit is read once; a new commit, a shallow boundary and a hand-edited file are read again', async () => {
  const first = repo.commit(`feat: a\n\n${row('rf-aaaaaa1', 'OPEN')}`, { 'a.txt': '1' });
  const fromGit = await read(first);
  assert.equal(fromGit.logs, 1);
  assert.deepEqual(fromGit.rows, await readHistoryRows(repo.dir, first));
  assert.equal(fromGit.rows.length, 1);
  assert.ok(existsSync(historyCacheFile(commonDir)), 'kept for the next start');

  const again = await read(first);
  assert.deepEqual(again, { rows: fromGit.rows, logs: 0 }, 'the same commit: from the cache');

  const second = repo.commit(`fix: a\n\n${row('rf-aaaaaa1', 'ACCEPT')}`, { 'a.txt': '2' });
  const moved = await read(second);
  assert.equal(moved.logs, 1, 'another commit: from git');
  assert.deepEqual(moved.rows, await readHistoryRows(repo.dir, second));
  assert.equal(moved.rows.length, 2);
  assert.equal((await read(second)).logs, 0);

  // A shallow boundary at the second commit cuts the first off the history of the same commit.
  writeFileSync(join(commonDir, 'shallow'), `${second}\n`);
  const shallow = await read(second);
  assert.equal(shallow.logs, 1, 'the shallow boundary moved: from git');
  assert.equal(shallow.rows.length, 1);
  writeFileSync(join(commonDir, 'shallow'), '');
  assert.equal((await read(second)).logs, 1, 'and back: from git');
  assert.equal((await read(second)).logs, 0);

  // A file whose rows are not rows this build wrote is read from git again.
  const file = historyCacheFile(commonDir);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...stored, rows: [{ commit: second }] }));
  const edited = await read(second);
  assert.equal(edited.logs, 1);
  assert.deepEqual(edited.rows, await readHistoryRows(repo.dir, second));
});

test('a read git cannot answer is no rows and is not kept', async () => {
  const other = makeRepo();
  try {
    mkdirSync(join(other.dir, '.git', 'revtrail'), { recursive: true });
    const history = cachedHistoryRows(other.dir, join(other.dir, '.git'), 'f'.repeat(40));
    assert.deepEqual(await history.rows, []);
    await history.keep();
    assert.equal(existsSync(historyCacheFile(join(other.dir, '.git'))), false);
  } finally {
    other.cleanup();
  }
});
