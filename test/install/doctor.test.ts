/** `revtrail doctor` on a healthy clone (exit 0) and on one with each problem it names (exit 1). */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { cliPath, makeRepo, projectRoot, runProcess, tempDir } from '../kit/repo.js';
import { installedRepo, withRun, writeShim } from '../kit/hooks.js';
import { doctorMessages as m } from '../../lib/messages/install.js';

const cleanups: Array<() => void> = [];
after(() =>
  cleanups.forEach((c) => {
    c();
  }),
);

interface Report {
  ok: boolean;
  checks: Array<{ check: string; level: string; message: string; fix?: string }>;
}

test('doctor on a healthy clone: every check passes, exit 0', async () => {
  const repo = await installedRepo({
    files: { 'package.json': '{"name":"app","private":true}\n', 'package-lock.json': '{}\n' },
  });
  cleanups.push(() => repo.cleanup());
  const run = await repo.cli(['doctor']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^ {2}ok {4}core\.hooksPath = \.husky\/_$/m);
  assert.match(run.stdout, /^ {2}ok {4}this worktree: husky's runner and the revtrail hooks are in place$/m);
  assert.match(run.stdout, /^ {2}ok {4}the hooks call .*node_modules\/\.bin\/revtrail$/m);
  assert.match(
    run.stdout,
    /^ {2}ok {4}"prepare": "revtrail install --from-prepare \|\| true" in package\.json sets the hooks up in fresh clones \(npm, from package-lock\.json\)$/m,
  );
  assert.match(run.stdout, /^ {2}ok {4}bundle \.okfw: 1 document, 1 rule, 0 errors, 0 warnings$/m);
  assert.match(run.stdout, /Everything is set up/);
  const json = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  assert.equal(json.ok, true);
  assert.deepEqual(
    json.checks.filter((c) => c.level === 'fail'),
    [],
  );
  assert.deepEqual(
    [...new Set(json.checks.map((c) => c.check))],
    ['hooks-path', 'worktree', 'committed', 'cli', 'node', 'script', 'bundle'],
  );
});

test('doctor names each problem and its fix, exit 1: a worktree without the runner, no CLI, no node, pnpm with a bare husky', async () => {
  // No pnpm to ask, whatever this machine has installed globally (a pnpm 10 beside node would decide the version).
  const noPnpm = tempDir();
  cleanups.push(() => rmSync(noPnpm, { recursive: true, force: true }));
  writeFileSync(join(noPnpm, 'pnpm'), '#!/bin/sh\nexit 127\n', { mode: 0o755 });
  const repo = await installedRepo({
    files: {
      'package.json': '{"name":"app","scripts":{"prepare":"husky"},"devDependencies":{"revtrail":"^0.1.0"}}\n',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    },
    env: { PATH: `${noPnpm}${delimiter}${process.env.PATH}` },
  });
  cleanups.push(() => repo.cleanup());
  const parent = tempDir();
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const wt = join(parent, 'side');
  repo.git(['worktree', 'add', '-q', '-b', 'side', wt], { env: { REVTRAIL: '0' } }); // post-checkout skipped: no runner there
  unlinkSync(join(repo.dir, 'node_modules', '.bin', 'revtrail'));
  const bin = tempDir();
  cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
  symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));

  const run = await repo.cli(['doctor'], { env: { PATH: bin } });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const json = JSON.parse((await repo.cli(['doctor', '--json'], { env: { PATH: bin } })).stdout) as Report;
  const failed = json.checks.filter((c) => c.level === 'fail');
  const byCheck = (check: string) => failed.find((c) => c.check === check);
  assert.match(
    byCheck('worktree')!.message,
    new RegExp(`^${wt}: no \\.husky/_ \\(husky's runner is not committed\\), so git runs no hook there$`),
  );
  // A pnpm project (its lockfile) is told pnpm's install, never npm's.
  assert.equal(byCheck('worktree')!.fix, `cd ${wt} && revtrail install (or pnpm install there)`);
  assert.match(byCheck('cli')!.message, /the hooks find no revtrail to call/);
  assert.match(byCheck('cli')!.fix!, /^pnpm install \(with revtrail in devDependencies/);
  assert.equal(byCheck('node')!.message, 'node is not on PATH: the hooks cannot run revtrail');
  assert.match(
    byCheck('script')!.message,
    /"prepare": "husky" in package\.json runs husky, which is not a dependency of that package \(pnpm, from pnpm-lock\.yaml\): pnpm cannot find it/,
  );
  assert.match(byCheck('script')!.fix!, /revtrail install --from-prepare \|\| true/);
  assert.match(
    run.stdout,
    /^ {2}FAIL {2}node is not on PATH: the hooks cannot run revtrail\n {8}fix: put node's folder on PATH/m,
  );
  assert.match(run.stdout, /4 things to fix \(above\)/);
  // No pnpm to ask for its version: the parsers' install scripts undecided is a warning with the lines.
  const pnpm = json.checks.find((c) => c.check === 'pnpm');
  assert.equal(pnpm?.level, 'warn');
  assert.match(pnpm!.message, /pnpm-workspace\.yaml does not decide the install scripts of @ast-grep\/lang-go/);
  assert.match(pnpm!.fix!, /allowBuilds: '@ast-grep\/lang-go': false/);
});

