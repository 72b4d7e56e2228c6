/**
 * The history candidates and stats read: on the mainline itself it is HEAD's, through the same
 * mine cache entry as `revtrail mine`; ahead of the mainline it is HEAD and the mainline. Either
 * way the statistics count the same findings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, throwawayRepos } from '../kit/repo.js';
import { message, row } from '../kit/mine.js';

const repos = throwawayRepos();
const entries = (dir: string) =>
  readdirSync(join(dir, '.git', 'revtrail', 'mine-cache')).filter((f) => f.endsWith('.json')).length;

test('on the mainline, stats and candidates reuse the cache of `revtrail mine`; ahead of it they read both', async () => {
  const repo = repos();
  repo.commit(message('one', [row({ id: 'rf-0000000001' })]), { 'src/a.ts': 'a\n' });
  repo.commit(message('two', [row({ id: 'rf-0000000001', verdict: 'ACCEPT', rationale: 'Fixed' })]), {
    'src/a.ts': 'b\n',
  });
  assert.equal((await runCli(['mine'], { cwd: repo.dir })).code, 0);
  assert.equal(entries(repo.dir), 1);
  const onMain = await runCli(['stats', '--json'], { cwd: repo.dir });
  assert.equal(onMain.code, 0, onMain.stderr);
  assert.equal((await runCli(['candidates'], { cwd: repo.dir })).code, 0);
  assert.equal(entries(repo.dir), 1, 'no second entry for HEAD + main');

  repo.git(['checkout', '-q', '-b', 'topic']);
  repo.commit(message('three', [row({ id: 'rf-0000000002' })]), { 'src/b.ts': 'c\n' });
  const ahead = await runCli(['stats', '--json'], { cwd: repo.dir });
  assert.equal(ahead.code, 0, ahead.stderr);
  assert.equal(entries(repo.dir), 2, 'HEAD + main is a walk of its own');
  const total = (out: string) => JSON.parse(out) as { commits: number; total: { findings: number } };
  assert.deepEqual([total(onMain.stdout).commits, total(onMain.stdout).total.findings], [2, 1]);
  assert.deepEqual(
    [total(ahead.stdout).commits, total(ahead.stdout).total.findings],
    [3, 2],
    'the topic commit is counted',
  );
});
