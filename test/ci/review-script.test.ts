/**
 * The CI recipe (templates/ci/review.sh): reviews BASE...HEAD as SARIF and keeps review's exit
 * codes, with a real clone of a real (bare) remote, as a CI checkout is.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync, randomInt } from 'node:crypto';
import { makeRepo, projectRoot, runProcess, tempDir, type TestRepo } from '../kit/repo.js';
import { writeShim } from '../kit/hooks.js';
import { sarifProblems } from '../kit/sarif.js';

const made: TestRepo[] = [];
after(() =>
  made.forEach((r) => {
    r.cleanup();
  }),
);
const script = join(projectRoot, 'templates', 'ci', 'review.sh');

/** A remote with main, and a CI clone of it on branch `feature` with `files` committed. */
function ciClone(files: Record<string, string>, base: Record<string, string> = {}): TestRepo {
  const bare = makeRepo({ bare: true });
  const dev = makeRepo();
  made.push(bare, dev);
  dev.commit('first', { 'README.md': 'hello\n', ...base });
  dev.git(['remote', 'add', 'origin', bare.dir]);
  dev.git(['push', '-q', 'origin', 'main']);
  dev.git(['switch', '-q', '-c', 'feature']);
  dev.commit('feat: change', files);
  dev.git(['push', '-q', 'origin', 'feature']);
  const ci = makeRepo({ dir: join(tempDir(), 'checkout') });
  made.push(ci);
  ci.git(['remote', 'add', 'origin', bare.dir]);
  ci.git(['fetch', '-q', 'origin']);
  ci.git(['switch', '-q', '-c', 'feature', 'origin/feature']);
  writeShim(ci.dir);
  return ci;
}

const runScript = (dir: string, env: NodeJS.ProcessEnv = {}) => runProcess('sh', [script], { cwd: dir, env });

test('a blocking finding in the pull request: exit 1 and valid SARIF naming it', async () => {
  const ci = ciClone({ 'src/a.js': 'debugger;\n' });
  const run = await runScript(ci.dir);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /revtrail-ci: blocking findings \(REQUEST_CHANGES\); SARIF in revtrail\.sarif/);
  const sarif = JSON.parse(readFileSync(join(ci.dir, 'revtrail.sarif'), 'utf8'));
  assert.deepEqual(sarifProblems(sarif), []);
  const results = sarif.runs[0].results as Array<{
    ruleId: string;
    locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  }>;
  assert.deepEqual(
    results.map((r) => [
      r.ruleId,
      r.locations[0]!.physicalLocation.artifactLocation.uri,
      r.locations[0]!.physicalLocation.region.startLine,
    ]),
    [['builtin/debug:debugger', 'src/a.js', 1]],
  );
});

test('a clean pull request: exit 0; OUT names the file; only the range is reviewed, not the base', async () => {
  const ci = ciClone({ 'src/b.js': 'export const b = 1;\n' }, { 'old/debug.js': 'debugger;\n' });
  const run = await runScript(ci.dir, { OUT: 'scan.sarif' });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /no blocking finding; SARIF in scan\.sarif/);
  assert.deepEqual(JSON.parse(readFileSync(join(ci.dir, 'scan.sarif'), 'utf8')).runs[0].results, []);
});

test('a base that is not fetched: exit 2 and how to fetch it', async () => {
  const ci = ciClone({ 'src/c.js': 'export const c = 1;\n' });
  const run = await runScript(ci.dir, { BASE: 'origin/release' });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^revtrail-ci: origin\/release is not in this clone; fetch it \(actions\/checkout with fetch-depth: 0\) or set BASE\n$/,
  );
});

