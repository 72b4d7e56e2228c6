/**
 * `revtrail doctor --timing` with real git and real hooks: a team hook that sleeps a known time is
 * reported as the team's, revtrail's own process apart from it, under husky-style hooks and under
 * the real lefthook (when the suite's cached lefthook is there); nothing is left behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, runProcess } from '../kit/repo.js';
import { installedRepo, withRun, writeShim, type HookRepo } from '../kit/hooks.js';
import { hookTimes } from '../../lib/install/doctor-timing.js';

interface Step {
  total: number;
  git: number;
  revtrail: number;
  exit: number;
  hooks: Array<{
    hook: string;
    total: number;
    revtrail: number | null;
    team: number;
    manager: number | null;
    exit: number;
    forRevtrail: boolean;
  }>;
}
interface Timing {
  manager: string | null;
  runs: number;
  measured: { commit: string; parent: string; subject: string };
  commit: Step;
  push: Step;
}

/** The team's pre-commit: a lint-staged stand-in that takes 400 ms. */
const TEAM_MS = 400;

/** What doctor --timing must leave as it found it. */
function state(repo: HookRepo) {
  return {
    worktrees: repo.git(['worktree', 'list', '--porcelain']),
    refs: repo.git(['for-each-ref']),
    head: repo.git(['rev-parse', 'HEAD']),
    status: repo.git(['status', '--porcelain']),
    temp: readdirSync(tmpdir()).filter((f) => f.startsWith('revtrail-timing-')).length,
  };
}

function assertSplit(report: Timing, manager: string, teamMs: number) {
  assert.equal(report.manager, manager);
  const pre = report.commit.hooks.find((h) => h.hook === 'pre-commit');
  const msg = report.commit.hooks.find((h) => h.hook === 'commit-msg');
  const push = report.push.hooks.find((h) => h.hook === 'pre-push');
  assert.ok(pre && msg && push, JSON.stringify(report));
  // A manager's launch measured apart varies by a hundred ms on a busy machine: a quarter of slack.
  assert.ok(pre.team >= teamMs * 0.75, `the team's sleep is the team's: ${JSON.stringify(pre)}`);
  assert.equal(pre.revtrail, null, `revtrail has no part in the team's pre-commit: ${JSON.stringify(pre)}`);
  assert.ok(msg.revtrail !== null && msg.revtrail > 20, `commit-msg starts revtrail's process: ${JSON.stringify(msg)}`);
  assert.ok(
    push.revtrail !== null && push.revtrail > 20,
    `pre-push starts revtrail's process: ${JSON.stringify(push)}`,
  );
  assert.ok(pre.manager !== null, "the manager's launch at the team's hook is the manager's");
  // commit-msg and pre-push run for revtrail alone: without revtrail the manager would start nothing there.
  assert.deepEqual([msg.forRevtrail, msg.manager, msg.team, msg.revtrail], [true, null, 0, msg.total]);
  assert.deepEqual([push.forRevtrail, push.manager], [true, null]);
  assert.equal(pre.forRevtrail, false);
  assert.ok(report.commit.revtrail >= msg.revtrail);
  assert.ok(Math.abs(pre.total - pre.team - (pre.manager ?? 0)) < 1, 'the parts add up to the hook');
  // Medians of separate runs: the commit's median need not be the sum of its hooks' medians.
  assert.ok(report.commit.total >= Math.max(pre.total, msg.total), 'the commit holds its hooks');
  assert.equal(report.commit.exit, 0);
  assert.equal(report.push.exit, 0);
}

