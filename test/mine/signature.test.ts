/**
 * The mine cache's signature from one `git rev-parse` (lib/mine/cache.ts signatureQuestion): it
 * equals what the separate calls (rev-parse of the arguments, HEAD peeled, for-each-ref of the
 * replace refs) give in every state, it still changes with what they see, and a cached re-run
 * starts one git process in all (docs/mining.md "Start-up").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signatureOf, signatureQuestion, type Signature } from '../../lib/mine/cache.js';
import { runCli, tempDir, throwawayRepos, type TestRepo } from '../kit/repo.js';
import { clock, message, row } from '../kit/mine.js';

// The shape hashes replace refs only when git would honour them (signatureOf reads this).
delete process.env.GIT_NO_REPLACE_OBJECTS;

const repos = throwawayRepos();

function history(r: TestRepo): string[] {
  const t = clock();
  const shas = [1, 2, 3].map((i) =>
    r.commit(message(`c${i}`, [row({ id: `rf-00000000${i}0` })]), { [`f${i}.txt`]: `${i}\n` }, { env: t.next() }),
  );
  r.git(['branch', 'side', shas[0]!]);
  r.git(['tag', '-a', 'v1', '-m', 'tag', shas[1]!]);
  return shas;
}

/** The one-call signature, and the separate calls' (an answer that reads as nothing makes signatureOf ask them). */
async function both(r: TestRepo, args: string[]): Promise<Signature> {
  const common = join(r.dir, '.git');
  const one = await signatureOf(r.dir, common, args);
  const separate = await signatureOf(r.dir, common, args, []);
  assert.deepEqual(one, separate, `signature of ${args.join(' ')}`);
  return one;
}

const ARGS = [
  ['HEAD'],
  ['--all'],
  ['--all', 'side'],
  ['main', 'side'],
  ['side..main'],
  ['side...main'],
  ['HEAD^@'],
  ['v1'],
  ['no-such-revision'],
  ['HEAD', 'no-such-revision', 'side'],
  ['f1.txt'],
];

test('one rev-parse gives the separate calls’ signature: revisions, ranges, tags, --all, names that resolve to nothing', async () => {
  const r = repos();
  const [c1, c2, c3] = history(r);
  for (const args of ARGS) assert.ok(signatureQuestion(args), args.join(' '));
  assert.deepEqual((await both(r, ['main', 'side'])).tips, [c3, c1]);
  for (const args of ARGS) await both(r, args);
  // Detached HEAD (on a tag's commit), and an unborn branch: --all walks HEAD, when it is a commit.
  r.git(['checkout', '-q', '--detach', 'v1']);
  assert.deepEqual((await both(r, ['--all'])).tips.at(-1), c2);
  r.git(['checkout', '-q', '--orphan', 'empty']);
  for (const args of ARGS) await both(r, args);
  assert.equal((await both(r, ['HEAD'])).tips.length, 0);
});

test('one rev-parse still sees every replace ref: added, nested, pointed elsewhere, under GIT_REPLACE_REF_BASE', async () => {
  const r = repos();
  const [c1, c2, c3] = history(r);
  const plain = await both(r, ['HEAD']);
  assert.equal(plain.shape, '');
  r.git(['replace', c2!, c3!]);
  const one = await both(r, ['HEAD']);
  assert.notEqual(one.shape, '');
  r.git(['update-ref', `refs/replace/nested/${c1}`, c3!]);
  const nested = await both(r, ['--all']);
  // Same name, another replacement: the names alone would not tell.
  r.git(['replace', '-f', c2!, c1!]);
  const moved = await both(r, ['HEAD']);
  assert.notEqual(moved.shape, one.shape);
  assert.notEqual((await both(r, ['--all'])).shape, nested.shape);
  process.env.GIT_REPLACE_REF_BASE = 'refs/other/';
  try {
    assert.equal((await both(r, ['HEAD'])).shape, '');
    r.git(['update-ref', `refs/other/${c2}`, c3!]);
    assert.notEqual((await both(r, ['HEAD'])).shape, '');
  } finally {
    delete process.env.GIT_REPLACE_REF_BASE;
  }
});

test('an option among the arguments is asked the separate way (it could change how rev-parse prints what follows)', () => {
  assert.equal(signatureQuestion(['--symbolic', 'HEAD']), null);
  assert.equal(signatureQuestion(['--branches']), null);
  assert.ok(signatureQuestion(['--all', 'main']));
});

test('a cached re-run starts one git process and prints what --no-cache prints', async () => {
  const r = repos();
  history(r);
  // A git that writes down each time it is started, then runs the real one.
  const bin = tempDir('revtrail-git-log-');
  const log = join(bin, 'calls');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nPATH='${process.env.PATH}' exec git "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}` };
  for (const args of [[], ['--all'], ['side..main']]) {
    const truth = await runCli(['mine', '--no-cache', ...args], { cwd: r.dir });
    await runCli(['mine', ...args], { cwd: r.dir });
    writeFileSync(log, '');
    const cached = await runCli(['mine', ...args], { cwd: r.dir, env: { ...env, REVTRAIL_DEBUG: '1' } });
    assert.equal(cached.code, 0, cached.stderr);
    assert.match(cached.stderr, /mine cache: replay/);
    assert.equal(cached.stdout, truth.stdout, `mine ${args.join(' ')}`);
    assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean), ['rev-parse'], `mine ${args.join(' ')}`);
  }
});
