/**
 * A teammate's fresh clone gets working hooks under every package manager, with the real
 * clients: npm, pnpm (strict node_modules: husky's bin is not linked for the project), yarn
 * classic, yarn berry (node-modules linker; it never runs a root `prepare`) and bun. revtrail is
 * installed from the tarball `npm pack` makes of this checkout, as a user would before it is
 * published. The clients come from the npm registry into a reusable cache folder; a client that
 * cannot be had is skipped with the reason.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  makeRepo,
  projectRoot,
  runProcess,
  tempDir,
  testEnv,
  type CliRun,
  type TestRepo,
  copyPackageSource,
} from '../kit/repo.js';

const CACHE = join(tmpdir(), 'revtrail-pm-clients');
const work = tempDir('revtrail-pm-');
const made: TestRepo[] = [];
after(() => {
  made.forEach((r) => {
    r.cleanup();
  });
  rmSync(work, { recursive: true, force: true });
});

interface Client {
  name: string;
  /** npm package and version range of the client. */
  spec: string;
  bin: string;
  /** Install arguments for the author's first install (no lockfile yet) and the teammate's. */
  install: string[];
  env: NodeJS.ProcessEnv;
  files?: Record<string, string>;
  lockfile: string;
  script: 'prepare' | 'postinstall';
}

const clients: Client[] = [
  {
    name: 'pnpm',
    spec: 'pnpm@9',
    bin: 'pnpm',
    install: ['install', '--no-frozen-lockfile', '--store-dir', join(CACHE, 'pnpm-store')],
    env: {},
    lockfile: 'pnpm-lock.yaml',
    script: 'prepare',
  },
  {
    name: 'yarn classic',
    spec: 'yarn@1',
    bin: 'yarn',
    install: ['install', '--non-interactive', '--cache-folder', join(CACHE, 'yarn1-cache')],
    env: {},
    lockfile: 'yarn.lock',
    script: 'prepare',
  },
  {
    name: 'yarn berry',
    spec: '@yarnpkg/cli-dist@4',
    bin: 'yarn',
    install: ['install'],
    // CI=true makes berry refuse to write a lockfile; the author's first install writes one.
    env: {
      YARN_ENABLE_IMMUTABLE_INSTALLS: 'false',
      YARN_ENABLE_TELEMETRY: '0',
      YARN_CACHE_FOLDER: join(CACHE, 'berry-cache'),
      YARN_ENABLE_GLOBAL_CACHE: 'false',
    },
    files: { '.yarnrc.yml': 'nodeLinker: node-modules\n' },
    lockfile: 'yarn.lock',
    script: 'postinstall',
  },
  {
    name: 'bun',
    spec: 'bun@1',
    bin: 'bun',
    install: ['install'],
    env: { BUN_INSTALL_CACHE_DIR: join(CACHE, 'bun-cache') },
    lockfile: 'bun.lock',
    script: 'prepare',
  },
];

let tarball = '';

/** The tarball of this checkout, made by the real `npm pack` (its prepack/postpack included). */
before(() => {
  const stage = join(work, 'stage');
  mkdirSync(stage);
  copyPackageSource(stage);
  // The suite runs on a fresh build already: prepack need not build again.
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: stage,
    env: { ...process.env, REVTRAIL_PACK_BUILT: '1' },
    encoding: 'utf8',
  });
  // A name of its own: yarn classic caches a file: tarball under its path, and would install an
  // older build of revtrail 0.1.0 from an earlier run.
  tarball = join(work, `revtrail-${process.pid}-${Date.now()}.tgz`);
  renameSync(join(work, out.trim().split('\n').at(-1)!), tarball);
  assert.equal(
    readFileSync(join(stage, 'package.json'), 'utf8'),
    readFileSync(join(projectRoot, 'package.json'), 'utf8'),
    'postpack restored package.json',
  );
});

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runProcess(command, args, { cwd, env, timeoutMs: 300_000 });
}

/** The client's executable, installed once into the cache folder; a string: why it cannot be had. */
async function clientBin(client: Client): Promise<string | { skip: string }> {
  const dir = join(CACHE, client.spec.replace(/[@/]/g, '_'));
  const bin = join(dir, 'node_modules', '.bin', client.bin);
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const got = await run(
      'npm',
      ['install', '--prefix', dir, client.spec, '--no-audit', '--no-fund', '--loglevel=error'],
      dir,
    );
    if (got.code !== 0 || !existsSync(bin))
      return {
        skip: `${client.spec} could not be installed from the npm registry: ${(got.stderr || got.stdout).trim().split('\n')[0]}`,
      };
  }
  const version = await run(bin, ['--version'], dir);
  if (version.code !== 0) return { skip: `${client.spec} does not run here: ${version.stderr.trim().split('\n')[0]}` };
  return bin;
}

