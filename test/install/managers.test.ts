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
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
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

async function lefthookBin(): Promise<string | { skip: string }> {
  const dir = join(CACHE, 'lefthook_2');
  const bin = join(dir, 'node_modules', '.bin', 'lefthook');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const got = await runProcess(
      'npm',
      ['install', '--prefix', dir, 'lefthook@2', '--no-audit', '--no-fund', '--loglevel=error'],
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
  const lh = await runProcess(lefthook, ['install'], { cwd: repo.dir });
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
  await dailyFlow(repo, { LEFTHOOK_QUIET: 'meta,summary,success' }, 'lefthook');
  assert.equal((await repo.cli(['install', '--lefthook'])).code, 0, 'idempotent');
  assert.equal(repo.git(['status', '--porcelain']), '');
  const un = await repo.cli(['uninstall', '--lefthook']);
  assert.equal(un.code, 0, un.stderr);
  assert.equal(existsSync(join(repo.dir, '.lefthook')), false);
  assert.equal(existsSync(join(repo.dir, 'lefthook.yml')), false);
});

test("revtrail install --lefthook with the team's own lefthook.yml: it is not edited; the entries to add are printed", async () => {
  const repo = teamRepo();
  const mine = 'pre-commit:\n  commands:\n    lint:\n      run: npm run lint\n';
  repo.write('lefthook.yml', mine);
  const installed = await repo.cli(['install', '--lefthook']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.equal(readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8'), mine);
  assert.match(
    installed.stdout,
    /lefthook\.yml is your team's: add these entries to it[\s\S]*pre-push:\n {2}scripts:\n {4}"revtrail":\n {6}runner: sh\n {6}use_stdin: true/,
  );
});

test('revtrail install --pre-commit: scripts in .revtrail-hooks/ and repo: local hooks, run by the real pre-commit framework (which hands pre-push over as variables)', async (t) => {
  const preCommit = await preCommitBin();
  if (typeof preCommit !== 'string') return t.skip(preCommit.skip);
  const repo = teamRepo();
  const installed = await repo.cli(['install', '--pre-commit']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /created \.pre-commit-config\.yaml\n/);
  assert.equal(hooksPath(repo), null);
  const config = readFileSync(join(repo.dir, '.pre-commit-config.yaml'), 'utf8');
  assert.match(config, /- repo: local\n/);
  // The team's hooks without `stages` stay at pre-commit; revtrail's output is shown.
  assert.match(config, /^default_stages: \[(pre-)?commit\]$/m);
  assert.equal(config.match(/^ {8}verbose: true$/gm)?.length, 7);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in pre-commit']);
  const env = { PRE_COMMIT_HOME: join(CACHE, 'pre-commit-home'), PATH: `${join(preCommit, '..')}:${process.env.PATH}` };
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
  assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), pkg);
  assert.equal(existsSync(join(repo.dir, '.revtrail-hooks')), false);
  assert.doesNotMatch(readFileSync(join(repo.dir, '.git/hooks/commit-msg'), 'utf8'), /revtrail/);
  repo.write('src/c.js', 'debugger;\n');
  repo.git(['add', 'src/c.js']);
  assert.equal((await repo.run(['commit', '-q', '-m', 'feat: c'])).code, 0);
  assert.equal(repo.trailers().length, 0);
});

test("pre-commit with the team's own config: its stage-less hook stays at pre-commit (default_stages), doctor says when it would not, the findings show", async (t) => {
  const preCommit = await preCommitBin();
  if (typeof preCommit !== 'string') return t.skip(preCommit.skip);
  const { parse, stringify } = await import('yaml');
  const repo = teamRepo();
  const team = {
    repos: [
      {
        repo: 'local',
        hooks: [
          {
            id: 'team-check',
            name: 'team check',
            entry: 'sh -c "echo team >> .git/ran"',
            language: 'system',
            pass_filenames: false,
            always_run: true,
          },
        ],
      },
    ],
  };
  repo.write('.pre-commit-config.yaml', stringify(team));
  const installed = await repo.cli(['install', '--pre-commit']);
  assert.equal(installed.code, 0, installed.stderr);
  const printed = parse(
    installed.stdout.split('revtrail does not edit it):\n\n')[1]!.split('\n  the hooks run')[0]!,
  ) as {
    default_install_hook_types: string[];
    default_stages: string[];
    repos: Array<{ hooks: unknown[] }>;
  };
  // Pasted as a person would, first without the stage default.
  const merged = {
    default_install_hook_types: printed.default_install_hook_types,
    repos: [{ ...team.repos[0]!, hooks: [...team.repos[0]!.hooks, ...printed.repos[0]!.hooks] }],
  };
  repo.write('.pre-commit-config.yaml', stringify(merged));
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: revtrail in pre-commit']);
  const env = { PRE_COMMIT_HOME: join(CACHE, 'pre-commit-home'), PATH: `${join(preCommit, '..')}:${process.env.PATH}` };
  assert.equal((await runProcess(preCommit, ['install'], { cwd: repo.dir, env })).code, 0);
  const loose = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
    checks: Array<{ check: string; level: string; message: string; fix?: string }>;
  };
  const check = loose.checks.find((c) => c.check === 'pre-commit');
  assert.equal(check?.level, 'fail');
  assert.match(check!.message, /has no default_stages: team-check \(no stages of their own\) run at every one of them/);
  assert.match(check!.fix!, /default_stages: \[pre-commit\]/);

  repo.write('.pre-commit-config.yaml', stringify({ ...merged, default_stages: printed.default_stages }));
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'chore: stage default'], { env });
  const fixed = JSON.parse((await repo.cli(['doctor', '--json'])).stdout) as {
    checks: Array<{ check: string; level: string }>;
  };
  assert.equal(fixed.checks.find((c) => c.check === 'pre-commit')?.level, 'ok');
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
});
