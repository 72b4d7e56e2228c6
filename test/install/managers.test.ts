/**
 * `revtrail install --lefthook` and `--pre-commit` with the real managers: lefthook from the npm
 * registry (its binary comes in an optional dependency), the pre-commit framework from PyPI in a
 * virtualenv; both installed once into the suite's cache folder, a test skipped with the reason
 * when one cannot be had. Each walks a team's flow: revtrail's scripts and the manager's config
 * written, the manager's own install (core.hooksPath never set by revtrail), a commit reviewed
 * with the message file reaching revtrail, a push blocked with git's ref lines and arguments
 * reaching it, a verdict, the push going through.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, runProcess, type CliRun } from '../kit/repo.js';
import { addRemote, withRun, writeShim, type HookRepo } from '../kit/hooks.js';

const CACHE = join(tmpdir(), 'revtrail-pm-clients');
const made: Array<{ cleanup(): void }> = [];
after(() =>
  made.forEach((r) => {
    r.cleanup();
  }),
);

/** The lefthook these tests walk, pinned: a lefthook on PATH (a global one) is never the one run. */
const LEFTHOOK_VERSION = '2.2.4';

async function lefthookBin(): Promise<string | { skip: string }> {
  const dir = join(CACHE, `lefthook_${LEFTHOOK_VERSION}`);
  const bin = join(dir, 'node_modules', '.bin', 'lefthook');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const got = await runProcess(
      'npm',
      ['install', '--prefix', dir, `lefthook@${LEFTHOOK_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: dir, timeoutMs: 300_000 },
    );
    if (got.code !== 0 || !existsSync(bin))
      return {
        skip: `lefthook could not be installed from the npm registry: ${(got.stderr || got.stdout).trim().split('\n')[0]}`,
      };
  }
  const version = await runProcess(bin, ['version'], { cwd: dir });
  return version.code === 0 ? bin : { skip: `lefthook does not run here: ${version.stderr.trim()}` };
}

/** git's hook files lefthook writes call $LEFTHOOK_BIN first, so every git command of a test runs the pinned one. */
const lefthookEnv = (bin: string): NodeJS.ProcessEnv => ({ LEFTHOOK_BIN: bin, LEFTHOOK_QUIET: 'meta,summary,success' });

async function preCommitBin(): Promise<string | { skip: string }> {
  // Debian's package (.ci/run installs it): 3.0.4 on Debian 12, which knows only the old stage names.
  if (existsSync('/usr/bin/pre-commit')) return '/usr/bin/pre-commit';
  const venv = join(CACHE, 'pre-commit-venv');
  const bin = join(venv, 'bin', 'pre-commit');
  if (!existsSync(bin)) {
    const made = await runProcess('python3', ['-m', 'venv', venv], { cwd: CACHE, timeoutMs: 120_000 });
    if (made.code !== 0) return { skip: `no python3 venv: ${made.stderr.trim().split('\n')[0]}` };
    const got = await runProcess(join(venv, 'bin', 'pip'), ['install', '-q', 'pre-commit'], {
      cwd: CACHE,
      timeoutMs: 300_000,
    });
    if (got.code !== 0 || !existsSync(bin))
      return {
        skip: `pre-commit could not be installed from PyPI: ${(got.stderr || got.stdout).trim().split('\n').at(-1)}`,
      };
  }
  const version = await runProcess(bin, ['--version'], { cwd: CACHE });
  return version.code === 0 ? bin : { skip: `pre-commit does not run here: ${version.stderr.trim()}` };
}

function teamRepo(): HookRepo {
  const repo = withRun(makeRepo());
  made.push(repo);
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  repo.commit('chore: start');
  return repo;
}

const hooksPath = (repo: HookRepo) => {
  try {
    return repo.git(['config', '--get', 'core.hooksPath']).trim();
  } catch {
    return null;
  }
};

/** The daily flow through whichever manager owns .git/hooks; `env` puts it on PATH. */
async function dailyFlow(repo: HookRepo, env: NodeJS.ProcessEnv, label: string): Promise<void> {
  const bare = addRemote(repo);
  made.push(bare);
  repo.write('src/a.js', 'debugger;\n');
  repo.git(['add', 'src/a.js']);
  const commit = await repo.run(['commit', '-q', '-m', 'feat: a'], { env });
  assert.equal(commit.code, 0, `${label}: ${commit.stdout}${commit.stderr}`);
  const rows = repo.trailers();
  assert.equal(
    rows.length,
    1,
    `${label}: commit-msg got the message file and recorded the finding:\n${commit.stdout}${commit.stderr}`,
  );
  assert.match(rows[0]!, /^rf-[0-9a-f]{10},src\/a\.js,1,builtin\/debug:debugger,.*,OPEN,$/);
  const id = rows[0]!.split(',')[0]!;
  // A first push (the whole history, root commit included) and, after a verdict, an update.
  const blocked: CliRun = await repo.run(['push', 'origin', 'HEAD:refs/heads/main'], { env });
  assert.equal(blocked.code, 1, `${label}: ${blocked.stdout}${blocked.stderr}`);
  const said = blocked.stdout + blocked.stderr;
  assert.match(said, /push blocked: 1 blocking finding/, `${label}: the ref lines reached revtrail`);
  assert.match(said, /^HEAD \(1 blocking finding\):$/m, `${label}: git's local ref name came through`);
  assert.match(said, new RegExp(`src/a\\.js:1 bug .* ${id}`));
  assert.equal((await repo.cli(['verdict', id, 'DEFER', 'tracked in #42, due 2027-01'])).code, 0);
  const recorded = await repo.run(['commit', '-q', '--allow-empty', '-m', 'Record review verdicts'], { env });
  assert.equal(recorded.code, 0, recorded.stderr);
  assert.match(repo.trailers()[0]!, new RegExp(`^${id},.*,DEFER,"tracked in #42`));
  const pushed = await repo.run(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { env });
  assert.equal(pushed.code, 0, `${label}: ${pushed.stdout}${pushed.stderr}`);
  repo.write('src/b.js', 'debugger;\n');
  repo.git(['add', 'src/b.js']);
  assert.equal((await repo.run(['commit', '-q', '-m', 'feat: b'], { env })).code, 0);
  const update = await repo.run(['push', 'origin', 'HEAD:refs/heads/main'], { env });
  assert.equal(update.code, 1, `${label}: an update of the remote branch is reviewed (${update.stderr})`);
  assert.match(update.stdout + update.stderr, /src\/b\.js:1 bug/);
  assert.doesNotMatch(update.stdout + update.stderr, /src\/a\.js:1/, `${label}: only what the update adds`);
}

test('revtrail install --lefthook: scripts in .lefthook/ and a lefthook.yml, run by the real lefthook; core.hooksPath is not touched', async (t) => {
  const lefthook = await lefthookBin();
  if (typeof lefthook !== 'string') return t.skip(lefthook.skip);
  const repo = teamRepo();
  const installed = await repo.cli(['install', '--lefthook']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /created \.lefthook\/commit-msg\/revtrail\n[\s\S]*created lefthook\.yml\n/);
  assert.equal(hooksPath(repo), null);
  assert.ok(statSync(join(repo.dir, '.lefthook', 'pre-push', 'revtrail')).mode & 0o100);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in lefthook']);
  const checks = async () =>
    JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
      ok: boolean;
      checks: Array<{ check: string; level: string; message: string; fix?: string }>;
    };
  const before = (await checks()).checks.find((c) => c.check === 'manager')!;
  assert.deepEqual([before.level, before.fix], ['fail', 'npx lefthook install'], before.message);
  const lh = await runProcess(lefthook, ['install'], { cwd: repo.dir, env: lefthookEnv(lefthook) });
  assert.equal(lh.code, 0, lh.stdout + lh.stderr);
  assert.ok(existsSync(join(repo.dir, '.git', 'hooks', 'pre-push')));
  const doctor = await checks();
  assert.deepEqual(
    doctor.checks.filter((c) => c.level === 'fail'),
    [],
  );
  assert.ok(
    doctor.checks.some(
      (c) => c.check === 'manager' && c.message === "git's hooks run lefthook, which runs revtrail's scripts",
    ),
  );
  assert.ok(
    !doctor.checks.some((c) => c.check === 'hooks-path' || c.check === 'install'),
    'no husky advice for a lefthook team',
  );
  await dailyFlow(repo, lefthookEnv(lefthook), 'lefthook');
  assert.equal((await repo.cli(['install', '--lefthook'])).code, 0, 'idempotent');
  assert.equal(repo.git(['status', '--porcelain']), '');
  const un = await repo.cli(['uninstall', '--lefthook']);
  assert.equal(un.code, 0, un.stderr);
  assert.equal(existsSync(join(repo.dir, '.lefthook')), false);
  assert.equal(existsSync(join(repo.dir, 'lefthook.yml')), false);
});

/** git's hook files (samples left out), name to bytes: what uninstall must give back. */
function gitHookFiles(repo: HookRepo): Record<string, string> {
  const dir = join(repo.dir, '.git', 'hooks');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => !f.endsWith('.sample'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'base64')]),
  );
}

