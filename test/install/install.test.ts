import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { makeRepo, projectRoot, runCli, runProcess, tempDir } from '../kit/repo.js';
import { writeShim, withRun } from '../kit/hooks.js';

const cleanups: Array<() => void> = [];
after(() =>
  cleanups.forEach((c) => {
    c();
  }),
);

function fresh(dir?: string) {
  const repo = withRun(makeRepo(dir ? { dir } : {}));
  cleanups.push(() => repo.cleanup());
  return repo;
}

const hooksPath = (repo: { git: (a: string[]) => string }) => {
  try {
    return repo.git(['config', '--get', 'core.hooksPath']).trim();
  } catch {
    return null;
  }
};

test('install: husky sets core.hooksPath, the hooks are written, prepare is added; uninstall restores every byte', async () => {
  const repo = fresh();
  writeShim(repo.dir);
  const pkg = '{\n    "name": "app",\n    "version": "1.0.0"\n}\n';
  repo.write('package.json', pkg);
  const run = await repo.cli(['install']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /core\.hooksPath = \.husky\/_/);
  assert.match(run.stdout, /created \.husky\/commit-msg/);
  assert.match(run.stdout, /created \.husky\/pre-push/);
  assert.match(run.stdout, /added "prepare": "revtrail install --from-prepare \|\| true" to package\.json/);
  assert.match(run.stdout, /created \.husky\/post-checkout/);
  assert.match(run.stdout, /Undo: revtrail uninstall/);
  assert.equal(hooksPath(repo), '.husky/_');
  assert.ok(existsSync(join(repo.dir, '.husky', '_', 'h')), "husky's runner is installed");
  const hook = readFileSync(join(repo.dir, '.husky', 'commit-msg'), 'utf8');
  assert.match(hook, /^# >>> revtrail >>>\n/);
  assert.match(hook, /hook commit-msg "\$@"/);
  assert.doesNotMatch(hook, /npx/);
  assert.equal(
    JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8')).scripts.prepare,
    'revtrail install --from-prepare || true',
  );
  assert.match(readFileSync(join(repo.dir, 'package.json'), 'utf8'), /^ {4}"scripts": \{$/m, 'indentation kept');

  const again = await repo.cli(['install']);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /\.husky\/commit-msg is up to date/);
  assert.equal(readFileSync(join(repo.dir, '.husky', 'commit-msg'), 'utf8'), hook, 'idempotent');

  const un = await repo.cli(['uninstall']);
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /removed \.husky\/commit-msg/);
  assert.match(un.stdout, /core\.hooksPath unset/);
  assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), pkg);
  assert.equal(hooksPath(repo), null);
  assert.equal(existsSync(join(repo.dir, '.husky')), false);
  assert.equal(existsSync(join(repo.dir, '.git', 'revtrail', 'install.json')), false);
  const twice = await repo.cli(['uninstall']);
  assert.equal(twice.code, 0);
  assert.match(twice.stdout, /nothing to uninstall/);
});

