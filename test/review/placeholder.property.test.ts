/**
 * What a placeholder is (lib/review/builtin/secret-shape.ts, docs/review.md "Placeholders"):
 * whole-value templates, masks and published examples, never a placeholder word that chance put
 * inside a random body (issue 35 item 7: `FaKE` inside a real EC key hid it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { isPlaceholder, notPlaceholder } from '../../lib/review/builtin/secret-shape.js';
import { runCli, makeRepo } from '../kit/repo.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const WORDS = ['fake', 'FaKE', 'your', 'test', 'key', 'xxx', 'example', 'my', 'secret', '12345678'];

test('a random base64 body is never a placeholder, with a placeholder word put anywhere inside it', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom(...BASE64), minLength: 24, maxLength: 200 }),
      fc.constantFrom(...WORDS),
      fc.nat(),
      (body, word, at) => {
        const i = at % (body.length + 1);
        const value = body.slice(0, i) + word + body.slice(i);
        return !isPlaceholder(value);
      },
    ),
    { numRuns: 3000 },
  );
});

test('templates, masks, word-made values and the published examples are placeholders', () => {
  for (const value of [
    '<your-api-key>',
    '${AWS_SECRET_ACCESS_KEY}',
    '{{ api_token }}',
    'AKIA' + 'Z'.repeat(16),
    'xoxb-' + '0'.repeat(12) + '-' + '0'.repeat(12) + '-' + 'x'.repeat(24),
    'sk_live_' + 'YOUR_SECRET_KEY_HERE',
    'changeme123',
    '0123456789abcdef0123',
    'AKIA' + 'IOSFODNN7EXAMPLE',
  ])
    assert.equal(isPlaceholder(value), true, value);
  for (const value of ['AKIA' + 'QYLPMN2RZ4TK7WXB', 'hunter2sEcr3tQ9', 'Qm7xV2pL9sK4tR8wZ3nB6cF1'])
    assert.equal(isPlaceholder(value), false, value);
});

test('a match that an ellipsis follows is a placeholder (the pattern spells it \\u2026: the built bundles stay ASCII)', () => {
  const text = 'key = AKIAQYLPMN2RZ4TK7WXB\u2026 and AKIAQYLPMN2RZ4TK7WXC';
  const [masked, real] = [...text.matchAll(/AKIA[A-Z0-9]{16}/g)] as RegExpExecArray[];
  assert.equal((notPlaceholder()(masked!, text) || { reason: null }).reason, 'placeholder');
  assert.equal(notPlaceholder()(real!, text), false);
});

test('a real private key whose body holds "FaKE" is found; a body of words is a placeholder, said on a warning line', async () => {
  // A key made at run time, with "FaKE" where chance put it in a real one (the rule reads the
  // block's text, not its DER).
  const made = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'sec1',
    format: 'pem',
  }) as string;
  const lines = made.split('\n');
  lines[1] = `${lines[1]!.slice(0, 20)}FaKE${lines[1]!.slice(24)}`;
  const pem = lines.join('\n');
  const repo = makeRepo();
  const added = (path: string, text: string) => {
    const rows = text.replace(/\n$/, '').split('\n');
    return [
      `diff --git a/${path} b/${path}`,
      'new file mode 100644',
      '--- /dev/null',
      `+++ b/${path}`,
      `@@ -0,0 +1,${rows.length} @@`,
      ...rows.map((l) => `+${l}`),
      '',
    ].join('\n');
  };
  const fake = [
    '-----BEGIN ' + 'EC PRIVATE KEY-----',
    'YourKeyHereYourKeyHereYourKeyHere',
    '-----END EC PRIVATE KEY-----',
  ];
  const diff = added('deploy/real.pem', pem) + added('docs/example.pem', `${fake.join('\n')}\n`);
  const r = await runCli(['review', '--diff', '-', '--format', 'json'], { cwd: repo.dir, input: diff });
  const result = JSON.parse(r.stdout) as { findings: Array<{ path: string; rule_source: string }>; warnings: string[] };
  assert.deepEqual(
    result.findings.map((f) => `${f.path} ${f.rule_source}`),
    ['deploy/real.pem builtin/secrets:private-key'],
  );
  assert.ok(
    result.warnings.some((w) => /^docs\/example\.pem:1: not reported by builtin\/secrets:private-key: /.test(w)),
    result.warnings.join('\n'),
  );
});
