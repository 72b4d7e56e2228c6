import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo } from '../kit/repo.js';
import { latestVerdicts, readHistoryRows } from '../../lib/record/history.js';

const repo = makeRepo();
after(() => repo.cleanup());

test("history rows come from git's trailer view, newest first; latest human verdict wins", async () => {
  assert.deepEqual(await readHistoryRows(repo.dir), [], 'unborn branch: no rows, no error');
  const first = repo.commit(
    'feat: a\n\nReview-Finding: rf-aaaaaa1,src/a.ts,3,adr-1:no-x,architecture,bug,Bad thing,OPEN,\n',
    { 'a.txt': '1' },
  );
  // A body paragraph is not a trailer: git's view does not list it.
  repo.commit(
    'fix: a\n\nReview-Finding: rf-bbbbbb1,src/a.ts,3,adr-1:no-x,architecture,bug,Body only,REJECT,"`x` shows it"\n\nmore text\n',
    { 'a.txt': '2' },
  );
  const second = repo.commit(
    'fix: a\n\nReview-Finding: rf-aaaaaa1,src/a.ts,3,adr-1:no-x,architecture,bug,Bad thing,ACCEPT,moved it\n' +
      'Review-Finding: not,a,row\n',
    { 'a.txt': '3' },
  );
  const rows = await readHistoryRows(repo.dir);
  assert.deepEqual(
    rows.map((r) => [r.commit, r.row.id, r.row.verdict]),
    [
      [second, 'rf-aaaaaa1', 'ACCEPT'],
      [first, 'rf-aaaaaa1', 'OPEN'],
    ],
  );
  assert.equal(latestVerdicts(rows).get('rf-aaaaaa1')?.verdict, 'ACCEPT');
  assert.equal(latestVerdicts(rows).has('rf-bbbbbb1'), false);
});