test('doctor in a clone where nothing is installed says so in one line, and yarn berry needs postinstall', async () => {
  const repo = await installedRepo({ files: { 'package.json': '{"name":"app","private":true}\n' } });
  cleanups.push(() => repo.cleanup());
  // A yarn berry project: "prepare" (which berry never runs) instead of "postinstall".
  repo.write('.yarnrc.yml', 'nodeLinker: node-modules\n');
  repo.write(
    'package.json',
    '{"name":"app","private":true,"scripts":{"prepare":"revtrail install --from-prepare || true"}}\n',
  );
  const berry = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  assert.match(
    berry.checks.find((c) => c.check === 'script')!.message,
    /sets the hooks up in "prepare", which yarn berry never runs/,
  );
  assert.equal((await repo.cli(['uninstall'])).code, 0);
  const none = await repo.cli(['doctor']);
  assert.equal(none.code, 1);
  assert.match(
    none.stdout,
    /FAIL {2}revtrail is not installed in this clone: core\.hooksPath is not set and \.husky\/ has no revtrail hook\n {8}fix: revtrail install\n/,
  );
});

test('doctor and trust: a configured reviewer program not trusted here is a warning (a failure with reviewer.required), trusted is ok', async () => {
  const repo = await installedRepo({
    files: { 'package.json': '{"name":"app","private":true}\n', 'package-lock.json': '{}\n' },
  });
  cleanups.push(() => repo.cleanup());
  const store = tempDir();
  cleanups.push(() => rmSync(store, { recursive: true, force: true }));
  const env = { REVTRAIL_TRUST_FILE: join(store, 'trust.json') };
  repo.write('revtrail.config.json', JSON.stringify({ reviewer: { command: ['node', 'review.js'] } }));
  const trustOf = async () =>
    (JSON.parse((await repo.cli(['doctor', '--json'], { env })).stdout) as Report).checks.find(
      (c) => c.check === 'trust',
    )!;
  const untrusted = await trustOf();
  assert.equal(untrusted.level, 'warn');
  assert.equal(
    untrusted.message,
    'the configured reviewer program (node review.js) is not trusted in this clone: reviews run without it',
  );
  assert.match(untrusted.fix!, /revtrail trust/);
  assert.equal((await repo.cli(['doctor'], { env })).code, 0, 'a warning alone needs no fixing');
  repo.write('revtrail.config.json', JSON.stringify({ reviewer: { command: ['node', 'review.js'], required: true } }));
  assert.equal((await trustOf()).level, 'fail');
  assert.equal((await repo.cli(['doctor'], { env })).code, 1);
  assert.equal((await repo.cli(['trust'], { env })).code, 0);
  assert.deepEqual(await trustOf(), {
    check: 'trust',
    level: 'ok',
    message: 'the configured reviewer program (node review.js) is trusted in this clone',
  });
});