test('an existing user hook keeps its lines and gains the marked block; uninstall takes out exactly the block', async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.git(['config', 'core.hooksPath', '.husky/_']); // husky was already set up
  const commitMsg = '#!/usr/bin/env sh\nnpx --no -- commitlint --edit "$1"\nexit 0\n';
  const prePush = 'git lfs pre-push "$@"\n';
  repo.write('.husky/commit-msg', commitMsg);
  repo.write('.husky/pre-push', prePush);
  chmodSync(join(repo.dir, '.husky', 'commit-msg'), 0o644);
  chmodSync(join(repo.dir, '.husky', 'pre-push'), 0o750);
  repo.write('.husky/pre-commit', 'npm test\n');
  repo.write('package.json', '{"name":"x","scripts":{"prepare":"husky","test":"node t.js"}}');
  const run = await repo.cli(['install']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /added the revtrail block to \.husky\/commit-msg/);
  const cm = readFileSync(join(repo.dir, '.husky', 'commit-msg'), 'utf8');
  // commit-msg: after the user's lines (commitlint sees the message first), before the final exit.
  assert.ok(cm.startsWith('#!/usr/bin/env sh\nnpx --no -- commitlint --edit "$1"\n\n# >>> revtrail >>>\n'), cm);
  assert.ok(cm.endsWith('# <<< revtrail <<<\nexit 0\n'), cm);
  // pre-push: first, so it reads the ref lines before git lfs does (and replays them).
  const pp = readFileSync(join(repo.dir, '.husky', 'pre-push'), 'utf8');
  assert.ok(pp.startsWith('# >>> revtrail >>>\n'));
  assert.ok(pp.endsWith('# <<< revtrail <<<\n\ngit lfs pre-push "$@"\n'), pp);
  const mode = (file: string) => statSync(join(repo.dir, '.husky', file)).mode & 0o777;
  assert.equal(mode('commit-msg'), 0o755, 'made executable for git');
  assert.equal(mode('pre-push'), 0o750, 'already executable: left as it was');
  assert.equal((await repo.cli(['install'])).code, 0);
  assert.equal(readFileSync(join(repo.dir, '.husky', 'commit-msg'), 'utf8'), cm, 'no second block');

  const un = await repo.cli(['uninstall']);
  assert.equal(un.code, 0);
  assert.equal(readFileSync(join(repo.dir, '.husky', 'commit-msg'), 'utf8'), commitMsg);
  assert.equal(readFileSync(join(repo.dir, '.husky', 'pre-push'), 'utf8'), prePush);
  assert.equal(mode('commit-msg'), 0o644, 'uninstall gives the file its mode back');
  assert.equal(mode('pre-push'), 0o750);
  assert.equal(
    readFileSync(join(repo.dir, 'package.json'), 'utf8'),
    '{"name":"x","scripts":{"prepare":"husky","test":"node t.js"}}',
  );
  assert.equal(hooksPath(repo), '.husky/_', 'it was set before install');
  assert.ok(existsSync(join(repo.dir, '.husky', '_', 'h')), "husky stays for the user's hooks");
});

