/**
 * `revtrail trust` (docs/trust.md): a clone's configured reviewer program runs only once the
 * person trusted that exact command. A real clone of a repository whose configuration names a
 * program that leaves a marker file: the marker says whether it ran.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, testEnv, throwawayRepos, type CliRun } from '../kit/repo.js';

const repos = throwawayRepos();
const scratch = tempDir();
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const REVIEWER = [
  "import { appendFileSync, readFileSync } from 'node:fs';",
  'readFileSync(0);',
  "if (process.env.MARKER) appendFileSync(process.env.MARKER, JSON.stringify(process.argv.slice(2)) + '\\n');",
  "process.stdout.write(JSON.stringify({ summary: 'fine', findings: [] }));",
  '',
].join('\n');

/** A repository whose config names a reviewer.mjs of its own, cloned the way a person gets someone else's code. */
function clone(name: string) {
  const origin = repos();
  origin.commit('start', {
    'reviewer.mjs': REVIEWER,
    'revtrail.config.json': JSON.stringify({ reviewer: { command: ['node', 'reviewer.mjs'] } }),
    'src/a.js': 'export const a = 1;\n',
  });
  const dir = join(scratch, name);
  execFileSync('git', ['clone', '-q', origin.dir, dir], { env: testEnv() });
  const marker = join(scratch, `${name}.marker`);
  const env = { MARKER: marker, REVTRAIL_TRUST_FILE: join(scratch, `${name}-trust.json`) };
  const git = (args: string[]) => execFileSync('git', args, { cwd: dir, env: testEnv(), encoding: 'utf8' });
  return {
    dir,
    env,
    git,
    cli: (args: string[], cwd = dir): Promise<CliRun> => runCli(args, { cwd, env }),
    /** How many times the program ran since the last call (and forgets). */
    runs(): number {
      if (!existsSync(marker)) return 0;
      const n = readFileSync(marker, 'utf8').split('\n').filter(Boolean).length;
      rmSync(marker);
      return n;
    },
  };
}

const NOT_TRUSTED =
  /^warning: reviewer program node reviewer\.mjs \(reviewer\.command in revtrail\.config\.json\) is not trusted in this clone: not run; check it, then run `revtrail trust` to allow it$/m;

test("a cloned configuration's reviewer program does not run until trusted, in review, --range and the commit-msg hook", async () => {
  const c = clone('before');
  c.git(['commit', '-q', '--allow-empty', '-m', 'x']); // something for --range
  execFileSync('sh', ['-c', "printf 'debugger;\\n' >> src/a.js"], { cwd: c.dir });

  const review = await c.cli(['review']);
  assert.equal(review.code, 1, review.stderr); // the rule finding (debugger) still decides the exit code
  assert.match(review.stdout, /builtin\/[a-z-]+:debugger/);
  assert.match(review.stderr, NOT_TRUSTED);
  assert.equal(review.stderr.split('\n').filter((l) => /not trusted/.test(l)).length, 1, 'one warning line');

  c.git(['add', '-A']);
  const staged = await c.cli(['review', '--staged']);
  assert.match(staged.stderr, NOT_TRUSTED);
  c.git(['commit', '-q', '-m', 'change', '--no-verify']);
  const range = await c.cli(['review', '--range', 'origin/HEAD..HEAD']);
  assert.equal(range.code, 1, range.stderr);
  assert.match(range.stderr, NOT_TRUSTED);

  execFileSync('sh', ['-c', "printf 'export const b = 2;\\n' > src/b.js && git add -A && printf 'msg\\n' > MSG"], {
    cwd: c.dir,
  });
  const hook = await c.cli(['hook', 'commit-msg', 'MSG']);
  assert.equal(hook.code, 0, hook.stderr);
  assert.match(hook.stderr, /not trusted in this clone: not run; check it, then run `revtrail trust`/);
  assert.equal(c.runs(), 0, 'the program never ran');
});

