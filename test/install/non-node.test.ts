/**
 * Repositories that are not Node projects (docs/hooks.md "Repositories that are not Node
 * projects"): no package.json, no node_modules in the team's repository. Two routes, each with the
 * real manager: lefthook's `remotes` entry naming revtrail's hooks/lefthook.yml, with revtrail on
 * PATH (a user-level install); and the pre-commit framework's `repo:` entry, which installs
 * revtrail from .pre-commit-hooks.yaml into its own environment (`language: node`, the system
 * Node). revtrail's side is a bare copy of this checkout's committed tree, so no network is
 * needed for git; the pre-commit environment runs `npm install` (npm's cache first) and is
 * skipped with the reason where that cannot be had. A teammate's fresh clone is reviewed after
 * the manager's own install step: a commit records its finding, a push is blocked, a verdict
 * and a commit let it through.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, makeRepo, projectRoot, runProcess, tempDir, type TestRepo } from '../kit/repo.js';
import { withRun, type HookRepo } from '../kit/hooks.js';

const CACHE = join(tmpdir(), 'revtrail-pm-clients');
const made: Array<{ cleanup(): void }> = [];
after(() =>
  made.forEach((r) => {
    r.cleanup();
  }),
);

const SQL = 'def user(db, user_id):\n    return db.execute("SELECT * FROM users WHERE id = " + user_id)\n';

/**
 * A bare repository holding this checkout's committed tree as one commit with fixed dates: the
 * same tree gives the same commit, so the pre-commit framework reuses its environment between runs.
 */
async function publishRevtrail(): Promise<{ url: string; rev: string }> {
  const bare = makeRepo({ bare: true });
  made.push(bare);
  const fixed = {
    GIT_AUTHOR_NAME: 'revtrail',
    GIT_AUTHOR_EMAIL: 'revtrail@example.com',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_NAME: 'revtrail',
    GIT_COMMITTER_EMAIL: 'revtrail@example.com',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
  const tree = await runProcess('git', ['rev-parse', 'HEAD^{tree}'], { cwd: projectRoot });
  assert.equal(tree.code, 0, tree.stderr);
  const commit = await runProcess('git', ['commit-tree', tree.stdout.trim(), '-m', 'revtrail'], {
    cwd: projectRoot,
    env: fixed,
  });
  assert.equal(commit.code, 0, commit.stderr);
  const rev = commit.stdout.trim();
  const pushed = await runProcess('git', ['push', '-q', bare.dir, `${rev}:refs/heads/main`], { cwd: projectRoot });
  assert.equal(pushed.code, 0, pushed.stderr);
  return { url: bare.dir, rev };
}

/** A Python project's origin with the team's config at main, and a teammate's fresh clone of it. */
function pythonTeam(files: Record<string, string>): { origin: TestRepo; clone: () => HookRepo } {
  const lead = makeRepo();
  made.push(lead);
  lead.write('pyproject.toml', '[project]\nname = "app"\nversion = "0.1.0"\n');
  lead.write('src/app/__init__.py', '');
  lead.write('revtrail.config.json', '{}\n');
  for (const [path, text] of Object.entries(files)) lead.write(path, text);
  lead.commit('chore: start');
  const origin = makeRepo({ bare: true });
  made.push(origin);
  lead.git(['push', '-q', origin.dir, 'main']);
  return {
    origin,
    clone: () => {
      const repo = withRun(makeRepo());
      made.push(repo);
      repo.git(['remote', 'add', 'origin', origin.dir]);
      repo.git(['fetch', '-q', 'origin']);
      repo.git(['reset', '-q', '--hard', 'origin/main']);
      repo.git(['branch', '-q', '--set-upstream-to=origin/main']);
      return repo;
    },
  };
}

/** The daily flow in a teammate's clone: a finding recorded, the push blocked, answered, through. */
async function dailyFlow(repo: HookRepo, env: NodeJS.ProcessEnv, cli: string[]): Promise<void> {
  repo.write('src/app/users.py', SQL);
  repo.git(['add', '-A']);
  const commit = await repo.run(['commit', '-m', 'feat: look a user up'], { env });
  assert.equal(commit.code, 0, commit.stdout + commit.stderr);
  const [row] = repo.trailers();
  assert.match(row ?? '', /^rf-[0-9a-f]{10},src\/app\/users\.py,2,builtin\/injection:sql-concat,.*,OPEN,$/);
  const id = row!.split(',')[0]!;
  const blocked = await repo.run(['push', 'origin', 'main'], { env });
  assert.notEqual(blocked.code, 0, 'a blocking finding stops the push');
  assert.match(blocked.stdout + blocked.stderr, new RegExp(`revtrail verdict ${id} `));
  const verdict = await runProcess(cli[0]!, [...cli.slice(1), 'verdict', id, 'DEFER', 'parameterised in #12 by v0.2'], {
    cwd: repo.dir,
    env,
  });
  assert.equal(verdict.code, 0, verdict.stdout + verdict.stderr);
  const record = await repo.run(['commit', '--allow-empty', '-m', 'chore: record review verdicts'], { env });
  assert.equal(record.code, 0, record.stdout + record.stderr);
  assert.ok(repo.trailers().some((r) => r.startsWith(`${id},`) && r.includes(',DEFER,')));
  const through = await repo.run(['push', 'origin', 'main'], { env });
  assert.equal(through.code, 0, through.stdout + through.stderr);
  assert.equal(existsSync(join(repo.dir, 'package.json')), false);
  assert.equal(existsSync(join(repo.dir, 'node_modules')), false);
  assert.equal(repo.git(['status', '--porcelain']), '', 'nothing left in the work tree');
}

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
      return { skip: `lefthook could not be installed from the npm registry: ${got.stderr.trim().split('\n')[0]}` };
  }
  return bin;
}