type Doctor = { ok: boolean; checks: Array<{ check: string; level: string; message: string; fix?: string }> };
const doctorOf = async (repo: HookRepo): Promise<Doctor> =>
  JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as Doctor;

test('revtrail install --lefthook into the lefthook.yml `lefthook install` writes (all comments): its entries spliced in, run by the real lefthook; doctor judges HEAD; uninstall gives file and hooks back byte for byte', async (t) => {
  const lefthook = await lefthookBin();
  if (typeof lefthook !== 'string') return t.skip(lefthook.skip);
  const env = lefthookEnv(lefthook);
  const repo = teamRepo();
  assert.equal((await runProcess(lefthook, ['install'], { cwd: repo.dir, env })).code, 0);
  const original = readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8');
  assert.match(original, /^# EXAMPLE USAGE:/);
  assert.deepEqual(
    original.split('\n').filter((l) => l && !l.startsWith('#')),
    [],
    'the config lefthook writes is comments only',
  );
  repo.git(['add', 'lefthook.yml']);
  repo.git(['commit', '-q', '-m', 'chore: lefthook'], { env });
  const hooksBefore = gitHookFiles(repo);

  // A lefthook team is told lefthook's route, not husky's (plain install would refuse).
  const none = (await doctorOf(repo)).checks.find((c) => c.check === 'install')!;
  assert.deepEqual([none.level, none.fix], ['fail', 'revtrail install --lefthook'], none.message);
  assert.match(none.message, /not set up in lefthook/);

  const installed = await repo.cli(['install', '--lefthook']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(
    installed.stdout,
    /added revtrail's commit-msg, pre-push to lefthook\.yml \(your entries, comments and layout kept\)/,
  );
  assert.match(installed.stdout, /--record-hooks adds the hooks .* each one more lefthook launch on every commit/);
  const edited = readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8');
  assert.equal(
    edited,
    `${original}\ncommit-msg:\n  scripts:\n    "revtrail":\n      runner: sh\npre-push:\n  scripts:\n    "revtrail":\n      runner: sh\n      use_stdin: true\n`,
  );
  assert.equal(existsSync(join(repo.dir, '.lefthook', 'post-rewrite')), false, 'no record-keeping hook unasked');
  const valid = await runProcess(lefthook, ['validate'], { cwd: repo.dir, env });
  assert.equal(valid.code, 0, valid.stdout + valid.stderr);

  // Before the commit: the work tree runs revtrail, a teammate's clone of HEAD would not.
  const uncommitted = await doctorOf(repo);
  const config = uncommitted.checks.find((c) => c.check === 'config')!;
  assert.equal(config.level, 'fail');
  assert.match(
    config.message,
    /lefthook\.yml runs revtrail at commit-msg and pre-push in this work tree, but the committed one \(HEAD\) does not/,
  );
  assert.match(
    config.fix!,
    /^git add lefthook\.yml \.lefthook\/commit-msg\/revtrail \.lefthook\/pre-push\/revtrail && git commit/,
  );
  assert.equal(uncommitted.checks.find((c) => c.check === 'committed')?.level, 'fail');

  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in lefthook'], { env });
  assert.equal((await runProcess(lefthook, ['install'], { cwd: repo.dir, env })).code, 0);
  const doctor = await doctorOf(repo);
  assert.deepEqual(
    doctor.checks.filter((c) => c.level !== 'ok' && c.level !== 'info'),
    [],
  );
  assert.ok(
    doctor.checks.some((c) => c.message === 'lefthook.yml as committed runs revtrail at commit-msg and pre-push'),
  );
  // Two hook types more than the team had, the two --no-verify skips: a --no-verify commit costs what it did.
  assert.deepEqual(Object.keys(gitHookFiles(repo)), [...Object.keys(hooksBefore), 'commit-msg', 'pre-push'].sort());

  await dailyFlow(repo, env, 'lefthook');
  repo.write('src/skip.js', 'debugger;\n');
  repo.git(['add', 'src/skip.js']);
  assert.equal((await repo.run(['commit', '-q', '--no-verify', '-m', 'feat: skip'], { env })).code, 0);
  assert.deepEqual(repo.trailers(), [], '--no-verify: revtrail did not run');

  const again = await repo.cli(['install', '--lefthook']);
  assert.match(again.stdout, /lefthook\.yml already runs revtrail/);
  assert.equal(repo.git(['status', '--porcelain']), '', 'idempotent');

  const un = await repo.cli(['uninstall', '--lefthook']);
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /lefthook\.yml given back as install found it/);
  assert.equal(readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8'), original);
  assert.deepEqual(gitHookFiles(repo), hooksBefore);
  assert.equal(existsSync(join(repo.dir, '.lefthook')), false);
  repo.git(['add', '-A']);
  const after = await repo.run(['commit', '-q', '-m', 'chore: revtrail out'], { env });
  assert.equal(after.code, 0, after.stdout + after.stderr);
  assert.doesNotMatch(after.stdout + after.stderr, /script does not exist|revtrail/);
});

test("revtrail install --lefthook with the team's own commands: revtrail's script joins each hook in place (theirs keep running), uninstall gives lefthook.yml and git's hooks back byte for byte", async (t) => {
  const lefthook = await lefthookBin();
  if (typeof lefthook !== 'string') return t.skip(lefthook.skip);
  const env = lefthookEnv(lefthook);
  const repo = teamRepo();
  const team = [
    "# The team's hooks",
    'pre-commit:',
    '  parallel: true',
    '  commands:',
    '    lint:',
    '      run: echo lint >> .git/ran   # stands for eslint',
    '',
    'commit-msg:',
    '  commands:',
    '    msg:',
    '      run: echo "msg {1}" >> .git/ran',
    '',
  ].join('\n');
  repo.write('lefthook.yml', team);
  const pkg = '{\n  "name": "team",\n  "private": true,\n  "devDependencies": {\n    "revtrail": "^0.1.0"\n  }\n}\n';
  repo.write('package.json', pkg);
  repo.git(['add', 'lefthook.yml', 'package.json']);
  repo.git(['commit', '-q', '-m', 'chore: lefthook'], { env });
  assert.equal((await runProcess(lefthook, ['install'], { cwd: repo.dir, env })).code, 0);
  const hooksBefore = gitHookFiles(repo);
  assert.ok(hooksBefore['commit-msg'] && !hooksBefore['pre-push']);

  const installed = await repo.cli(['install', '--lefthook']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.equal(
    readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8'),
    team.replace(
      '      run: echo "msg {1}" >> .git/ran\n',
      '      run: echo "msg {1}" >> .git/ran\n  scripts:\n    "revtrail":\n      runner: sh\n',
    ) + '\npre-push:\n  scripts:\n    "revtrail":\n      runner: sh\n      use_stdin: true\n',
  );
  assert.match(readFileSync(join(repo.dir, 'package.json'), 'utf8'), /"allowScripts"/, 'npm 11 told about the parsers');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in lefthook'], { env });
  assert.equal((await runProcess(lefthook, ['install'], { cwd: repo.dir, env })).code, 0);
  assert.deepEqual(
    (await doctorOf(repo)).checks.filter((c) => c.level === 'fail'),
    [],
  );
  rmSync(join(repo.dir, '.git', 'ran'), { force: true });
  repo.write('src/a.js', 'debugger;\n');
  repo.git(['add', 'src/a.js']);
  const commit = await repo.run(['commit', '-q', '-m', 'feat: a'], { env });
  assert.equal(commit.code, 0, commit.stdout + commit.stderr);
  assert.equal(readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'), 'lint\nmsg .git/COMMIT_EDITMSG\n');
  assert.equal(repo.trailers().length, 1, 'revtrail recorded the finding');

  // Plain uninstall finds the lefthook route itself.
  const un = await repo.cli(['uninstall']);
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /^revtrail: lefthook hooks removed$/m);
  assert.equal(readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8'), team);
  assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), pkg, "npm's allowScripts taken out again");
  assert.deepEqual(gitHookFiles(repo), hooksBefore);
  rmSync(join(repo.dir, '.git', 'ran'), { force: true });
  repo.write('src/b.js', 'debugger;\n');
  repo.git(['add', '-A']);
  const next = await repo.run(['commit', '-q', '-m', 'feat: b'], { env });
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.equal(
    readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'),
    'lint\nmsg .git/COMMIT_EDITMSG\n',
    "the team's commands run",
  );
  assert.deepEqual(repo.trailers(), []);
});

test('revtrail install --pre-commit --record-hooks: scripts in .revtrail-hooks/ and repo: local hooks, run by the real pre-commit framework (which hands pre-push over as variables)', async (t) => {
  const preCommit = await preCommitBin();
  if (typeof preCommit !== 'string') return t.skip(preCommit.skip);
  const repo = teamRepo();
  // The pre-commit the test runs is the one install asks for its stage names.
  const env = { PRE_COMMIT_HOME: join(CACHE, 'pre-commit-home'), PATH: `${join(preCommit, '..')}:${process.env.PATH}` };
  const installed = await repo.cli(['install', '--pre-commit', '--record-hooks'], { env });
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /created \.pre-commit-config\.yaml\n/);
  assert.match(
    installed.stdout,
    /post-checkout, post-commit, post-merge, post-rewrite keep the record .* each is one more pre-commit launch on every commit/,
  );
  // pre-commit's "configuration is unstaged" check runs at prepare-commit-msg, which --no-verify does not skip.
  assert.equal(existsSync(join(repo.dir, '.revtrail-hooks', 'prepare-commit-msg')), false);
  assert.equal(hooksPath(repo), null);
  const config = readFileSync(join(repo.dir, '.pre-commit-config.yaml'), 'utf8');
  assert.match(config, /- repo: local\n/);
  // The team's hooks without `stages` stay at pre-commit; revtrail's output is shown.
  assert.match(config, /^default_stages: \[(pre-)?commit\]$/m);
  assert.equal(config.match(/^ {8}verbose: true$/gm)?.length, 6);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in pre-commit']);
  const pc = await runProcess(preCommit, ['install'], { cwd: repo.dir, env });
  assert.equal(pc.code, 0, pc.stdout + pc.stderr);
  for (const hook of ['commit-msg', 'pre-push', 'post-rewrite'])
    assert.ok(existsSync(join(repo.dir, '.git', 'hooks', hook)), hook);
  const doctor = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
    checks: Array<{ check: string; level: string; message: string }>;
  };
  assert.deepEqual(
    doctor.checks.filter((c) => c.level === 'fail'),
    [],
  );
  assert.ok(
    doctor.checks.some(
      (c) => c.check === 'manager' && c.message === "git's hooks run pre-commit, which runs revtrail's scripts",
    ),
  );
  await dailyFlow(repo, env, 'pre-commit');
  const un = await repo.cli(['uninstall', '--pre-commit']);
  assert.equal(un.code, 0, un.stderr);
  assert.equal(existsSync(join(repo.dir, '.revtrail-hooks')), false);
  assert.equal(existsSync(join(repo.dir, '.pre-commit-config.yaml')), false);
});