test('revtrail trust records the exact command outside the work tree; then it runs, everywhere in the clone', async () => {
  const c = clone('after');
  execFileSync('sh', ['-c', "printf 'export const b = 2;\\n' >> src/a.js"], { cwd: c.dir });
  const status = c.git(['status', '--porcelain']);

  const trust = await c.cli(['trust']);
  assert.equal(trust.code, 0, trust.stderr);
  assert.match(trust.stdout, /^trusted in this clone \(.*\.git\): node reviewer\.mjs$/m);
  assert.match(trust.stdout, /after-trust\.json/);
  assert.equal(c.git(['status', '--porcelain']), status, 'nothing written in the work tree');
  const store = JSON.parse(readFileSync(c.env.REVTRAIL_TRUST_FILE, 'utf8')) as {
    clones: Record<string, { command: string[] }>;
  };
  assert.deepEqual(
    Object.values(store.clones).map((e) => e.command),
    [['node', 'reviewer.mjs']],
  );
  assert.equal((await c.cli(['trust'])).stdout.startsWith('already trusted'), true);

  const review = await c.cli(['review']);
  assert.equal(review.code, 0, review.stderr);
  assert.doesNotMatch(review.stderr, /not trusted/);
  assert.equal(c.runs(), 1);

  // A linked worktree is the same clone.
  const wt = join(scratch, 'after-wt');
  c.git(['worktree', 'add', '-q', wt]);
  execFileSync('sh', ['-c', "printf 'export const c = 3;\\n' >> src/a.js"], { cwd: wt });
  const there = await c.cli(['review'], wt);
  assert.equal(there.code, 0, there.stderr);
  assert.equal(c.runs(), 1);

  const revoke = await c.cli(['trust', '--revoke']);
  assert.match(revoke.stdout, /^no longer trusted in this clone \(.*\): node reviewer\.mjs$/m);
  const again = await c.cli(['review']);
  assert.match(again.stderr, NOT_TRUSTED);
  assert.equal(c.runs(), 0);
  assert.match((await c.cli(['trust', '--revoke'])).stdout, /^nothing was trusted in this clone/);
});

test('a changed command needs trusting again; --reviewer on the command line runs untrusted', async () => {
  const c = clone('changed');
  assert.equal((await c.cli(['trust'])).code, 0);
  // A pull that changes the command (or its arguments) is a new command.
  execFileSync(
    'sh',
    [
      '-c',
      `printf '%s' '${JSON.stringify({ reviewer: { command: ['node', 'reviewer.mjs', '--all'] } })}' > revtrail.config.json`,
    ],
    { cwd: c.dir },
  );
  const review = await c.cli(['review']);
  assert.equal(review.code, 0, review.stderr);
  assert.match(
    review.stderr,
    /reviewer program node reviewer\.mjs --all .* is not the command trusted in this clone \(it changed\): not run; check it, then run `revtrail trust`/,
  );
  assert.equal(c.runs(), 0);

  const chosen = await c.cli(['review', '--reviewer', 'node reviewer.mjs --mine']);
  assert.equal(chosen.code, 0, chosen.stderr);
  assert.doesNotMatch(chosen.stderr, /trust/);
  assert.equal(c.runs(), 1);

  const retrust = await c.cli(['trust']);
  assert.match(
    retrust.stdout,
    /^trusted in this clone .*: node reviewer\.mjs --all\n\(replaces the command trusted before: node reviewer\.mjs\)$/m,
  );
  await c.cli(['review']);
  assert.equal(c.runs(), 1);
});

test('trust with no reviewer.command says there is nothing to trust (exit 2)', async () => {
  const r = repos();
  r.commit('start', { 'revtrail.config.json': '{}' });
  const run = await runCli(['trust'], { cwd: r.dir });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^revtrail: .*revtrail\.config\.json names no reviewer\.command and no reviewer\.model\.endpoint off this machine: nothing to trust$/m,
  );
});
