/** `revtrail review` options that take a value: none given is a usage error (exit 2), never a default. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli } from '../helpers/repo.js';

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
    assert.equal(r.stderr, `revtrail: Not enough arguments following: ${option}\n  Run revtrail review --help for its usage.\n`, args.join(' '));
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
  const r = await runCli(['review', '--diff', '-', '--knowledge', 'none', '--min-confidence', '0.5', '--format', 'json'], { cwd: repo.dir, input: diff });
  assert.equal(r.code, 1, r.stderr);
  const result = JSON.parse(r.stdout) as { findings: Array<{ path: string; line: number }>; warnings: string[] };
  assert.deepEqual(result.findings.map((f) => `${f.path}:${f.line}`), ['b.js:1']);
  assert.deepEqual(result.warnings, ['none: knowledge bundle none does not exist: no documents are selected']);
});