test("core.hooksPath pointing elsewhere: install refuses; --force installs, that folder's hooks still run (chained), uninstall restores it", async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  repo.write('tools/githooks/pre-commit', '#!/bin/sh\necho team-pre-commit >> "$(git rev-parse --git-dir)/ran"\n');
  chmodSync(join(repo.dir, 'tools/githooks/pre-commit'), 0o755);
  repo.git(['config', 'core.hooksPath', 'tools/githooks']);
  const refused = await repo.cli(['install']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /core\.hooksPath is already set to "tools\/githooks"/);
  assert.match(refused.stderr, /--force/);
  assert.equal(existsSync(join(repo.dir, '.husky')), false, 'nothing written');
  const forced = await repo.cli(['install', '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(hooksPath(repo), '.husky/_');
  assert.match(
    forced.stdout,
    /\.husky\/pre-commit also runs tools\/githooks\/pre-commit, as git did before \(chain block\)/,
  );
  assert.match(
    readFileSync(join(repo.dir, '.husky/pre-commit'), 'utf8'),
    /revtrail_prev='tools\/githooks\/pre-commit'/,
  );
  repo.write('a.txt', 'a\n');
  repo.git(['add', 'a.txt']);
  const committed = await repo.run(['commit', '-q', '-m', 'feat: a']);
  assert.equal(committed.code, 0, committed.stderr);
  assert.equal(
    readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'),
    'team-pre-commit\n',
    'the team hook ran through husky',
  );
  const un = await repo.cli(['uninstall']);
  assert.equal(un.code, 0);
  assert.match(un.stdout, /core\.hooksPath = tools\/githooks \(restored\)/);
  assert.match(un.stdout, /removed \.husky\/pre-commit/);
  assert.equal(hooksPath(repo), 'tools/githooks');
});

test('hooks already in .git/hooks keep running after install (a chain block each, the team check before the trailers), and git runs them itself again after uninstall', async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  repo.commit('chore: start');
  const hooks = join(repo.dir, '.git', 'hooks');
  writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\necho own-pre-commit >> "$(git rev-parse --git-dir)/ran"\n', {
    mode: 0o755,
  });
  writeFileSync(
    join(hooks, 'commit-msg'),
    '#!/bin/sh\ngrep -q "^feat" "$1" || { echo "own commit-msg: not a feat" >&2; exit 1; }\ngrep -c Review-Finding "$1" >> "$(git rev-parse --git-dir)/ran" || true\n',
    { mode: 0o755 },
  );
  writeFileSync(join(hooks, 'pre-push.sample'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const installed = await repo.cli(['install']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /\.husky\/pre-commit also runs \.git\/hooks\/pre-commit/);
  assert.match(installed.stdout, /\.husky\/commit-msg also runs \.git\/hooks\/commit-msg/);
  assert.doesNotMatch(installed.stdout, /pre-push also runs/, 'a .sample is not a hook');
  assert.match(installed.stdout, /Commit [^\n]*\.husky\/pre-commit/);
  repo.write('a.js', 'debugger;\n');
  repo.git(['add', 'a.js']);
  const bad = await repo.run(['commit', '-q', '-m', 'wip']);
  assert.equal(bad.code, 1, 'the team commit-msg still rejects');
  assert.match(bad.stderr, /own commit-msg: not a feat/);
  const good = await repo.run(['commit', '-q', '-m', 'feat: a']);
  assert.equal(good.code, 0, good.stderr);
  assert.equal(repo.trailers().length, 1, 'revtrail recorded the finding');
  // pre-commit ran twice (both commits), commit-msg saw the message before revtrail's trailer.
  assert.equal(readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'), 'own-pre-commit\nown-pre-commit\n0\n');
  const doctor = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as { checks: Array<{ check: string }> };
  assert.ok(!doctor.checks.some((c) => c.check === 'chain'), 'every .git/hooks hook is chained');
  writeFileSync(join(hooks, 'pre-rebase'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const later = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
    checks: Array<{ check: string; level: string; message: string; fix?: string }>;
  };
  const chain = later.checks.find((c) => c.check === 'chain');
  assert.equal(chain?.level, 'fail', 'a hook added to .git/hooks later is named');
  assert.match(chain!.message, /\.git\/hooks\/pre-rebase: git no longer runs this hook/);
  assert.match(chain!.fix!, /^revtrail install/);
  const again = await repo.cli(['install']);
  assert.match(again.stdout, /\.husky\/pre-rebase also runs \.git\/hooks\/pre-rebase/);
  assert.doesNotMatch(again.stdout, /pre-commit also runs/, 'chained already: not said again');
  const fixed = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as { checks: Array<{ check: string }> };
  assert.ok(!fixed.checks.some((c) => c.check === 'chain'));
  const un = await repo.cli(['uninstall']);
  assert.equal(un.code, 0, un.stderr);
  assert.equal(hooksPath(repo), null);
  assert.equal(existsSync(join(repo.dir, '.husky')), false);
  repo.write('b.js', 'debugger;\n');
  repo.git(['add', 'b.js']);
  assert.equal((await repo.run(['commit', '-q', '-m', 'feat: b'])).code, 0);
  assert.equal(repo.trailers().length, 0, 'revtrail is gone');
  assert.equal(
    readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'),
    'own-pre-commit\nown-pre-commit\n0\nown-pre-commit\n0\n',
  );
});

test("a tool that overwrites husky's runner: post-commit says so in one line, doctor names it, install --repair moves the script to .git/hooks and both run", async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  assert.equal((await repo.cli(['install'])).code, 0);
  repo.commit('chore: start');
  // A setup script of the team's writes its commit-msg hook into core.hooksPath.
  writeFileSync(join(repo.dir, '.husky/_/commit-msg'), '#!/bin/sh\necho team-msg >> .git/ran\n', { mode: 0o755 });
  repo.write('a.js', 'debugger;\n');
  repo.git(['add', 'a.js']);
  const unseen = await repo.run(['commit', '-q', '-m', 'feat: a']);
  assert.equal(unseen.code, 0);
  assert.match(
    unseen.stderr,
    /revtrail: \.husky\/_\/commit-msg is no longer husky's runner .* revtrail install --repair/,
  );
  assert.deepEqual(repo.trailers(), [], 'not reviewed: the line above says so');
  const doctor = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
    checks: Array<{ check: string; level: string; fix?: string }>;
  };
  assert.match(
    doctor.checks.find((c) => c.check === 'runner' && c.level === 'fail')?.fix ?? '',
    /^revtrail install --repair/,
  );
  const repaired = await repo.cli(['install', '--repair']);
  assert.equal(repaired.code, 0, repaired.stderr);
  assert.match(repaired.stdout, /moved \.husky\/_\/commit-msg to \.git\/hooks\/commit-msg/);
  assert.match(repaired.stdout, /\.husky\/commit-msg also runs \.git\/hooks\/commit-msg/);
  repo.write('b.js', 'debugger;\n');
  repo.git(['add', 'b.js']);
  const seen = await repo.run(['commit', '-q', '-m', 'feat: b']);
  assert.equal(seen.code, 0, seen.stderr);
  assert.doesNotMatch(seen.stderr, /no longer husky's runner/);
  assert.equal(repo.trailers().length, 1, 'reviewed again');
  assert.equal(
    readFileSync(join(repo.dir, '.git/ran'), 'utf8'),
    'team-msg\nteam-msg\n',
    "the team's script still runs",
  );
});

test('husky 8 style core.hooksPath .husky is accepted and restored', async () => {
  const repo = fresh();
  repo.git(['config', 'core.hooksPath', '.husky']);
  assert.equal((await repo.cli(['install'])).code, 0);
  assert.equal(hooksPath(repo), '.husky/_');
  await repo.cli(['uninstall']);
  assert.equal(hooksPath(repo), '.husky');
});

test('from a subfolder, with package.json and the CLI in frontend/, in a path with spaces', async () => {
  const parent = tempDir('revtrail spaces ');
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const repo = fresh(join(parent, 'my repo'));
  mkdirSync(join(repo.dir, 'frontend', 'src'), { recursive: true });
  writeShim(join(repo.dir, 'frontend'));
  repo.write('frontend/package.json', '{"name":"web"}\n');
  repo.write('.gitignore', 'node_modules/\n');
  const run = await runCli(['install'], { cwd: join(repo.dir, 'frontend', 'src') });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /the hooks run frontend\/node_modules\/\.bin\/revtrail/);
  assert.match(run.stdout, /frontend\/package\.json has no "prepare"/);
  assert.equal(
    readFileSync(join(repo.dir, 'frontend', 'package.json'), 'utf8'),
    '{"name":"web"}\n',
    'only a top-level package.json is edited',
  );
  assert.match(
    readFileSync(join(repo.dir, '.husky', 'commit-msg'), 'utf8'),
    /revtrail_bin='frontend\/node_modules\/\.bin\/revtrail'/,
  );
  // The hooks find that CLI: a commit with a finding gets its trailer.
  repo.write('frontend/src/a.js', 'debugger;\n');
  repo.git(['add', '-A']);
  const commit = await repo.run(['commit', '-q', '-m', 'feat: a']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(repo.trailers().join('\n'), /^rf-[0-9a-f]{10},frontend\/src\/a\.js,1,builtin\/[\w-]+:debugger,/);
});

test('in a linked worktree: hooksPath is shared config, .husky lives in that work tree', async () => {
  const repo = fresh();
  repo.commit('first');
  const wtParent = tempDir();
  const wt = join(wtParent, 'wt two');
  cleanups.push(() => rmSync(wtParent, { recursive: true, force: true }));
  repo.git(['worktree', 'add', '-q', '-b', 'two', wt]);
  writeShim(wt);
  const run = await runCli(['install'], { cwd: wt });
  assert.equal(run.code, 0, run.stderr);
  assert.ok(existsSync(join(wt, '.husky', '_', 'h')));
  assert.ok(existsSync(join(wt, '.husky', 'commit-msg')));
  assert.equal(existsSync(join(repo.dir, '.husky')), false);
  assert.equal(hooksPath(repo), '.husky/_');
  assert.ok(existsSync(join(repo.dir, '.git', 'revtrail', 'install.json')), 'the record is in the common dir');
  const un = await runCli(['uninstall'], { cwd: wt });
  assert.equal(un.code, 0);
  assert.equal(existsSync(join(wt, '.husky')), false);
  assert.equal(hooksPath(repo), null);
});

test('HUSKY=0 installs nothing and says so', async () => {
  const repo = fresh();
  const run = await repo.cli(['install'], { env: { HUSKY: '0' } });
  assert.equal(run.code, 0);
  assert.match(run.stderr, /HUSKY=0/);
  assert.equal(existsSync(join(repo.dir, '.husky')), false);
  assert.equal(hooksPath(repo), null);
});

test('outside a repository install is an input error (exit 2)', async () => {
  const dir = tempDir();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const run = await runCli(['install'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /not inside a git work tree/);
});

test('uninstall in a fresh clone (no record) removes the blocks by their markers', async () => {
  const repo = fresh();
  writeShim(repo.dir);
  assert.equal((await repo.cli(['install'])).code, 0);
  rmSync(join(repo.dir, '.git', 'revtrail'), { recursive: true });
  writeFileSync(
    join(repo.dir, '.husky', 'pre-push'),
    'echo mine\n\n' + readFileSync(join(repo.dir, '.husky', 'pre-push'), 'utf8'),
  );
  const un = await repo.cli(['uninstall']);
  assert.equal(un.code, 0);
  assert.equal(existsSync(join(repo.dir, '.husky', 'commit-msg')), false);
  assert.equal(readFileSync(join(repo.dir, '.husky', 'pre-push'), 'utf8'), 'echo mine\n');
  assert.equal(hooksPath(repo), '.husky/_', 'without a record, core.hooksPath is not touched');
  assert.ok(statSync(join(repo.dir, '.husky', '_')).isDirectory());
});

test("uninstall in a teammate's clone (set up by the prepare script, no record): the blocks, revtrail's prepare and husky's core.hooksPath go, so git runs the clone's own hooks again", async () => {
  const team = fresh();
  writeShim(team.dir);
  team.write('.gitignore', 'node_modules/\n');
  team.write('package.json', '{\n  "name": "app",\n  "private": true\n}\n');
  assert.equal((await team.cli(['install'])).code, 0);
  team.git(['add', '-A']);
  team.git(['commit', '-q', '-m', 'chore: revtrail'], { env: { REVTRAIL: '0' } });
  const dir = tempDir('revtrail-teammate-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('git', ['clone', '-q', team.dir, join(dir, 'app')]);
  const mate = withRun(makeRepo({ dir: join(dir, 'app') })); // git init again in a clone changes nothing
  writeShim(mate.dir);
  writeFileSync(join(mate.dir, '.git/hooks/pre-commit'), '#!/bin/sh\necho mine >> .git/ran\n', { mode: 0o755 });
  const prepared = await mate.cli(['install', '--from-prepare']); // what npm install runs
  assert.equal(prepared.code, 0);
  assert.match(prepared.stderr, /so \.git\/hooks\/pre-commit no longer runs here: revtrail install chains it/);
  assert.equal(hooksPath(mate), '.husky/_');
  const un = await mate.cli(['uninstall']);
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /removed "prepare": "revtrail install --from-prepare \|\| true" from package\.json/);
  assert.match(un.stdout, /core\.hooksPath unset/);
  assert.equal(hooksPath(mate), null);
  assert.equal(readFileSync(join(mate.dir, 'package.json'), 'utf8'), '{\n  "name": "app",\n  "private": true\n}\n');
  mate.write('a.txt', 'a\n');
  mate.git(['add', 'a.txt']);
  assert.equal((await mate.run(['commit', '-q', '-m', 'feat: a'])).code, 0);
  assert.equal(readFileSync(join(mate.dir, '.git/ran'), 'utf8'), 'mine\n', "the clone's own hook runs again");
});

test("a worktree added after install: post-checkout copies husky's runner there, and its commits are reviewed with the main worktree's CLI", async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  assert.equal((await repo.cli(['install'])).code, 0);
  repo.commit('chore: hooks');
  const parent = tempDir();
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const wt = join(parent, 'later');
  const added = await repo.run(['worktree', 'add', '-q', '-b', 'later', wt]);
  assert.equal(added.code, 0, added.stderr);
  assert.match(added.stderr, /revtrail: hooks set up in this new worktree/);
  assert.ok(existsSync(join(wt, '.husky', '_', 'h')));
  // No install of its own: the main worktree's CLI, linked where the hooks and npx look first.
  assert.match(added.stderr, /revtrail: node_modules\/\.bin\/revtrail here runs the main worktree's revtrail/);
  assert.equal(
    realpathSync(join(wt, 'node_modules', '.bin', 'revtrail')),
    realpathSync(join(repo.dir, 'node_modules', '.bin', 'revtrail')),
  );
  // npx finds it and never asks the registry (a dead one here: asking it is an error, not a hang).
  const offline = {
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_fetch_retries: '0',
    npm_config_cache: tempDir(),
    npm_config_yes: 'true',
  };
  const npx = await runProcess('npx', ['revtrail', '--version'], { cwd: wt, env: offline, timeoutMs: 60_000 });
  assert.deepEqual([npx.code, npx.stdout.trim()], [0, '0.1.0'], npx.stderr);
  const gone = join(parent, 'without-link');
  assert.equal(
    (await repo.run(['worktree', 'add', '-q', '-b', 'without-link', gone], { env: { REVTRAIL: '0' } })).code,
    0,
  );
  const asks = await runProcess('npx', ['revtrail', '--version'], { cwd: gone, env: offline, timeoutMs: 60_000 });
  assert.notEqual(asks.code, 0, 'without the link npx asks the registry');
  assert.match(asks.stderr, /ECONNREFUSED|127\.0\.0\.1:9/);
  writeFileSync(join(wt, 'a.js'), 'debugger;\n');
  repo.git(['add', '-A'], { cwd: wt });
  const commit = await repo.run(['commit', '-q', '-m', 'feat: a'], { cwd: wt });
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(
    repo.git(['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly)'], { cwd: wt }),
    /^rf-[0-9a-f]{10},a\.js,1,builtin\/debug:debugger,/,
  );
  // The hooks that keep the record find the main worktree's CLI too: an amend that skips
  // commit-msg drops the row, and post-rewrite queues it there instead of losing it.
  const amend = await repo.run(['commit', '-q', '--amend', '--no-verify', '-m', 'feat: a, reworded'], { cwd: wt });
  assert.equal(amend.code, 0, amend.stderr);
  assert.doesNotMatch(amend.stderr, /not found/);
  assert.match(
    amend.stderr,
    /revtrail: 1 Review-Finding record the rewrite left out of its new commit is queued for your next commit: OPEN rf-[0-9a-f]{10}/,
  );
  // A plain branch switch there runs the same hook and changes nothing.
  const switched = await repo.run(['switch', '-q', '-c', 'other'], { cwd: wt });
  assert.equal(switched.code, 0);
  assert.equal(switched.stderr, '');
});

test("node not on the hooks' PATH (a GUI git client): one line says so, the commit goes on, no exit 127", async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  assert.equal((await repo.cli(['install'])).code, 0);
  repo.commit('chore: hooks');
  // Only what git and husky's runner need: git, sh and the two path tools, no node.
  const bin = tempDir();
  cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
  const which = (tool: string) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  for (const tool of ['git', 'sh', 'dirname', 'basename']) symlinkSync(which(tool), join(bin, tool));
  repo.write('b.js', 'debugger;\n');
  repo.git(['add', '-A']);
  const commit = await repo.run(['commit', '-q', '-m', 'feat: b'], { env: { PATH: bin } });
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(
    commit.stderr,
    /^revtrail: node is not on this hook's PATH \(a GUI git client\?\); commit-msg check skipped\. Add node's folder to PATH in ~\/\.config\/husky\/init\.sh \(revtrail doctor\)$/m,
  );
  assert.doesNotMatch(commit.stderr, /No such file|127/);
});

test('monorepo: frontend/package.json with its own prepare gets the appended form suggested, written with --append-prepare, restored by uninstall', async () => {
  const repo = fresh();
  writeShim(join(repo.dir, 'frontend'));
  const pkg = '{\n  "name": "web",\n  "scripts": {\n    "prepare": "npm run compile",\n    "compile": "tsc"\n  }\n}\n';
  repo.write('frontend/package.json', pkg);
  repo.write('.gitignore', 'node_modules/\n');
  const suggested = await runCli(['install'], { cwd: join(repo.dir, 'frontend') });
  assert.equal(suggested.code, 0, suggested.stderr);
  assert.match(
    suggested.stdout,
    /frontend\/package\.json already has "prepare": "npm run compile"; to set the hooks up in fresh clones too, make it "npm run compile && \(revtrail install --from-prepare \|\| true\)" \(revtrail install --append-prepare writes that\)/,
  );
  assert.equal(
    readFileSync(join(repo.dir, 'frontend', 'package.json'), 'utf8'),
    pkg,
    'nothing written without consent',
  );
  const appended = await runCli(['install', '--append-prepare'], { cwd: join(repo.dir, 'frontend') });
  assert.equal(appended.code, 0, appended.stderr);
  assert.match(
    appended.stdout,
    /"prepare" in frontend\/package\.json is now "npm run compile && \(revtrail install --from-prepare \|\| true\)"/,
  );
  assert.equal(
    readFileSync(join(repo.dir, 'frontend', 'package.json'), 'utf8'),
    pkg.replace('"npm run compile"', '"npm run compile && (revtrail install --from-prepare || true)"'),
  );
  const un = await runCli(['uninstall'], { cwd: repo.dir });
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /restored "prepare" in frontend\/package\.json/);
  assert.equal(readFileSync(join(repo.dir, 'frontend', 'package.json'), 'utf8'), pkg);
});