test("lefthook's remotes entry with revtrail on PATH: a Python clone with no package.json is reviewed after lefthook install; without revtrail on PATH one line says the check is skipped", async (t) => {
  const lefthook = await lefthookBin();
  if (typeof lefthook !== 'string') return t.skip(lefthook.skip);
  const revtrail = await publishRevtrail();
  const team = pythonTeam({
    'lefthook.yml': `# the team's own check\npre-commit:\n  commands:\n    no-breakpoint:\n      run: "! grep -rn 'breakpoint()' src"\nremotes:\n  - git_url: ${revtrail.url}\n    ref: main\n    configs:\n      - hooks/lefthook.yml\n`,
  });
  // A user-level install: `revtrail` on PATH (npm i -g revtrail puts the same command there).
  const bin = tempDir();
  writeFileSync(join(bin, 'revtrail'), `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' "$@"\n`);
  chmodSync(join(bin, 'revtrail'), 0o755);
  const env = { PATH: `${bin}:${join(lefthook, '..')}:${process.env.PATH}` };
  const repo = team.clone();
  const installed = await runProcess(lefthook, ['install'], { cwd: repo.dir, env });
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  for (const hook of ['commit-msg', 'pre-push']) assert.ok(existsSync(join(repo.dir, '.git', 'hooks', hook)), hook);
  // The team's own check still runs.
  repo.write('src/app/debug.py', 'breakpoint()\n');
  repo.git(['add', '-A']);
  const theirs = await repo.run(['commit', '-m', 'feat: debug'], { env });
  assert.notEqual(theirs.code, 0, 'the team hook stops it');
  repo.git(['rm', '-q', '--cached', 'src/app/debug.py']);
  repo.git(['clean', '-qfx', 'src']);
  await dailyFlow(repo, env, [join(bin, 'revtrail')]);
  // A teammate without revtrail on PATH: one line, the commit goes on.
  const bare = { PATH: `${join(lefthook, '..')}:/usr/bin:/bin` };
  const without = await repo.run(['commit', '--allow-empty', '-m', 'chore: no revtrail here'], { env: bare });
  assert.equal(without.code, 0, without.stdout + without.stderr);
  assert.match(
    without.stdout + without.stderr,
    /revtrail: not on PATH \(install it for your user: npm i -g\); commit-msg check skipped/,
  );
});

test("the pre-commit framework's repo: entry (.pre-commit-hooks.yaml, language node): a Python clone with no package.json is reviewed after pre-commit install --hook-type commit-msg --hook-type pre-push", async (t) => {
  if (!existsSync('/usr/bin/pre-commit'))
    return t.skip('no pre-commit framework here (Debian: apt-get install pre-commit)');
  const revtrail = await publishRevtrail();
  const team = pythonTeam({
    '.pre-commit-config.yaml': `repos:\n  - repo: local\n    hooks:\n      - id: no-breakpoint\n        name: no breakpoint() left in\n        entry: 'breakpoint\\(\\)'\n        language: pygrep\n        types: [python]\n  - repo: ${revtrail.url}\n    rev: ${revtrail.rev}\n    hooks:\n      - id: revtrail-commit-msg\n      - id: revtrail-pre-push\n`,
  });
  // npm's cache first: the environment's `npm install` needs no network where the cache has it.
  const env = { PRE_COMMIT_HOME: join(CACHE, 'pre-commit-repo-home'), npm_config_prefer_offline: 'true' };
  const repo = team.clone();
  const installed = await runProcess(
    '/usr/bin/pre-commit',
    ['install', '--hook-type', 'commit-msg', '--hook-type', 'pre-push'],
    {
      cwd: repo.dir,
      env,
    },
  );
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  // pre-commit builds revtrail's environment on the first hook it runs (npm install, npm pack,
  // npm install -g of the tarball): once per revtrail tree, then reused.
  const ready = await runProcess('/usr/bin/pre-commit', ['install-hooks'], { cwd: repo.dir, env, timeoutMs: 900_000 });
  if (ready.code !== 0) {
    const why = (ready.stdout + ready.stderr).split('\n').find((l) => /npm (error|ERR)/.test(l));
    if (why && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|network/i.test(ready.stdout + ready.stderr))
      return t.skip(`revtrail's pre-commit environment needs packages npm cannot get here: ${why.trim()}`);
    assert.fail(ready.stdout + ready.stderr);
  }
  await dailyFlow(repo, env, [process.execPath, cliPath]);
  // One environment per revtrail tree: those of earlier trees go (about 450 MB each).
  const gc = await runProcess('/usr/bin/pre-commit', ['gc'], { cwd: repo.dir, env });
  assert.equal(gc.code, 0, gc.stdout + gc.stderr);
});