test('doctor after install but before the commit: the hook files are not committed, so teammates get none (exit 1, not "Everything is set up")', async () => {
  const repo = withRun(makeRepo());
  cleanups.push(() => repo.cleanup());
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  repo.write('package.json', '{"name":"app","private":true}\n');
  repo.write('package-lock.json', '{}\n');
  repo.commit('chore: start');
  assert.equal((await repo.cli(['install'])).code, 0);
  const before = await repo.cli(['doctor']);
  assert.equal(before.code, 1, before.stdout);
  assert.doesNotMatch(before.stdout, /Everything is set up/);
  // In the order of the hook files (lib/hooks/hook/, alphabetical).
  assert.match(
    before.stdout,
    /FAIL {2}\.husky\/commit-msg, .*\.husky\/post-checkout, .*\.husky\/pre-push, .*are not committed: a teammate's clone gets no hooks/,
  );
  assert.match(before.stdout, /fix: git add \.husky\/commit-msg .* && git commit -m "chore: revtrail hooks"/);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail hooks'], { env: { REVTRAIL: '0' } });
  repo.write('.husky/pre-push', `${repo.git(['show', 'HEAD:.husky/pre-push'])}\necho mine\n`);
  const modified = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  assert.equal(
    modified.checks.find((c) => c.check === 'committed')!.message,
    ".husky/pre-push is not committed: a teammate's clone gets no hooks (they work here only)",
  );
  repo.git(['checkout', '--', '.husky/pre-push']);
  const after = await repo.cli(['doctor']);
  assert.equal(after.code, 0, after.stdout);
  assert.match(after.stdout, /ok {4}the hook files are committed/);

  // vue's .gitignore has *.tgz: `git add vendor` skipped the tarball with exit 0.
  repo.write('.gitignore', 'node_modules/\n*.tgz\n');
  repo.write('vendor/revtrail-0.1.0.tgz', 'not really a tarball\n');
  repo.write(
    'package.json',
    '{"name":"app","private":true,"devDependencies":{"revtrail":"file:vendor/revtrail-0.1.0.tgz"},"scripts":{"prepare":"revtrail install --from-prepare || true"}}\n',
  );
  repo.write('.npmrc', 'ignore-scripts=true\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: vendor'], { env: { REVTRAIL: '0' } });
  const vendored = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  const by = (check: string) => vendored.checks.filter((c) => c.check === check);
  assert.equal(by('ignored')[0]?.message.startsWith('vendor/revtrail-0.1.0.tgz is ignored (.gitignore)'), true);
  assert.equal(by('ignored')[0]?.fix?.startsWith('git add -f vendor/revtrail-0.1.0.tgz'), true);
  assert.deepEqual(
    by('vendored').map((c) => [c.level, c.fix]),
    [['fail', 'git add -f vendor/revtrail-0.1.0.tgz && git commit -m "chore: vendor revtrail"']],
  );
  assert.match(by('script').find((c) => c.level === 'fail')?.message ?? '', /ignore-scripts is on \(.*\.npmrc\)/);
  repo.git(['add', '-f', 'vendor/revtrail-0.1.0.tgz']);
  // Staged is not committed: a teammate's clone of HEAD has no tarball yet.
  const staged = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  const stagedCheck = staged.checks.find((c) => c.check === 'vendored')!;
  assert.equal(stagedCheck.level, 'fail');
  assert.match(stagedCheck.message, /^the vendored vendor\/revtrail-0\.1\.0\.tgz is staged but not committed/);
  repo.git(['commit', '-q', '-m', 'chore: vendor the tarball'], { env: { REVTRAIL: '0' } });
  repo.git(['rm', '-q', '.npmrc']);
  repo.git(['commit', '-q', '-m', 'chore: scripts on'], { env: { REVTRAIL: '0' } });
  const fixed = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  assert.deepEqual(
    fixed.checks.filter((c) => c.level === 'fail'),
    [],
  );
  assert.equal(fixed.checks.find((c) => c.check === 'vendored')?.level, 'ok');

  // simple-git-hooks (added to the project later) writes into core.hooksPath: husky's runner for commit-msg is gone.
  repo.write(
    '.husky/_/commit-msg',
    '#!/bin/sh\nif [ "$SKIP_SIMPLE_GIT_HOOKS" = "1" ]; then\n    exit 0\nfi\nnpx commitlint --edit "$1"\n',
  );
  const replaced = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report;
  const runner = replaced.checks.find((c) => c.check === 'runner');
  assert.equal(runner?.level, 'fail');
  assert.match(runner!.message, /\.husky\/_\/commit-msg \(simple-git-hooks\) is no longer husky's runner/);
  assert.match(runner!.fix!, /revtrail install --simple-git-hooks/);
});

