/**
 * The mine cache's output equals --no-cache whatever changed the shape of history without
 * moving a tip: replace refs, grafts, a deepened shallow clone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, testEnv, throwawayRepos, type TestRepo } from '../kit/repo.js';
import { clock, message, row } from '../kit/mine.js';

const repos = throwawayRepos();

function history(r: TestRepo): string[] {
  const t = clock();
  return [1, 2, 3, 4].map((i) =>
    r.commit(message(`c${i}`, [row({ id: `rf-00000000${i}0` })]), { [`f${i}.txt`]: `${i}\n` }, { env: t.next() }),
  );
}

async function same(r: TestRepo, args: string[] = [], cwd = r.dir): Promise<string> {
  const truth = await runCli(['mine', '--no-cache', ...args], { cwd });
  const cached = await runCli(['mine', ...args], { cwd });
  assert.equal(cached.code, 0, cached.stderr);
  assert.equal(cached.stdout, truth.stdout, `mine ${args.join(' ')} with the cache`);
  return truth.stdout;
}

test('git replace: the history read is the objects git stores, not a replacement (docs/record.md), cached or not', async () => {
  const r = repos();
  const [, c2] = history(r);
  const before = await same(r);
  assert.match(before, /rf-0000000020/);
  // A replacement for c2 whose message holds another finding: it must not be read as history
  // (a REJECT added that way would open the gate while git pushes the original objects).
  const tree = r.git(['rev-parse', `${c2}^{tree}`]).trim();
  const parent = r.git(['rev-parse', `${c2}^`]).trim();
  const replacement = r
    .git(['commit-tree', tree, '-p', parent, '-m', message('c2 replaced', [row({ id: 'rf-00000000ee' })])])
    .trim();
  r.git(['replace', c2!, replacement]);
  const replaced = await same(r);
  assert.doesNotMatch(replaced, /rf-00000000ee/);
  assert.equal(replaced, before);
  r.git(['replace', '-d', c2!]);
  assert.equal(await same(r), before);
});

test('grafts cut history: the cached output follows', async () => {
  const r = repos();
  const [, , c3] = history(r);
  await same(r);
  mkdirSync(join(r.dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(r.dir, '.git', 'info', 'grafts'), `${c3}\n`);
  const cut = await same(r);
  assert.deepEqual(cut.match(/rf-00000000\d0/g), ['rf-0000000040', 'rf-0000000030']);
  rmSync(join(r.dir, '.git', 'info', 'grafts'));
  assert.equal((await same(r)).match(/rf-00000000\d0/g)?.length, 4);
});

test('a shallow clone deepened: the cached output follows', async () => {
  const origin = repos();
  history(origin);
  const parent = tempDir();
  process.on('exit', () => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'shallow');
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin.dir}`, dir], { env: testEnv() });
  const clone = {
    dir,
    git: (a: string[]) => execFileSync('git', a, { cwd: dir, env: testEnv(), encoding: 'utf8' }),
  } as unknown as TestRepo;
  assert.equal((await same(clone)).match(/rf-00000000\d0/g)?.length, 1);
  clone.git(['fetch', '-q', '--deepen', '2']);
  assert.equal((await same(clone)).match(/rf-00000000\d0/g)?.length, 3);
});