async function simpleGitHooksBin(): Promise<string | { skip: string }> {
  const dir = join(CACHE, 'simple-git-hooks_2');
  const bin = join(dir, 'node_modules', '.bin', 'simple-git-hooks');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const got = await runProcess(
      'npm',
      ['install', '--prefix', dir, 'simple-git-hooks@2', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: dir, timeoutMs: 300_000 },
    );
    if (got.code !== 0 || !existsSync(bin))
      return {
        skip: `simple-git-hooks could not be installed from the npm registry: ${(got.stderr || got.stdout).trim().split('\n')[0]}`,
      };
  }
  return bin;
}

test("a simple-git-hooks project (vue's setup): plain install stops and names --simple-git-hooks; that joins revtrail to each hook's command, both run, a reinstall by simple-git-hooks keeps both, uninstall gives package.json back byte for byte", async (t) => {
  const sgh = await simpleGitHooksBin();
  if (typeof sgh !== 'string') return t.skip(sgh.skip);
  const repo = teamRepo();
  symlinkSync(sgh, join(repo.dir, 'node_modules', '.bin', 'simple-git-hooks'));
  const pkg = `{
  "name": "team",
  "private": true,
  "scripts": {
    "postinstall": "simple-git-hooks"
  },
  "simple-git-hooks": {
    "pre-commit": "echo team-pre-commit >> .git/ran",
    "commit-msg": "grep -q '^feat' \\"$1\\" || { echo 'team: not a feat' >&2; exit 1; }"
  }
}
`;
  repo.write('package.json', pkg);
  const first = await runProcess(sgh, [], { cwd: repo.dir });
  assert.equal(first.code, 0, first.stdout);
  assert.match(readFileSync(join(repo.dir, '.git/hooks/commit-msg'), 'utf8'), /SKIP_SIMPLE_GIT_HOOKS/);

  const plain = await repo.cli(['install']);
  assert.equal(plain.code, 1, plain.stdout);
  assert.match(plain.stderr, /runs its hooks with simple-git-hooks \(package\.json "simple-git-hooks"\)/);
  assert.match(plain.stderr, /revtrail install --simple-git-hooks/);
  assert.equal(hooksPath(repo), null, 'nothing switched off');

  const installed = await repo.cli(['install', '--simple-git-hooks']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /ran simple-git-hooks/);
  assert.equal(hooksPath(repo), null);
  const config = (
    JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>
  )['simple-git-hooks']!;
  assert.equal(config['pre-commit'], 'echo team-pre-commit >> .git/ran', 'a hook revtrail does not use is left alone');
  assert.match(
    config['commit-msg']!,
    /^grep -q '\^feat' "\$1" \|\| \{ echo 'team: not a feat' >&2; exit 1; \} && \{ test ! -f \.revtrail-hooks\/commit-msg \|\| sh \.revtrail-hooks\/commit-msg "\$@"; \}$/,
  );
  assert.match(
    config['pre-push']!,
    /^\{ test ! -f \.revtrail-hooks\/pre-push \|\| sh \.revtrail-hooks\/pre-push "\$@"; \}$/,
  );
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'feat: revtrail in simple-git-hooks']);
  const doctor = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
    checks: Array<{ check: string; level: string; message: string }>;
  };
  assert.deepEqual(
    doctor.checks.filter((c) => c.level === 'fail'),
    [],
  );
  assert.ok(doctor.checks.some((c) => c.check === 'manager' && c.message.includes('simple-git-hooks')));

  const flow = async (file: string) => {
    repo.write(file, 'debugger;\n');
    repo.git(['add', file]);
    const bad = await repo.run(['commit', '-q', '-m', 'wip']);
    assert.equal(bad.code, 1, 'the team commit-msg still rejects');
    assert.match(bad.stderr, /team: not a feat/);
    const good = await repo.run(['commit', '-q', '-m', 'feat: x']);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(repo.trailers().length, 1, `revtrail recorded the finding in ${file}`);
  };
  await flow('src/a.js');
  // vue runs simple-git-hooks on every install: its config holds revtrail now, so nothing is lost.
  assert.equal((await runProcess(sgh, [], { cwd: repo.dir })).code, 0);
  await flow('src/b.js');
  assert.equal(readFileSync(join(repo.dir, '.git/ran'), 'utf8'), 'team-pre-commit\n'.repeat(5));

  const un = await repo.cli(['uninstall', '--simple-git-hooks']);
  assert.equal(un.code, 0, un.stderr);
  assert.match(un.stdout, /ran simple-git-hooks: the hooks in git's hooks folder run your commands only/);
  assert.doesNotMatch(un.stdout, /run revtrail now/, 'uninstall never says the hooks run revtrail');
  assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), pkg);
  assert.equal(existsSync(join(repo.dir, '.revtrail-hooks')), false);
  assert.doesNotMatch(readFileSync(join(repo.dir, '.git/hooks/commit-msg'), 'utf8'), /revtrail/);
  repo.write('src/c.js', 'debugger;\n');
  repo.git(['add', 'src/c.js']);
  assert.equal((await repo.run(['commit', '-q', '-m', 'feat: c'])).code, 0);
  assert.equal(repo.trailers().length, 0);
});