/** The author installs revtrail and runs `revtrail install`; a teammate clones and installs. */
async function freshClone(name: string, install: (cwd: string) => Promise<CliRun>, files: Record<string, string>) {
  const pkg = {
    name: `app-${name.replace(/\W/g, '-')}`,
    version: '1.0.0',
    private: true,
    devDependencies: { revtrail: `file:${tarball}` },
  };
  // Beside the tarball, as the clone is: yarn classic writes the path relative to the project.
  const author = makeRepo({ dir: join(work, pkg.name) });
  made.push(author);
  author.write('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  author.write('.gitignore', 'node_modules/\n.yarn/\n.pnp.*\n');
  for (const [path, content] of Object.entries(files)) author.write(path, content);
  const first = await install(author.dir);
  assert.equal(first.code, 0, `${name}, author's install:\n${first.stdout}\n${first.stderr}`);
  const installed = await run(join(author.dir, 'node_modules', '.bin', 'revtrail'), ['install'], author.dir);
  assert.equal(installed.code, 0, installed.stderr);
  author.commit('chore: revtrail hooks');

  const teammate = join(work, `${pkg.name}-clone`);
  execFileSync('git', ['clone', '-q', author.dir, teammate]);
  const second = await install(teammate);
  return { author, installed, second, clone: teammate };
}

const gitIn = (dir: string, args: string[]) =>
  execFileSync('git', args, { cwd: dir, env: testEnv(), encoding: 'utf8' });

async function assertHooksWork(name: string, dir: string, second: CliRun) {
  assert.equal(second.code, 0, `${name}, teammate's install:\n${second.stdout}\n${second.stderr}`);
  assert.doesNotMatch(second.stdout + second.stderr, /husky: not found|command not found/);
  const hooksPath = (() => {
    try {
      return gitIn(dir, ['config', 'core.hooksPath']).trim();
    } catch {
      return null;
    }
  })();
  assert.equal(
    hooksPath,
    '.husky/_',
    `${name}: the install set core.hooksPath; it said:\n${second.stdout}\n${second.stderr}`,
  );
  assert.ok(existsSync(join(dir, '.husky', '_', 'h')), `${name}: husky's runner is in place`);
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.js'), 'debugger;\n');
  gitIn(dir, ['add', '-A']);
  gitIn(dir, ['commit', '-q', '-m', 'feat: a']);
  const trailers = gitIn(dir, ['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly)']);
  assert.match(
    trailers,
    /^rf-[0-9a-f]{10},src\/a\.js,1,builtin\/debug:debugger,/,
    `${name}: the commit-msg hook ran revtrail`,
  );
}

test('the tarball carries the built CLI and no development prepare script', async () => {
  const manifest = execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' });
  const scripts = (JSON.parse(manifest) as { scripts?: Record<string, string> }).scripts ?? {};
  assert.equal(scripts.prepare, undefined);
  const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  assert.ok(listed.includes('package/dist/cli/revtrail.js'), 'the built CLI is in the tarball');
  assert.ok(!listed.some((f) => f.startsWith('package/scripts/')), 'no build scripts');
  // The README links into docs/ and names the licence: both must be there in node_modules.
  for (const file of ['package/LICENSE', 'package/docs/README.md', 'package/docs/hooks.md', 'package/docs/stats.md'])
    assert.ok(listed.includes(file), file);
});

// The clients install side by side: the time goes on fetching and linking, not on the CPU.
describe("a teammate's fresh clone", { concurrency: true }, () => {
  test('npm: a fresh clone plus npm install has working hooks', async () => {
    const { installed, second, clone } = await freshClone(
      'npm',
      (cwd) => run('npm', ['install', '--no-audit', '--no-fund'], cwd),
      {},
    );
    assert.match(
      installed.stdout,
      /added "prepare": "revtrail install --from-prepare \|\| true" to package\.json \(npm install/,
    );
    // revtrail's own scripts never run in a user's install. ast-grep's language packages carry a
    // postinstall that builds a parser only where no prebuilt one ships (docs/hooks.md "pnpm"):
    // install decided them in "allowScripts", so npm 11 lists nothing a user must decide about.
    const output = second.stdout + second.stderr;
    assert.doesNotMatch(output, /scripts\/build\.mjs|revtrail@/, "no warning about revtrail's own scripts");
    assert.match(installed.stdout, /"allowScripts" in package\.json: false for revtrail's @ast-grep parsers/);
    assert.doesNotMatch(output, /allowScripts|install-scripts {3}/, output);
    await assertHooksWork('npm', clone, second);
  });

  test("pnpm 10 with strictDepBuilds (pnpm 11's default): revtrail install decides the parsers' scripts in pnpm-workspace.yaml, so no install of the team's warns or fails", async (t) => {
    const bin = await clientBin({ ...clients[0]!, name: 'pnpm 10', spec: 'pnpm@10' });
    if (typeof bin !== 'string') return t.skip(bin.skip);
    const strict = (cwd: string) =>
      run(bin, [...clients[0]!.install, '--config.strict-dep-builds=true'], cwd, { CI: 'true' });
    const author = makeRepo({ dir: join(work, 'app-pnpm-strict') });
    made.push(author);
    author.write(
      'package.json',
      `${JSON.stringify({ name: 'app-pnpm-strict', private: true, devDependencies: { revtrail: `file:${tarball}` } }, null, 2)}\n`,
    );
    author.write('.gitignore', 'node_modules/\n');
    const first = await strict(author.dir);
    assert.equal(first.code, 1, 'the first install, before revtrail install, is refused');
    assert.match(first.stdout + first.stderr, /ERR_PNPM_IGNORED_BUILDS.*@ast-grep\/lang-go/);
    // A team on pnpm has it on PATH: revtrail asks it for its version (pnpm 9 needs nothing).
    const installed = await run(join(author.dir, 'node_modules', '.bin', 'revtrail'), ['install'], author.dir, {
      PATH: `${dirname(bin)}:${process.env.PATH}`,
    });
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /pnpm-workspace\.yaml: allowBuilds false for revtrail's @ast-grep parsers/);
    // pnpm keeps the first install's ignored builds in node_modules: revtrail says to install afresh once.
    assert.match(installed.stdout, /rm -rf node_modules && pnpm install, once/);
    rmSync(join(author.dir, 'node_modules', '.pnpm'), { recursive: true, force: true });
    rmSync(join(author.dir, 'node_modules', '.modules.yaml'), { force: true });
    const again = await strict(author.dir);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.doesNotMatch(again.stdout + again.stderr, /Ignored build scripts|approve-builds/);
    author.commit('chore: revtrail hooks');
    const clone = join(work, 'app-pnpm-strict-clone');
    execFileSync('git', ['clone', '-q', author.dir, clone]);
    const second = await strict(clone);
    assert.doesNotMatch(second.stdout + second.stderr, /Ignored build scripts|approve-builds/);
    await assertHooksWork('pnpm 10 strict', clone, second);
  });

  for (const client of clients) {
    test(`${client.name}: a fresh clone plus ${client.bin} install has working hooks`, async (t) => {
      const bin = await clientBin(client);
      if (typeof bin !== 'string') {
        t.skip(bin.skip);
        return;
      }
      const { author, installed, second, clone } = await freshClone(
        client.name,
        (cwd) => run(bin, client.install, cwd, client.env),
        client.files ?? {},
      );
      assert.ok(
        existsSync(join(author.dir, client.lockfile)) || readdirSync(author.dir).some((f) => f.startsWith('bun.lock')),
        `${client.name} wrote its lockfile`,
      );
      assert.match(
        installed.stdout,
        new RegExp(`added "${client.script}": "revtrail install --from-prepare \\|\\| true" to package\\.json`),
      );
      await assertHooksWork(client.name, clone, second);
    });
  }
});

test("the script does nothing inside node_modules (a published package run in its users' installs) or outside git", async () => {
  const dir = join(work, 'outside', 'node_modules', 'some-package');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{}');
  const insideModules = await run(
    process.execPath,
    [join(projectRoot, 'bin', 'revtrail.js'), 'install', '--from-prepare'],
    dir,
  );
  assert.deepEqual([insideModules.code, insideModules.stderr], [0, '']);
  const noGit = await run(
    process.execPath,
    [join(projectRoot, 'bin', 'revtrail.js'), 'install', '--from-prepare'],
    join(work, 'outside'),
    { GIT_CEILING_DIRECTORIES: work },
  );
  assert.deepEqual([noGit.code, noGit.stderr], [0, '']);
});
