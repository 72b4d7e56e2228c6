/**
 * The README's install, walked as a team would: the person who sets revtrail up runs the
 * "Install into a repository" lines word for word (the tarball comes from this checkout's `npm
 * pack`, made in a folder named `revtrail` beside the team's repository, as the README's clone
 * would leave it); the folder is then removed, and a teammate clones the team's repository into
 * another place, runs `npm install` with an empty npm cache (revtrail must come from the
 * committed vendor/ tarball, by a relative path) and goes through the daily flow: the hooks were
 * set up by `prepare`, a commit is reviewed, the push is blocked, a verdict opens it.
 * revtrail's own dependencies come from the npm registry, as for any package; the author's
 * install uses the suite's shared cache, the teammate's an empty one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, projectRoot, runProcess, tempDir, type CliRun, copyPackageSource } from '../kit/repo.js';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const SHARED_CACHE = join(tmpdir(), 'revtrail-pm-clients', 'npm-cache');

/** The shell lines of the README section under `heading`, without comments. */
function sectionLines(heading: string): string[] {
  const start = readme.indexOf(`## ${heading}\n`);
  assert.notEqual(start, -1, `README has "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 3);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const lines: string[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) {
      const code = line
        .replace(/\s+#.*$/, '')
        .replace(/^#.*$/, '')
        .trim();
      if (code) lines.push(code);
    }
  }
  return lines;
}

/**
 * What `git clone … ../revtrail && (cd ../revtrail && npm install && npm pack)` leaves in `work`:
 * this checkout's files, built, and the real `npm pack`'s tarball; beside it the team's `app`.
 */
async function packedBeside(work: string) {
  const revtrail = join(work, 'revtrail');
  copyPackageSource(revtrail);
  const packed = await runProcess('npm', ['pack', '--silent'], {
    cwd: revtrail,
    env: { REVTRAIL_PACK_BUILT: '1' },
    timeoutMs: 120_000,
  });
  assert.equal(packed.code, 0, packed.stderr);
  const author = makeRepo({ dir: join(work, 'app') });
  author.write('package.json', '{\n  "name": "app",\n  "version": "1.0.0",\n  "private": true\n}\n');
  author.write('.gitignore', 'node_modules/\n');
  author.commit('chore: start');
  return { revtrail, author };
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  return runProcess('sh', ['-c', line], { cwd, env, timeoutMs: 300_000 });
}

test("the README's install, from a fresh clone with an empty npm cache, gives a teammate working hooks", async () => {
  const setup = sectionLines('Install into a repository');
  const work = tempDir('revtrail-team-');
  // What `git clone … ../revtrail && (cd ../revtrail && npm install && npm pack)` leaves: this
  // checkout's files, built; the pack itself is the real `npm pack`.
  const cloneLine = setup.find((l) => l.startsWith('git clone <revtrail'));
  assert.equal(cloneLine, "git clone <revtrail's git URL> ../revtrail && (cd ../revtrail && npm install && npm pack)");
  const { revtrail, author } = await packedBeside(work);
  const authorEnv = { npm_config_cache: SHARED_CACHE, npm_config_audit: 'false', npm_config_fund: 'false' };
  const rest = setup.slice(setup.indexOf(cloneLine) + 1);
  const cloneAt = rest.findIndex((l) => l.startsWith('git clone <your repository>'));
  assert.notEqual(cloneAt, -1, "README shows the teammate's clone");
  for (const line of rest.slice(0, cloneAt)) {
    const ran = await sh(line, author.dir, authorEnv);
    assert.equal(ran.code, 0, `${line}\n${ran.stdout}\n${ran.stderr}`);
  }
  const pkg = JSON.parse(readFileSync(join(author.dir, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
    scripts: Record<string, string>;
  };
  assert.equal(pkg.devDependencies.revtrail, 'file:vendor/revtrail-0.1.0.tgz');
  assert.equal(pkg.scripts.prepare, 'revtrail install --from-prepare || true');
  assert.equal(
    author.git(['status', '--porcelain', '--untracked-files=all']),
    '',
    'everything the install wrote is committed',
  );
  assert.ok(author.git(['ls-files', 'vendor']).includes('vendor/revtrail-0.1.0.tgz'));
  // Nothing outside the team's repository is needed from here on.
  rmSync(revtrail, { recursive: true, force: true });

  const elsewhere = tempDir('revtrail-teammate-');
  const emptyCache = tempDir('revtrail-empty-npm-cache-');
  const mateEnv = { npm_config_cache: emptyCache, npm_config_audit: 'false', npm_config_fund: 'false' };
  const teammate = rest.slice(cloneAt);
  assert.deepEqual(teammate, ['git clone <your repository> app && cd app', 'npm install', 'npx revtrail doctor']);
  const cloned = await sh(`git clone -q '${author.dir}' app`, elsewhere, mateEnv);
  assert.equal(cloned.code, 0, cloned.stderr);
  const clone = join(elsewhere, 'app');
  const installed = await sh('npm install', clone, mateEnv);
  assert.equal(installed.code, 0, `npm install with an empty cache:\n${installed.stdout}\n${installed.stderr}`);
  assert.doesNotMatch(installed.stderr, /ENOENT/);
  assert.ok(
    existsSync(join(clone, 'node_modules', 'revtrail', 'docs', 'hooks.md')),
    "the README's docs/ links work inside node_modules",
  );
  assert.ok(existsSync(join(clone, 'node_modules', 'revtrail', 'LICENSE')));
  const doctor = await sh('npx revtrail doctor', clone, mateEnv);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.match(doctor.stdout, /core\.hooksPath = \.husky\/_/);

  // The daily flow: commit (reviewed, recorded), push (blocked), a verdict, push again.
  const git = (args: string[]) => runProcess('git', args, { cwd: clone, env: mateEnv });
  const bare = makeRepo({ bare: true });
  await git(['remote', 'set-url', 'origin', bare.dir]);
  mkdirSync(join(clone, 'src'));
  await sh("printf 'debugger;\\n' > src/a.js && git add src/a.js", clone, mateEnv);
  const commit = await git(['commit', '-q', '-m', 'feat: a']);
  assert.equal(commit.code, 0, commit.stderr);
  // Long rows are folded (docs/trailers.md "Folding"): a fold is a newline and one space.
  const row =
    (await git(['log', '-1', '--format=%B'])).stdout.replace(/\n /g, '').match(/^Review-Finding: (.*)$/m)?.[1] ?? '';
  assert.match(
    row,
    /^rf-[0-9a-f]{10},src\/a\.js,1,builtin\/debug:debugger,.*,OPEN,$/,
    `the commit-msg hook recorded the finding: ${commit.stderr}`,
  );
  const id = row.split(',')[0]!;
  const blocked = await git(['push', '-q', 'origin', 'HEAD:refs/heads/main']);
  assert.equal(blocked.code, 1, blocked.stderr);
  assert.match(blocked.stderr, new RegExp(id));
  const defer = 'npx revtrail verdict rf-0b9e55d1aa DEFER "tracked in #42, due 2027-01"';
  assert.ok(readme.includes(defer), 'the README shows the DEFER');
  const verdict = await sh(defer.replace('rf-0b9e55d1aa', id), clone, mateEnv);
  assert.equal(verdict.code, 0, verdict.stderr);
  assert.ok(readme.includes('git commit --allow-empty -m "Record review verdicts"'));
  assert.equal((await git(['commit', '-q', '--allow-empty', '-m', 'Record review verdicts'])).code, 0);
  const pushed = await git(['push', '-q', 'origin', 'HEAD:refs/heads/main']);
  assert.equal(pushed.code, 0, pushed.stderr);
});

test("the README's pnpm install, under pnpm 10 with strictDepBuilds (pnpm 11's default): no install refuses or warns, a teammate's clone gets the hooks", async (t) => {
  const dir = join(tmpdir(), 'revtrail-pm-clients', 'pnpm_10');
  const pnpm = join(dir, 'node_modules', '.bin', 'pnpm');
  if (!existsSync(pnpm)) {
    mkdirSync(dir, { recursive: true });
    const got = await runProcess('npm', ['install', '--prefix', dir, 'pnpm@10', '--no-audit', '--no-fund'], {
      cwd: dir,
      timeoutMs: 300_000,
    });
    if (got.code !== 0 || !existsSync(pnpm))
      return t.skip(`pnpm 10 could not be installed: ${got.stderr.trim().split('\n')[0]}`);
  }
  const lines = sectionLines('Install with pnpm');
  const work = tempDir('revtrail-team-pnpm-');
  const { revtrail, author } = await packedBeside(work);
  mkdirSync(join(author.dir, 'vendor'));
  const moved = await sh(`mv '${join(revtrail, 'revtrail-0.1.0.tgz')}' vendor/`, author.dir, {});
  assert.equal(moved.code, 0, moved.stderr);
  const env = {
    PATH: `${join(dir, 'node_modules', '.bin')}:${process.env.PATH}`,
    CI: 'true',
    npm_config_strict_dep_builds: 'true',
    npm_config_store_dir: join(tmpdir(), 'revtrail-pm-clients', 'pnpm-store'),
  };
  for (const line of lines) {
    const ran = await sh(line, author.dir, env);
    assert.equal(ran.code, 0, `${line}\n${ran.stdout}\n${ran.stderr}`);
    assert.doesNotMatch(ran.stdout + ran.stderr, /Ignored build scripts|approve-builds/, line);
  }
  assert.equal(author.git(['status', '--porcelain', '--untracked-files=all']), '', 'everything is committed');
  const clone = join(tempDir('revtrail-teammate-pnpm-'), 'app');
  assert.equal((await sh(`git clone -q '${author.dir}' '${clone}'`, work, {})).code, 0);
  const installed = await sh('pnpm install', clone, env);
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  assert.doesNotMatch(installed.stdout + installed.stderr, /Ignored build scripts|approve-builds/);
  const doctor = await sh('pnpm exec revtrail doctor', clone, env);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.match(doctor.stdout, /core\.hooksPath = \.husky\/_/);
  assert.match(doctor.stdout, /pnpm-workspace\.yaml decides the install scripts/);
});
