/**
 * Allow comments and per-rule excludes (docs/review.md "Allow comments and excludes"), through
 * the real CLI on a real repository: `revtrail-allow RULE [reason]` on the line or alone on the
 * line above, in the file's own comment syntax; `gitleaks:allow` on a credential's line; each
 * allowed finding counted under dropped.allowed_inline and listed (text and JSON); the
 * `gate.credentialAllow` policy; excludes applied to non-credential rules only and checked by
 * `knowledge check`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli, type TestRepo } from '../kit/repo.js';
import { AWS_KEY } from '../kit/hooks.js';

interface Json {
  event: string;
  findings: Array<{ path: string; line: number; rule_source: string }>;
  allowed: Array<{
    path: string;
    line: number;
    rule_source: string;
    id: string;
    allowed: { marker: string; line: number; rule: string | null; reason: string };
  }>;
  dropped: Record<string, number>;
  warnings: string[];
}

const repos = new Map<string, TestRepo>();
function repo(config?: object): TestRepo {
  const key = JSON.stringify(config ?? null);
  let r = repos.get(key);
  if (!r) {
    r = makeRepo();
    if (config) r.write('revtrail.config.json', JSON.stringify(config));
    r.commit('chore: start');
    repos.set(key, r);
  }
  return r;
}

async function review(r: TestRepo, files: Record<string, string>, format = 'json') {
  r.git(['reset', '-q', '--hard']);
  r.git(['clean', '-qfd']);
  for (const [path, content] of Object.entries(files)) r.write(path, content);
  r.git(['add', '-A']);
  const run = await runCli(['review', '--staged', '--format', format], { cwd: r.dir });
  return { run, json: format === 'json' ? (JSON.parse(run.stdout) as Json) : null };
}

test('revtrail-allow on the line and alone on the line above, by rule id or rule_source, drop the finding and list it', async () => {
  const { run, json } = await review(repo(), {
    'src/a.js': 'debugger; // revtrail-allow debugger step through the parser here\n',
    'src/b.js': 'const x = 1;\n// revtrail-allow builtin/debug:debugger\ndebugger;\n',
    'src/c.py': 'import pdb\nx = 1  # revtrail-allow debugger\n',
    'src/d.sql': 'SELECT 1; -- revtrail-allow nothing-here\n',
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(json!.event, 'APPROVE');
  assert.deepEqual(json!.findings, []);
  assert.deepEqual(
    json!.allowed.map((f) => [f.path, f.line, f.allowed.marker, f.allowed.line, f.allowed.rule, f.allowed.reason]),
    [
      ['src/a.js', 1, 'revtrail-allow', 1, 'debugger', 'step through the parser here'],
      ['src/b.js', 3, 'revtrail-allow', 2, 'builtin/debug:debugger', ''],
    ],
  );
  assert.match(json!.allowed[0]!.id, /^rf-[0-9a-f]{10}$/);
  assert.equal(json!.dropped.allowed_inline, 2);
});

test("an allow comment in another language's syntax, for another rule, or two lines up does not allow", async () => {
  const { run, json } = await review(repo(), {
    'src/a.js': 'debugger; # revtrail-allow debugger\n',
    'src/b.js': 'debugger; // revtrail-allow sql-concat\n',
    'src/c.js': '// revtrail-allow debugger\nconst y = 2;\ndebugger;\n',
    'src/d.js': 'foo(); // revtrail-allow debugger\ndebugger;\n',
  });
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(
    json!.findings.map((f) => f.path),
    ['src/a.js', 'src/b.js', 'src/c.js', 'src/d.js'],
  );
  assert.deepEqual(json!.allowed, []);
  assert.equal(json!.dropped.allowed_inline, 0);
});

test('gitleaks:allow and revtrail-allow on a credential line: allowed by default, always listed in the text output', async () => {
  const files = {
    'src/keys.js': `const a = "${AWS_KEY}"; // gitleaks:allow\n`,
    'config/keys.yml': `# revtrail-allow aws-access-key a test value of the fixture\nkey: ${AWS_KEY.replace('QYLP', 'QYLQ')}\n`,
  };
  const { run, json } = await review(repo(), files);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(json!.allowed.map((f) => [f.path, f.rule_source, f.allowed.marker]).sort(), [
    ['config/keys.yml', 'builtin/secrets:aws-access-key', 'revtrail-allow'],
    ['src/keys.js', 'builtin/secrets:aws-access-key', 'gitleaks:allow'],
  ]);
  // Every review says so, the hooks' included: a warning per allowed credential.
  assert.equal(
    json!.warnings.filter((w) =>
      /credential finding rf-[0-9a-f]{10} \(builtin\/secrets:aws-access-key\) allowed by (gitleaks:allow|revtrail-allow)/.test(
        w,
      ),
    ).length,
    2,
    json!.warnings.join('\n'),
  );
  const text = await review(repo(), files, 'text');
  assert.match(text.run.stdout, /Allowed by comments \(2\):/);
  assert.match(
    text.run.stdout,
    /src\/keys\.js:1 security .*\(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10} \[gitleaks:allow, line 1\]/,
  );
  assert.match(text.run.stdout, /\[revtrail-allow: a test value of the fixture, line 1\]/);
  assert.match(text.run.stdout, /2 allowed inline/);
});

test('gate.credentialAllow false: an allow comment does not take a credential out (a warning says so); other rules still honour theirs', async () => {
  const { run, json } = await review(repo({ gate: { credentialAllow: false } }), {
    'src/keys.js': `const a = "${AWS_KEY}"; // gitleaks:allow\n`,
    'src/a.js': 'debugger; // revtrail-allow debugger\n',
  });
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(
    json!.findings.map((f) => f.rule_source),
    ['builtin/secrets:aws-access-key'],
  );
  assert.deepEqual(
    json!.allowed.map((f) => f.rule_source),
    ['builtin/debug:debugger'],
  );
  assert.ok(
    json!.warnings.some((w) =>
      /src\/keys\.js:1: the allow comment for credential rule builtin\/secrets:aws-access-key is not honoured/.test(w),
    ),
    json!.warnings.join('\n'),
  );
});

test('exclude: a rule does not run on the excluded paths; a credential rule is never excluded (a warning names the entry)', async () => {
  const r = repo({
    exclude: { debugger: ['test/fixtures/**'], 'builtin/secrets:aws-access-key': ['test/fixtures/**'] },
  });
  const { run, json } = await review(r, {
    'test/fixtures/a.js': `debugger;\nconst k = "${AWS_KEY}";\n`,
    'src/a.js': 'debugger;\n',
  });
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(
    json!.findings.map((f) => [f.path, f.rule_source]),
    [
      ['src/a.js', 'builtin/debug:debugger'],
      ['test/fixtures/a.js', 'builtin/secrets:aws-access-key'],
    ],
  );
  // One warning, from the config's check of what it tries to take from the credential rules.
  assert.deepEqual(
    json!.warnings.filter((w) => w.includes('builtin/secrets:aws-access-key')),
    ['exclude cannot narrow the credential rules: "builtin/secrets:aws-access-key"; they still run on every path'],
  );
});

test('knowledge check: a bad exclude glob is an error, an unknown rule a warning with the nearest name', async () => {
  const r = makeRepo();
  r.write('revtrail.config.json', JSON.stringify({ exclude: { debuger: ['src/**'], 'sql-concat': ['lib/[oops'] } }));
  r.write('.okfw/index.md', '# Index\n');
  r.commit('chore: start');
  const run = await runCli(['knowledge', 'check'], { cwd: r.dir });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /exclude\.debuger: no rule has this rule_source or id, so it excludes nothing \(did you mean debugger\?\)/,
  );
  assert.match(run.stdout, /exclude\.sql-concat: .*lib\/\[oops/);
});

test('through the hooks: a credential with gitleaks:allow commits and pushes, and both hooks say it was allowed', async () => {
  const { installedRepo, addRemote } = await import('../kit/hooks.js');
  const r = await installedRepo();
  addRemote(r);
  r.write('src/keys.js', `const a = "${AWS_KEY}"; // gitleaks:allow\n`);
  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-m', 'test: a fixture key']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(
    commit.stderr,
    /src\/keys\.js:1: credential finding rf-[0-9a-f]{10} \(builtin\/secrets:aws-access-key\) allowed by gitleaks:allow/,
  );
  assert.deepEqual(r.trailers(), [], 'an allowed finding is not recorded as OPEN');
  const push = await r.run(['push', 'origin', 'main']);
  assert.equal(push.code, 0, push.stderr);
  assert.match(push.stderr, /allowed by gitleaks:allow/);
});