test('doctor --timing under husky-style hooks: the team pre-commit is the team part, revtrail apart, the manager launch named; nothing left behind', async () => {
  const repo = await installedRepo();
  repo.write('.husky/pre-commit', `sleep ${TEAM_MS / 1000}\n`);
  chmodSync(join(repo.dir, '.husky/pre-commit'), 0o755);
  repo.commit('chore: the team lints staged files');
  repo.commit('feat: a change', { 'src/app.js': 'export const answer = 42;\n' });
  const before = state(repo);
  const run = await repo.cli(['doctor', '--timing', '--json', '--runs', '1']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Timing;
  assert.equal(report.measured.subject, 'feat: a change');
  assertSplit(report, 'husky', TEAM_MS);
  assert.deepEqual(state(repo), before, 'no worktree, ref, file or temp folder left');

  const text = await repo.cli(['doctor', '--timing', '--runs', '1']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^ {2}git commit$/m);
  assert.match(text.stdout, /^ {4}pre-commit +\d+ ms +- +\d+ ms +\d+ ms$/m);
  assert.match(text.stdout, /^ {4}commit-msg +\d+ ms +\d+ ms +0 ms +-$/m);
  assert.match(
    text.stdout,
    /^ {2}husky runs prepare-commit-msg, commit-msg, post-commit and pre-push for revtrail alone: its launch there is in revtrail's part$/m,
  );
  assert.match(text.stdout, /^ {2} +total +revtrail +team +husky$/m);
  assert.match(text.stdout, /^revtrail adds \d+ ms to this commit \(\d+% of it\) and \d+ ms to its push \(\d+%\)\.$/m);
  assert.deepEqual(state(repo), before);
});

test('doctor --timing on a root commit: exit 2 with what to name', async () => {
  const repo = withRun(makeRepo());
  repo.commit('first');
  const run = await repo.cli(['doctor', '--timing']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /HEAD\^ is not a commit with a parent/);
});

test('hookTimes reads the top git process only: a hook that runs git does not count twice', () => {
  const lines = [
    { event: 'child_start', sid: 'a', child_id: 0, child_class: 'hook', hook_name: 'commit-msg' },
    { event: 'child_start', sid: 'a/b', child_id: 0, child_class: 'hook', hook_name: 'pre-push' },
    { event: 'child_exit', sid: 'a/b', child_id: 0, t_rel: 9, code: 0 },
    { event: 'child_exit', sid: 'a', child_id: 0, t_rel: 0.25, code: 1 },
  ];
  const times = hookTimes(lines.map((l) => JSON.stringify(l)).join('\n'));
  assert.deepEqual([...times], [['commit-msg', { ms: 250, code: 1 }]]);
});

/** The lefthook test/install/managers.test.ts installs into the suite's cache; this test only uses it. */
const LEFTHOOK = join(tmpdir(), 'revtrail-pm-clients', 'lefthook_2.2.4', 'node_modules', '.bin', 'lefthook');

test('doctor --timing under lefthook: the team command is the team part, lefthook its launch, revtrail its scripts', async (t) => {
  if (!existsSync(LEFTHOOK)) return t.skip(`no lefthook at ${LEFTHOOK} (test/install/managers.test.ts installs it)`);
  const env = { LEFTHOOK_BIN: LEFTHOOK, LEFTHOOK_QUIET: 'meta,summary,success' };
  const repo = withRun(makeRepo());
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  repo.write('lefthook.yml', `pre-commit:\n  commands:\n    lint:\n      run: sleep ${(2 * TEAM_MS) / 1000}\n`);
  repo.commit('chore: start');
  const installed = await repo.cli(['install', '--lefthook']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.equal((await runProcess(LEFTHOOK, ['install'], { cwd: repo.dir, env })).code, 0);
  repo.commit('chore: revtrail in lefthook', {}, { env });
  repo.commit('feat: a change', { 'src/app.js': 'export const answer = 42;\n' }, { env });
  const before = state(repo);
  // lefthook's launch varies by tens of ms on a busy machine: the median of three.
  const run = await repo.cli(['doctor', '--timing', '--json', '--runs', '3'], { env });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Timing;
  assertSplit(report, 'lefthook', 2 * TEAM_MS);
  assert.deepEqual(state(repo), before);
});
