/**
 * Private-key material is found wherever a header is followed by it (issue 58 item 5;
 * lib/review/builtin/pem.ts, docs/review.md "Credential formats and where they come from"):
 * whatever code precedes the header on its line, whatever separates the body's lines (new
 * lines, `\n` escapes, CR, spaces, nothing); and a header followed by words or code is not a key.
 * Bodies are random base64 made at run time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { builtinRules } from '../../lib/review/builtin.js';
import { chunkOf, reviewChunks } from '../kit/review.js';

const rules = builtinRules(true);
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const KINDS = ['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', ''];
/** What may stand before the header on its line: code opening a string, a key name, nothing. */
const BEFORE = [
  '',
  'const key = `',
  'var key = `',
  'KEY = """',
  "key: '",
  'PRIVATE_KEY="',
  '  "private_key": "',
  'k = r"""',
];
/** How the body's lines are joined when the key is on one line. */
const JOINS = ['\\n', '\\r\\n', '\r', ' ', ''];

/** A PEM body line: 64 random base64 characters with upper, lower case and digits in it. */
const bodyLine = fc.string({ unit: fc.constantFrom(...BASE64), minLength: 61, maxLength: 61 }).map((s) => `${s}Aa0`);

async function privateKeyLines(path: string, lines: string[]): Promise<number[]> {
  const { findings } = await reviewChunks([chunkOf(path, lines)], rules);
  return findings.filter((f) => f.rule_source === 'builtin/secrets:private-key').map((f) => f.line);
}

test('a key on one line, whatever precedes its header and joins its lines, is found', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...KINDS),
      fc.constantFrom(...BEFORE),
      fc.constantFrom(...JOINS),
      fc.array(bodyLine, { minLength: 1, maxLength: 4 }),
      async (kind, before, join, body) => {
        const pem = [`-----BEGIN ${kind}PRIVATE KEY-----`, ...body, `-----END ${kind}PRIVATE KEY-----`];
        const found = await privateKeyLines('src/config.txt', [`${before}${pem.join(join)}`]);
        assert.deepEqual(found, [1], `${before}${pem.join(join).slice(0, 120)}`);
      },
    ),
    { numRuns: 200 },
  );
});

test('a key over several lines, its header after code that opens a string, is found', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...KINDS),
      fc.constantFrom(...BEFORE),
      fc.array(bodyLine, { minLength: 1, maxLength: 4 }),
      async (kind, before, body) => {
        const lines = [`${before}-----BEGIN ${kind}PRIVATE KEY-----`, ...body, `-----END ${kind}PRIVATE KEY-----`];
        assert.deepEqual(await privateKeyLines('src/config.txt', lines), [1], lines[0]);
      },
    ),
    { numRuns: 200 },
  );
});

test('a header followed by words, on its line or the next, is not a key', async () => {
  const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 12 });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...KINDS),
      fc.constantFrom(...BEFORE),
      fc.constantFrom(...JOINS),
      fc.array(word, { minLength: 1, maxLength: 8 }),
      async (kind, before, join, words) => {
        const header = `${before}-----BEGIN ${kind}PRIVATE KEY-----`;
        assert.deepEqual(await privateKeyLines('docs/keys.txt', [`${header}${join}${words.join(' ')}`]), []);
        assert.deepEqual(await privateKeyLines('docs/keys.txt', [header, words.join(' ')]), []);
      },
    ),
    { numRuns: 200 },
  );
});
