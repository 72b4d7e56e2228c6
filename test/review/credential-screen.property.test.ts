/**
 * The credential screen in front of pre-push's per-commit check (lib/review/credential-screen.ts)
 * never passes over a diff the credential review would report on: over generated diffs of added,
 * deleted and context lines full of credential-shaped text, look-alikes, placeholders, CRLF line
 * ends and non-ASCII text, whenever the review of the parsed diff (credential rules, no bundle)
 * has a finding, the screen says "review it".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDiff } from '../../lib/diff/parse.js';
import { toChunks } from '../../lib/diff/chunk.js';
import { builtinRules, CREDENTIAL_RULE_SOURCES } from '../../lib/review/builtin.js';
import { credentialScreen } from '../../lib/review/credential-screen.js';
import { reviewSelections } from '../../lib/review/pipeline.js';

const rules = builtinRules(true).filter((r) => CREDENTIAL_RULE_SOURCES.has(r.ruleSource));
const screen = credentialScreen(rules);

// Assembled at run time, so this file holds no credential-shaped literal.
const KEYISH = [
  'AKIA' + 'QYLPMN2RZ4TK7WXB',
  'gh' + 'p_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  'xox' + 'b-1234567890-abcdefghijklmnop',
  'sk_' + 'live_' + '4eC39HqLyjWDarjtT1zdp7dc',
  'AIza' + 'SyD3xq9zK2mP8vL5nR7tW4yB6cE1fH0jQ2s',
  'aws_secret_access_key = "' + 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK9Qe3Lp2T' + '"',
  'AWS_SECRET_ACCESS_KEY=' + 'Zq8vN3mK5pR2tW7yB4cE6fH9jL1sD0gX5uA8iO3e',
  '-----BEGIN ' + 'RSA PRIVATE KEY-----',
  'MIIEpAIBAAKCAQEA' + '3Tz2mr7SZiAMfQyuvBjM2kR9pW5xL8vN4cB6dF1gH',
  'ey' + 'JhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'npm_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5',
  'hf_' + 'aBcDeFgHiJkLmNoPqRsTuVwXyZ12345678',
];
const WORDS = [
  'const a = 1;',
  'gh',
  'SK',
  'secret',
  'Secret',
  'hv.',
  'AKIAEXAMPLE',
  'xxxx',
  '',
  '  ',
  'é',
  '日本',
  '\u{1F600}',
  'token',
  ':AA',
  '+',
  '++ x',
  '-- y',
  '"',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...KEYISH), fc.constantFrom(...WORDS)), { maxLength: 4 })
  .map((parts) => parts.join(' '));
const line = fc
  .tuple(fc.constantFrom('+', '+', '+', '-', ' '), text, fc.boolean())
  .map(([marker, t, crlf]) => ({ marker, t, crlf }));
const file = fc.tuple(
  fc.constantFrom('src/a.ts', 'config/.env', 'k.pem', 'lib/b.py', 'docs/ré.md'),
  fc.array(line, { minLength: 1, maxLength: 12 }),
);

function diffOf(files: Array<[string, Array<{ marker: string; t: string; crlf: boolean }>]>): string {
  return files
    .map(([path, lines]) => {
      const old = lines.filter((l) => l.marker !== '+').length;
      const added = lines.filter((l) => l.marker !== '-').length;
      const body = lines.map((l) => `${l.marker}${l.t}${l.crlf ? '\r' : ''}\n`).join('');
      return `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1,${old} +1,${added} @@\n${body}`;
    })
    .join('');
}

async function findings(diff: string): Promise<number> {
  const chunks = toChunks(parseDiff(diff, 'generated'), 400);
  const result = await reviewSelections(
    chunks.map((chunk) => ({ chunk, matched: [], documents: [] })),
    {
      top: process.cwd(),
      builtin: rules,
      minConfidence: 0,
      softTests: false,
      verdicts: async () => new Map(),
    },
  );
  return result.findings.length;
}

test('the built-in credential rules can be screened', () => {
  assert.ok(screen, 'every credential rule has plain ASCII needles');
});

test('a diff the credential review reports on always passes the screen', async () => {
  let reported = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: 3 }), async (files) => {
      const diff = diffOf(files);
      const found = await findings(diff);
      if (found > 0) reported++;
      if (found > 0) assert.equal(screen!(Buffer.from(diff, 'utf8')), true, diff);
    }),
    { numRuns: 400 },
  );
  assert.ok(reported > 50, `the generated diffs hold findings often enough to test the screen (${reported})`);
});

test('the screen passes over what cannot hold a finding, and not over a key in a deleted-then-added line', () => {
  const clean = diffOf([
    [
      'src/a.ts',
      [
        { marker: '+', t: 'const gh = high(); // SK secret', crlf: false },
        { marker: '-', t: KEYISH[0]!, crlf: false },
      ],
    ],
  ]);
  assert.equal(screen!(Buffer.from(clean)), false, 'needles without a match, and a key only on a deleted line');
  const key = diffOf([['src/a.ts', [{ marker: '+', t: `const k = "${KEYISH[0]}";`, crlf: true }]]]);
  assert.equal(screen!(Buffer.from(key)), true);
});