test("revtrail install --pre-commit with the team's own config: entries spliced in (every line of theirs kept), the stage-less hook stays at pre-commit, doctor judges HEAD, --no-verify with the config unstaged passes, uninstall gives file and hooks back byte for byte", async (t) => {
  const preCommit = await preCommitBin();
  if (typeof preCommit !== 'string') return t.skip(preCommit.skip);
  const repo = teamRepo();
  const env = { PRE_COMMIT_HOME: join(CACHE, 'pre-commit-home'), PATH: `${join(preCommit, '..')}:${process.env.PATH}` };
  const team = [
    "# The team's checks",
    'repos:',
    '-   repo: local',
    '    hooks:',
    '    -   id: team-check',
    '        name: team check',
    '        entry: sh -c "echo team >> .git/ran"   # stands for flake8',
    '        language: system',
    '        pass_filenames: false',
    '        always_run: true',
    '',
  ].join('\n');
  repo.write('.pre-commit-config.yaml', team);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: pre-commit'], { env });
  assert.equal((await runProcess(preCommit, ['install'], { cwd: repo.dir, env })).code, 0);
  const hooksBefore = gitHookFiles(repo);
  const advice = (await doctorOf(repo)).checks.find((c) => c.check === 'install')!;
  assert.equal(advice.fix, 'revtrail install --pre-commit', 'no husky advice to a pre-commit team');

  const installed = await repo.cli(['install', '--pre-commit'], { env });
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /added revtrail's commit-msg, pre-push to \.pre-commit-config\.yaml/);
  const edited = readFileSync(join(repo.dir, '.pre-commit-config.yaml'), 'utf8');
  // Every line of the team's, in its order and bytes; revtrail's between them.
  const lines = edited.split('\n');
  let at = 0;
  for (const line of team.split('\n')) {
    at = lines.indexOf(line, at);
    assert.notEqual(at, -1, `kept: ${line}`);
    at += 1;
  }
  assert.match(edited, /^default_install_hook_types: \[pre-commit, commit-msg, pre-push\]$/m);
  assert.match(edited, /^default_stages: \[(pre-)?commit\]$/m);
  assert.equal(edited.match(/^ {4}- id: revtrail-/gm)?.length, 2);
  const valid = await runProcess(preCommit, ['validate-config'], { cwd: repo.dir, env });
  assert.equal(valid.code, 0, valid.stdout + valid.stderr);

  const uncommitted = (await doctorOf(repo)).checks.find((c) => c.check === 'pre-commit')!;
  assert.equal(uncommitted.level, 'fail');
  assert.match(uncommitted.message, /the committed one \(HEAD\) does not: a teammate's clone is not reviewed/);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in pre-commit'], { env });
  assert.equal((await runProcess(preCommit, ['install'], { cwd: repo.dir, env })).code, 0);
  const doctor = await doctorOf(repo);
  assert.deepEqual(
    doctor.checks.filter((c) => c.level !== 'ok' && c.level !== 'info'),
    [],
  );
  assert.deepEqual(Object.keys(gitHookFiles(repo)), [...Object.keys(hooksBefore), 'commit-msg', 'pre-push'].sort());

  rmSync(join(repo.dir, '.git', 'ran'), { force: true });
  repo.write('src/a.js', 'debugger;\n');
  repo.git(['add', 'src/a.js']);
  const commit = await repo.run(['commit', '-q', '-m', 'feat: a'], { env });
  assert.equal(commit.code, 0, commit.stdout + commit.stderr);
  assert.equal(
    readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'),
    'team\n',
    'the team hook ran once: at pre-commit only',
  );
  assert.equal(repo.trailers().length, 1);
  assert.match(commit.stdout + commit.stderr, /a\.js:1 bug `debugger` statement left in/, 'verbose: the finding shows');

  // An edit of the config not staged: pre-commit refuses at its own hooks, and revtrail's add none that --no-verify keeps.
  writeFileSync(join(repo.dir, '.pre-commit-config.yaml'), `${edited}# an edit not staged\n`);
  repo.write('src/b.js', 'debugger;\n');
  repo.git(['add', 'src/b.js']);
  const skipped = await repo.run(['commit', '-q', '--no-verify', '-m', 'feat: b'], { env });
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.deepEqual(repo.trailers(), []);
  const warned = (await doctorOf(repo)).checks.find((c) => c.check === 'pre-commit')!;
  assert.equal(warned.level, 'warn', 'an edit not committed is said');
  assert.match(warned.message, /has changes that are not committed/);
  repo.git(['checkout', '--', '.pre-commit-config.yaml']);

  const un = await repo.cli(['uninstall', '--pre-commit']);
  assert.equal(un.code, 0, un.stderr);
  assert.equal(readFileSync(join(repo.dir, '.pre-commit-config.yaml'), 'utf8'), team);
  assert.deepEqual(gitHookFiles(repo), hooksBefore);
  assert.equal(existsSync(join(repo.dir, '.revtrail-hooks')), false);
  rmSync(join(repo.dir, '.git', 'ran'), { force: true });
  repo.write('src/c.js', 'debugger;\n');
  repo.git(['add', '-A']);
  const next = await repo.run(['commit', '-q', '-m', 'chore: revtrail out'], { env });
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.doesNotMatch(next.stdout + next.stderr, /cannot open|revtrail-hooks/);
  assert.equal(readFileSync(join(repo.dir, '.git', 'ran'), 'utf8'), 'team\n');
  assert.deepEqual(repo.trailers(), []);
});