test('an older install\'s bare "prepare": "husky" becomes revtrail\'s own command (pnpm cannot run husky)', async () => {
  const repo = fresh();
  writeShim(repo.dir);
  repo.write('package.json', '{"name":"app"}');
  assert.equal((await repo.cli(['install'])).code, 0);
  // What revtrail install wrote before: "prepare": "husky", recorded without script/value.
  repo.write('package.json', '{"name":"app","scripts":{"prepare":"husky"}}');
  const recordFile = join(repo.dir, '.git', 'revtrail', 'install.json');
  const record = JSON.parse(readFileSync(recordFile, 'utf8'));
  record.worktrees[repo.dir].prepareAdded = { file: 'package.json', scriptsCreated: true };
  writeFileSync(recordFile, JSON.stringify(record));
  const again = await repo.cli(['install']);
  assert.match(
    again.stdout,
    /"prepare" in package\.json is now "revtrail install --from-prepare \|\| true" \(a bare husky fails under pnpm\)/,
  );
  assert.equal((await repo.cli(['uninstall'])).code, 0);
  assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), '{"name":"app"}');
});

test('yarn berry (by its .yarnrc.yml): "postinstall", since berry never runs a root prepare; a publishable package is told what that means; uninstall removes it', async () => {
  const repo = fresh();
  writeShim(repo.dir);
  const pkg = '{\n  "name": "lib-x",\n  "version": "1.0.0"\n}\n';
  repo.write('package.json', pkg);
  repo.write('.yarnrc.yml', 'nodeLinker: node-modules\n');
  repo.write('yarn.lock', '__metadata:\n  version: 8\n');
  const run = await repo.cli(['install']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /added "postinstall": "revtrail install --from-prepare \|\| true" to package\.json \(yarn install sets the hooks up in fresh clones\)/,
  );
  assert.match(
    run.stdout,
    /package\.json is publishable \(no "private": true\) and yarn berry needs "postinstall", which also runs in your users' installs \(it does nothing there\)/,
  );
  assert.equal(JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8')).scripts.prepare, undefined);
  const un = await repo.cli(['uninstall']);
  assert.match(un.stdout, /removed "postinstall": "revtrail install --from-prepare \|\| true" from package\.json/);
  assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), pkg);
});