test("the base branch's policy: a pull request that drops the rule is still reviewed with it, and the findings are in the log as text", async () => {
  const rule = [
    '---',
    'type: Architecture Decision',
    'id: adr-0001',
    'title: Controllers do not talk to the database',
    'x:',
    '  paths: ["src/controllers/**"]',
    '  rules:',
    '    - id: no-db-query',
    "      pattern: '\\bdb\\.query\\('",
    '      severity: bug',
    '      title: Controller queries the database directly',
    '---',
    '# Controllers do not talk to the database',
    '',
  ].join('\n');
  const base = { '.okfw/index.md': '# Knowledge\n\n- [ADR 1](adr-0001.md)\n', '.okfw/adr-0001.md': rule };
  const ci = ciClone(
    { '.okfw/adr-0001.md': '# gone\n', '.okfw/index.md': '# Knowledge\n', 'src/controllers/u.js': 'db.query("x");\n' },
    base,
  );
  const run = await runScript(ci.dir);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /src\/controllers\/u\.js:1.*Controller queries the database directly/);
  const sarif = JSON.parse(readFileSync(join(ci.dir, 'revtrail.sarif'), 'utf8'));
  assert.deepEqual(
    sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId),
    ['adr-0001:no-db-query'],
  );
});

test('a key added in one commit of the range and removed in the next: exit 1, naming the commit, as the push gate does', async () => {
  // A key no test has seen (issue 35 item 12: the combined diff alone said APPROVE).
  const key = `AKIA${Array.from({ length: 16 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[randomInt(32)]).join('')}`;
  const ci = ciClone({ 'src/k.js': `export const k = "${key}";\n` });
  const holder = ci.git(['rev-parse', 'HEAD']).trim();
  ci.commit('fix: no key', { 'src/k.js': 'export const k = process.env.K;\n' });
  const run = await runScript(ci.dir);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stderr, /src\/k\.js:1 security AWS access key ID committed/);
  assert.ok(run.stderr.includes(`${holder.slice(0, 12)} feat: change`), run.stderr);
  assert.match(run.stderr, /revtrail-ci: blocking findings/);
  // The clone is left as it was: no policy ref, no config.
  assert.equal(ci.git(['for-each-ref', 'refs/revtrail-ci']).trim(), '');
  assert.throws(() => ci.git(['config', '--local', 'revtrail.policyRef']));
});

test('a private key in a Python triple-quoted string: exit 1, the key named; the same string holding a placeholder: exit 0 (issue 58 item 5)', async () => {
  const pem = (
    generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string
  )
    .trimEnd()
    .split('\n');
  const ci = ciClone({ 'app/keys.py': `KEY = """${pem.join('\n')}"""\n` });
  const run = await runScript(ci.dir);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stderr, /app\/keys\.py:1 security Private key committed/);
  const control = ciClone({ 'app/keys.py': `KEY = """${pem[0]}\n<the key, from the vault>\n${pem.at(-1)}"""\n` });
  const passed = await runScript(control.dir);
  assert.equal(passed.code, 0, passed.stdout + passed.stderr);
});

test("a key as an author's name, or as a path only an intermediate commit has: exit 1, naming the commit; ordinary ones: exit 0 (issue 58 item 6)", async () => {
  const key = () =>
    `AKIA${Array.from({ length: 16 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[randomInt(32)]).join('')}`;
  const ci = ciClone({ 'docs/a.md': 'a\n' });
  const byKey = ci.commit('docs: b', { 'docs/b.md': 'b\n' }, { env: { GIT_AUTHOR_NAME: key() } });
  const named = `keys/${key()}`;
  const holder = ci.commit('chore: marker', { [named]: 'x\n' });
  ci.git(['mv', named, 'keys/marker.txt']);
  ci.commit('chore: rename');
  const run = await runScript(ci.dir);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.ok(run.stderr.includes(`(metadata of commit ${byKey.slice(0, 12)}):1 security AWS access key ID`), run.stderr);
  assert.ok(run.stderr.includes(`(paths of commit ${holder.slice(0, 12)}):1 security AWS access key ID`), run.stderr);
  const control = ciClone({ 'docs/a.md': 'a\n' });
  control.commit('docs: b', { 'docs/b.md': 'b\n' }, { env: { GIT_AUTHOR_NAME: 'Akia Ghosh' } });
  control.commit('chore: marker', { 'keys/AKIA-notes.txt': 'x\n' });
  control.git(['mv', 'keys/AKIA-notes.txt', 'keys/marker.txt']);
  control.commit('chore: rename');
  const passed = await runScript(control.dir);
  assert.equal(passed.code, 0, passed.stdout + passed.stderr);
});
