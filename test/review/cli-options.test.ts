/** `revtrail review` options that take a value: none given is a usage error (exit 2), never a default. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli } from '../kit/repo.js';

const repo = makeRepo();
repo.commit('base', { 'a.js': 'export const a = 1;\n' });
after(() => repo.cleanup());

test('--knowledge, --range, --diff, --reviewer, --min-confidence without a value: exit 2, nothing reviewed', async () => {
  for (const [args, option] of [
    [['review', '--knowledge'], 'knowledge'],
    [['review', '--knowledge', '--json'], 'knowledge'],
    [['review', '--staged', '--knowledge'], 'knowledge'],
    [['review', '--range'], 'range'],
    [['review', '--range', '--staged'], 'range'],
    [['review', '--diff'], 'diff'],
    [['review', '--reviewer'], 'reviewer'],
    [['review', '--min-confidence'], 'min-confidence'],
    [['review', '--min-confidence', '--json'], 'min-confidence'],
  ] as const) {
    const r = await runCli([...args], { cwd: repo.dir });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(
      r.stderr,
      `revtrail: Not enough arguments following: ${option}\n  Run revtrail review --help for its usage.\n`,
      args.join(' '),
    );
    assert.equal(r.stdout, '', `${args.join(' ')} printed nothing`);
  }
});

test('an explicitly empty value (--knowledge=) is a usage error naming the option', async () => {
  for (const option of ['knowledge', 'range', 'diff']) {
    const r = await runCli(['review', `--${option}=`], { cwd: repo.dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^revtrail: --${option} needs a value\\n  For example: `));
    assert.equal(r.stdout, '');
  }
});

test('values still arrive: --diff - reads stdin, --knowledge DIR and --min-confidence N are taken', async () => {
  const diff = 'diff --git a/b.js b/b.js\nnew file mode 100644\n--- /dev/null\n+++ b/b.js\n@@ -0,0 +1 @@\n+debugger;\n';
  const r = await runCli(
    ['review', '--diff', '-', '--knowledge', 'none', '--min-confidence', '0.5', '--format', 'json'],
    { cwd: repo.dir, input: diff },
  );
  assert.equal(r.code, 1, r.stderr);
  const result = JSON.parse(r.stdout) as { findings: Array<{ path: string; line: number }>; warnings: string[] };
  assert.deepEqual(
    result.findings.map((f) => `${f.path}:${f.line}`),
    ['b.js:1'],
  );
  assert.deepEqual(result.warnings, ['none: knowledge bundle none does not exist: no documents are selected']);
});

test('--verbose says what was not reported and why; without it, the text report says that --verbose would', async () => {
  const diff = [
    'diff --git a/docs/setup.md b/docs/setup.md',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/docs/setup.md',
    '@@ -0,0 +1,2 @@',
    '+export AWS_ACCESS_KEY_ID=AKIAZZZZZZZZZZZZZZZZ',
    '+Run the tool.',
    'diff --git a/src/a.js b/src/a.js',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/src/a.js',
    '@@ -0,0 +1,2 @@',
    '+// eslint-disable-next-line no-debugger',
    '+debugger;',
    '',
  ].join('\n');
  const quiet = await runCli(['review', '--diff', '-'], { cwd: repo.dir, input: diff });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.match(
    quiet.stdout,
    /Dropped: 0 low confidence, 0 off the diff, 0 bad citation, 0 invalid, 1 placeholder keys, 1 disabled inline \(--verbose says which\)/,
  );
  assert.doesNotMatch(quiet.stderr, /note:/);
  // A credential-shaped value taken for a placeholder is a warning every time (issue 35 item 7).
  assert.match(
    quiet.stderr,
    /warning: docs\/setup\.md:1: not reported by builtin\/secrets:aws-access-key: AKIAZZZZZZ… looks like a placeholder/,
  );
  const verbose = await runCli(['review', '--diff', '-', '--verbose'], { cwd: repo.dir, input: diff });
  assert.match(
    verbose.stderr,
    /note: src\/a\.js:2: not reported by builtin\/debug:debugger: an eslint-disable-next-line no-debugger comment turns the rule off here/,
  );
  const json = await runCli(['review', '--diff', '-', '--format', 'json'], { cwd: repo.dir, input: diff });
  const result = JSON.parse(json.stdout) as { dropped: Record<string, number> };
  assert.equal(result.dropped.placeholder, 1);
  assert.equal(result.dropped.disabled_inline, 1);
});