test('every hook script that starts revtrail gets the one shared CLI lookup, filled in, and parses as sh', async () => {
  const { HOOKS, hookBlock } = await import('../../lib/install/install.js');
  const { hookRecord } = await import('../../lib/hooks/registry.js');
  const lookup = readFileSync(join(projectRoot, 'hooks', 'find-cli.sh'), 'utf8')
    .split('\n\n')
    .slice(1)
    .join('\n\n')
    .trim()
    .split('\n');
  for (const name of HOOKS) {
    const template = readFileSync(join(projectRoot, 'hooks', hookRecord(name)?.script ?? 'hook'), 'utf8');
    const script = await hookBlock(name, 'tools/node_modules/.bin/revtrail');
    // A shared template (the generic hooks/hook, post-commit's for post-merge) runs this hook by name.
    if (template.includes('@REVTRAIL_HOOK@')) assert.ok(script.includes(`"$revtrail_cli" hook ${name}`), name);
    assert.doesNotMatch(script, /@REVTRAIL_/, name);
    execFileSync('sh', ['-n'], { input: script });
    if (!template.includes('"$revtrail_cli" hook')) continue;
    // The lookup, indented as the placeholder was, with the install's CLI path quoted in.
    const indent = /^([ \t]*)@REVTRAIL_FIND_CLI@$/m.exec(template)?.[1];
    assert.ok(indent !== undefined, `${name} takes the shared lookup`);
    const expected = lookup
      .map((l) => (l ? indent + l : l))
      .join('\n')
      .replace('@REVTRAIL_BIN@', "'tools/node_modules/.bin/revtrail'");
    assert.ok(script.includes(expected), name);
  }
});