test("doctor under yarn: its temporary shim folder on PATH (/tmp/xfs-…) is never named for the hooks' PATH; node's real folder is", async () => {
  const repo = await installedRepo({ files: { 'package.json': '{"name":"app","private":true}\n', 'yarn.lock': '' } });
  cleanups.push(() => repo.cleanup());
  const shims = join(tmpdir(), `xfs-${process.pid.toString(16)}abcd`);
  mkdirSync(shims, { recursive: true });
  cleanups.push(() => rmSync(shims, { recursive: true, force: true }));
  symlinkSync(process.execPath, join(shims, 'node'));
  const bin = tempDir();
  symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
  const node = async (PATH: string) =>
    (JSON.parse((await repo.cli(['doctor', '--json'], { env: { PATH } })).stdout) as Report).checks.find(
      (c) => c.check === 'node',
    )!;
  // Only the shim folder has node: the hooks (started by git, not yarn) would have none.
  const only = await node(`${shims}:${bin}`);
  assert.equal(only.level, 'fail');
  assert.doesNotMatch(JSON.stringify(only), /xfs-/);
  assert.ok(only.fix!.includes(dirname(realpathSync(process.execPath))), only.fix);
  // The shim folder first, node's own folder after it: node's own folder is the one named.
  const both = await node(`${shims}:${bin}:${dirname(realpathSync(process.execPath))}`);
  assert.doesNotMatch(JSON.stringify(both), /xfs-/);
  assert.ok(both.message.includes(dirname(realpathSync(process.execPath))), both.message);
});

test('doctor in a repository with a linked worktree outside it and no node_modules there: npx would reach the registry, and how to link the CLI', async () => {
  const repo = await installedRepo({
    files: { 'package.json': '{"name":"app","private":true}\n', 'package-lock.json': '{}\n' },
  });
  cleanups.push(() => repo.cleanup());
  const wt = join(tempDir(), 'side');
  repo.git(['worktree', 'add', '-q', '-b', 'side', wt], { env: { REVTRAIL: '0' } }); // post-checkout skipped: nothing linked
  const npx = (JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report).checks.find(
    (c) => c.check === 'npx',
  )!;
  assert.equal(npx.level, 'warn');
  assert.equal(
    npx.message,
    `${wt} has no node_modules/.bin/revtrail: npx revtrail there asks the npm registry for a package named revtrail, which is not this one`,
  );
  const fix = npx.fix!.replace(/ \(or npm install there\)$/, '');
  assert.equal((await runProcess('sh', ['-c', fix], { cwd: repo.dir })).code, 0, fix);
  const again = (JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Report).checks;
  assert.equal(
    again.find((c) => c.check === 'npx'),
    undefined,
  );
  const version = await runProcess(join(wt, 'node_modules', '.bin', 'revtrail'), ['--version'], { cwd: wt });
  assert.equal(version.stdout.trim(), '0.1.0');
});

