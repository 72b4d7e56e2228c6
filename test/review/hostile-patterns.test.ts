/**
 * Built-in rules on hostile lines (docs/review.md "Time"): every credential pattern is linear in
 * the line, code rules give up a line after a few rejected matches, and the built-in rules read
 * the rule clock: a code rule that overruns is skipped with a warning naming it, a credential
 * rule that overruns blocks. The bounds are generous (each line took 10 s or more before).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkOf } from '../kit/review.js';
import { RuleRunner } from '../../lib/review/engine/rules.js';
import { allBuiltinRules } from '../../lib/review/builtin.js';

const rule = (id: string) => allBuiltinRules().find((r) => r.id === id)!;
const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';

async function timed(ids: string[], path: string, lines: string[], options = {}) {
  const runner = new RuleRunner(options);
  const started = performance.now();
  try {
    const run = await runner.run(chunkOf(path, lines), ids.map(rule));
    return { ...run, ms: performance.now() - started };
  } finally {
    await runner.close();
  }
}

const hostile: Array<[string, string, string]> = [
  ['jwt', 'src/a.ts', '-eyJ'.repeat(25_000)],
  ['jwt', 'src/a.ts', `x=${'eyJaaaaaaaaaa.'.repeat(7500)}`],
  ['openai-key', 'src/a.ts', '-sk-'.repeat(25_000) + 'T3BlbkFJabc'],
  ['openai-key', 'src/a.ts', `${'-sk-aaaaaaaaaaaaaaaaaaT3BlbkFJ'.repeat(4000)}`],
  ['aws-secret-key', 'src/a.ts', `aws_secret_access_key=${' '.repeat(100_000)}x`],
  ['private-key', 'src/a.ts', `${'-----BEGIN RSA PRIVATE KEY-----'.repeat(3000)}${','.repeat(50_000)}x`],
];

for (const [id, path, line] of hostile) {
  test(`hostile: ${id} on a ${line.length}-character line of ${JSON.stringify(line.slice(0, 12))}… finishes and still finds a key after it`, async () => {
    const run = await timed([id, 'aws-access-key'], path, [line, `const k = '${AWS}';`]);
    assert.ok(run.ms < 2000, `${id}: ${run.ms} ms`);
    assert.deepEqual(
      run.drafts.map((d) => d.rule_source),
      ['builtin/secrets:aws-access-key'],
    );
  });
}

test('hostile: a code rule gives up a line after a few rejected matches (lines of repeated keywords)', async () => {
  for (const [id, unit] of [
    ['generic-secret', 'pwd'],
    ['shell-exec', 'exec('],
    ['sql-concat', 'SELECT`'],
  ] as const) {
    const run = await timed([id], 'src/a.ts', Array(20).fill(unit.repeat(Math.floor(3990 / unit.length))));
    assert.ok(run.ms < 3000, `${id}: ${run.ms} ms`);
  }
});

test('hostile: the JWT and OpenAI patterns still match where a token starts (after a quote, =, an escaped \\n)', async () => {
  // A test value: a made-up subject, a signature of letters in order.
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const JWT = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'test-4f9a2c', iat: 1700000000 })}.${'Qm9n7TxPl2Kd8Rw4Vz1Hy6Jc3Ns5Fa0Eu'}`;
  for (const line of [`t = "${JWT}"`, `"env": "A=1\\nJWT_TOKEN=${JWT}\\n"`, `Bearer ${JWT}`]) {
    const run = await timed(['jwt'], 'src/a.ts', [line]);
    assert.equal(run.drafts.length, 1, line);
  }
});

test('budget: a built-in code rule that overruns is skipped for the rest of the review, with a warning naming it', async () => {
  const runner = new RuleRunner({ deadlineMs: -1 });
  try {
    const chunk = chunkOf('src/a.ts', ['debugger;', 'debugger;']);
    const first = await runner.run(chunk, [rule('debugger')]);
    assert.deepEqual(first.drafts, []);
    assert.ok(
      first.warnings.some((w) => w.includes('builtin/debug:debugger took over') && w.includes('src/a.ts')),
      first.warnings.join('\n'),
    );
    const again = await runner.run(chunkOf('src/b.ts', ['debugger;']), [rule('debugger')]);
    assert.deepEqual(again.drafts, []);
  } finally {
    await runner.close();
  }
});

test('budget: a credential rule that overruns is never skipped: the lines it did not read are a blocking finding', async () => {
  const run = await timed(['aws-access-key'], 'src/a.ts', ['const a = 1;', `const k = '${AWS}';`], {
    credentialMs: -1,
  });
  assert.equal(run.drafts.length, 1);
  const [d] = run.drafts;
  assert.equal(d!.rule_source, 'builtin/secrets:aws-access-key');
  assert.equal(d!.severity, 'security');
  assert.equal(d!.line, 1);
  assert.match(d!.body, /did not finish reading src\/a\.ts:1-2/);
  assert.ok(run.warnings.some((w) => w.includes('REVTRAIL=0')));
});