test('install in a repository with no package.json (a Python team): no package.json to commit or devDependencies to add; what each teammate does instead, and doctor fixes a missing CLI with a user-level install', async () => {
  const repo = fresh();
  repo.write('pyproject.toml', '[project]\nname = "app"\n');
  // No revtrail on PATH and no node_modules: the hooks have none to call yet.
  const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
  const run = await repo.cli(['install'], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /Commit \.husky\/commit-msg, [^\n]*\.husky\/prepare-commit-msg so the team gets the hooks\.\n/,
  );
  assert.doesNotMatch(run.stdout, /devDependencies|and package\.json/);
  assert.match(run.stdout, /the hooks call revtrail on PATH: each teammate installs it once for their user \(npm i -g/);
  assert.match(run.stdout, /each teammate runs revtrail install once in their clone/);
  assert.match(run.stdout, /a repo: entry for its \.pre-commit-hooks\.yaml, a remotes entry for hooks\/lefthook\.yml/);
  const doctor = JSON.parse((await repo.cli(['doctor', '--json'], { env })).stdout) as {
    checks: Array<{ check: string; level: string; fix?: string }>;
  };
  const cli = doctor.checks.find((c) => c.check === 'cli');
  assert.equal(cli?.level, 'fail');
  assert.match(cli!.fix!, /^install revtrail for your user so the hooks find it on PATH: npm i -g/);
});