test("doctor with the pre-commit framework's repo: route (revtrail's .pre-commit-hooks.yaml, no package.json): git's hooks not pre-commit's, an entry missing, the config not committed each fail with their fix; installed and committed is all good", async (t) => {
  const repo = withRun(makeRepo());
  cleanups.push(() => repo.cleanup());
  const entry = (ids: string[]) =>
    `repos:\n  - repo: https://example.com/team/revtrail\n    rev: v0.1.0\n    hooks:\n${ids.map((id) => `      - id: ${id}\n`).join('')}`;
  repo.commit('chore: start', { 'pyproject.toml': '[project]\nname = "app"\n' });
  repo.write('.pre-commit-config.yaml', entry(['revtrail-commit-msg', 'revtrail-pre-push']));
  const doctor = async () => {
    const run = await repo.cli(['doctor', '--json']);
    const report = JSON.parse(run.stdout) as Report;
    assert.equal(run.code, report.ok ? 0 : 1);
    return { report, by: (check: string) => report.checks.find((c) => c.check === check) };
  };
  let { report, by } = await doctor();
  assert.equal(report.ok, false);
  assert.ok(!report.checks.some((c) => c.check === 'install'), 'never told to run revtrail install --pre-commit');
  assert.equal(by('manager')?.level, 'fail');
  assert.match(by('manager')!.message, /git's commit-msg and pre-push hooks are not pre-commit's/);
  assert.equal(by('manager')!.fix, m.preCommitRouteInstallFix);
  assert.equal(by('pre-commit')?.level, 'fail');
  assert.match(by('pre-commit')!.message, /the committed one \(HEAD\) does not/);

  repo.commit('chore: revtrail through pre-commit', { '.pre-commit-config.yaml': entry(['revtrail-commit-msg']) });
  ({ by } = await doctor());
  assert.equal(by('pre-commit')?.level, 'fail');
  assert.match(by('pre-commit')!.message, /has no revtrail-pre-push entry: pre-push is not reviewed/);
  assert.match(by('pre-commit')!.fix!, /add - id: revtrail-pre-push under that repo's hooks:/);

  repo.commit('chore: review pushes too', {
    '.pre-commit-config.yaml': entry(['revtrail-commit-msg', 'revtrail-pre-push']),
  });
  ({ report, by } = await doctor());
  assert.equal(by('pre-commit')?.level, 'ok');
  assert.match(
    by('pre-commit')!.message,
    /runs revtrail at commit-msg and pre-push from https:\/\/example\.com\/team\/revtrail @ v0\.1\.0/,
  );
  assert.equal(by('manager')?.level, 'fail', 'nothing runs until pre-commit install');

  const preCommit = ['/usr/bin/pre-commit', join(dirname(process.execPath), 'pre-commit')].find((p) => existsSync(p));
  if (!preCommit) return t.skip('no pre-commit framework here (Debian: apt-get install pre-commit)');
  // What the framework writes into .git/hooks, from the real one (it needs no network for that).
  const installed = await runProcess(preCommit, ['install', '--hook-type', 'commit-msg', '--hook-type', 'pre-push'], {
    cwd: repo.dir,
  });
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  ({ report, by } = await doctor());
  assert.equal(by('manager')?.level, 'ok');
  assert.deepEqual(
    report.checks.filter((c) => c.level === 'fail' || c.level === 'warn'),
    [],
  );
  assert.equal(report.ok, true);
});

test("doctor with lefthook's remotes: route (revtrail's hooks/lefthook.yml, revtrail on PATH, no package.json): git's hooks not lefthook's, the config not committed, revtrail not on PATH, the remote not fetched each fail with their fix; lefthook install done and committed is all good", async (t) => {
  // revtrail's side: a repository named revtrail holding this checkout's hooks/lefthook.yml.
  const src = tempDir();
  cleanups.push(() => rmSync(src, { recursive: true, force: true }));
  const origin = join(src, 'revtrail');
  mkdirSync(join(origin, 'hooks'), { recursive: true });
  writeFileSync(join(origin, 'hooks', 'lefthook.yml'), readFileSync(join(projectRoot, 'hooks', 'lefthook.yml')));
  const git = (cwd: string, args: string[]) =>
    execFileSync('git', ['-c', 'user.name=r', '-c', 'user.email=r@example.com', ...args], { cwd, stdio: 'pipe' });
  git(origin, ['init', '-q']);
  git(origin, ['add', '-A']);
  git(origin, ['commit', '-q', '-m', 'revtrail']);
  git(origin, ['tag', 'v0.1.0']);
  const config = (url: string) =>
    `# the team's own check\npre-commit:\n  commands:\n    lint:\n      run: "true"\nremotes:\n  - git_url: ${url}\n    ref: v0.1.0\n    configs:\n      - hooks/lefthook.yml\n`;
  // A user-level install: revtrail on PATH.
  const bin = tempDir();
  cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
  writeFileSync(join(bin, 'revtrail'), `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' "$@"\n`);
  chmodSync(join(bin, 'revtrail'), 0o755);
  const onPath = { PATH: `${bin}${delimiter}${process.env.PATH}` };

  // Another remote whose config is also hooks/lefthook.yml is not revtrail's: the manager's route, as before.
  const other = withRun(makeRepo());
  cleanups.push(() => other.cleanup());
  other.commit('chore: start', { 'go.mod': 'module app\n', 'lefthook.yml': config(join(src, 'hooks-kit')) });
  const said = JSON.parse((await other.cli(['doctor', '--json'], { env: onPath })).stdout) as Report;
  assert.equal(said.checks.find((c) => c.check === 'install')?.fix, m.runManagerInstall('lefthook'));

  const repo = withRun(makeRepo());
  cleanups.push(() => repo.cleanup());
  repo.commit('chore: start', { 'pyproject.toml': '[project]\nname = "app"\n' });
  repo.write('lefthook.yml', config(origin));
  const doctor = async (env: NodeJS.ProcessEnv = onPath) => {
    const run = await repo.cli(['doctor', '--json'], { env });
    const report = JSON.parse(run.stdout) as Report;
    assert.equal(run.code, report.ok ? 0 : 1);
    return { report, by: (check: string) => report.checks.find((c) => c.check === check) };
  };
  let { report, by } = await doctor();
  assert.equal(report.ok, false);
  assert.ok(!report.checks.some((c) => c.check === 'install'), 'never told to run revtrail install --lefthook');
  assert.equal(by('manager')?.level, 'fail');
  assert.match(by('manager')!.message, /git's commit-msg and pre-push hooks are not lefthook's/);
  assert.equal(by('manager')!.fix, m.lefthookRouteInstallFix);
  assert.equal(by('lefthook')?.level, 'fail');
  assert.match(by('lefthook')!.message, /the committed one \(HEAD\) does not/);
  assert.deepEqual([by('cli')?.level, by('cli')?.message], ['ok', m.cliOk(join(bin, 'revtrail'))]);

  repo.commit('chore: revtrail through lefthook', { 'lefthook.yml': config(origin) });
  ({ report, by } = await doctor());
  assert.equal(by('lefthook')?.level, 'ok');
  assert.match(by('lefthook')!.message, /runs revtrail's hooks\/lefthook\.yml from .*revtrail @ v0\.1\.0/);
  assert.equal(by('manager')?.level, 'fail', 'nothing runs until lefthook install');

  // Without revtrail on PATH the remote's hooks skip the review: a failure, with the user-level install.
  if (!existsSync('/usr/bin/revtrail') && !existsSync('/bin/revtrail')) {
    ({ by } = await doctor({ PATH: `${dirname(process.execPath)}${delimiter}/usr/bin${delimiter}/bin` }));
    assert.deepEqual([by('cli')?.level, by('cli')?.fix], ['fail', m.noCliUserFix]);
  }

  const lefthook = join(tmpdir(), 'revtrail-pm-clients', 'lefthook_2', 'node_modules', '.bin', 'lefthook');
  if (!existsSync(lefthook)) return t.skip('no cached lefthook (test/install/non-node.test.ts installs it)');
  // The real lefthook fetches the remote and writes git's hooks (a local git_url needs no network).
  const installed = await runProcess(lefthook, ['install'], { cwd: repo.dir, env: onPath });
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  ({ report, by } = await doctor());
  assert.equal(by('manager')?.level, 'ok', by('manager')?.message);
  assert.deepEqual(
    report.checks.filter((c) => c.level === 'fail' || c.level === 'warn'),
    [],
  );
  assert.equal(report.ok, true);

  // lefthook's copy of the remote gone: its hooks run nothing of revtrail's.
  rmSync(join(repo.dir, '.git', 'info', 'lefthook-remotes'), { recursive: true, force: true });
  ({ report, by } = await doctor());
  assert.equal(by('manager')?.level, 'fail');
  assert.match(by('manager')!.message, /lefthook has no copy of hooks\/lefthook\.yml from /);
  assert.equal(by('manager')!.fix, m.lefthookRouteInstallFix);
});
