/**
 * Hostile bundle content (docs/bundle.md "Isolation", "Caps", "Linear parsing"): each bad file
 * is skipped or cut with a warning naming it, and everything else still loads. The parser
 * cases finish (a generous per-test timeout is the outcome: the old code took minutes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../../lib/bundle/load.js';
import { extractLinks } from '../../lib/bundle/links.js';
import { firstHeading } from '../../lib/bundle/concept.js';
import { splitFrontmatter } from '../../lib/bundle/frontmatter.js';
import { MAX_FILE_BYTES } from '../../lib/bundle/read.js';
import { ConceptCache, OVERRUN_MEMORY_MS, rememberOverrun } from '../../lib/bundle/cache.js';
import { characters, tokensOf, truncateToTokens, TRUNCATION_MARK } from '../../lib/select/budget.js';
import { tempDir } from '../kit/repo.js';
import { bundleDir, lines, ids } from '../kit/bundle.js';

const GOOD =
  '---\ntype: Note\nid: good\npaths: ["**"]\nrules:\n  - {id: r, pattern: "forbidden\\\\(", severity: bug, title: Forbidden}\n---\n# Good\n';
const FINISHES = { timeout: 30_000 };

test('an alias bomb (over 100 aliases) skips that concept with file:line; the good concept loads', async () => {
  const aliases = Array.from({ length: 150 }, () => '  - *a').join('\n');
  const dir = bundleDir({
    'index.md': '[bomb](bomb.md)\n[good](good.md)\n',
    'bomb.md': `---\ntype: Note\nbase: &a x\nlist:\n${aliases}\n---\n`,
    'good.md': GOOD,
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['good']);
  assert.equal(b.concepts[0]!.rules.length, 1);
  // Alias 101 is on file line 105 (after ---, type, base, list).
  assert.deepEqual(lines(b), ['kb/bomb.md:105: warning: frontmatter has more than 100 YAML aliases (*name); skipped']);
});

test('few aliases that expand to a billion values, and an alias that refers to itself, are skipped', async () => {
  const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 9; i++) {
    const [name, prev] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
    levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
  }
  const dir = bundleDir({
    'index.md': '[laughs](laughs.md) [self](self.md) [good](good.md)\n',
    'laughs.md': `---\ntype: Note\n${levels.join('\n')}\n---\n`,
    'self.md': '---\ntype: Note\nloop: &l [*l]\n---\n',
    'good.md': GOOD,
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['good']);
  assert.deepEqual(lines(b), [
    'kb/laughs.md:4: warning: frontmatter aliases expand to more than 10000 values (or refer to themselves); skipped',
    'kb/self.md:3: warning: frontmatter aliases expand to more than 10000 values (or refer to themselves); skipped',
  ]);
});

test('a Latin-1 concept is not read as UTF-8: skipped with the line of the first bad byte', async () => {
  const dir = bundleDir({ 'index.md': '[latin](latin.md) [good](good.md)\n', 'good.md': GOOD });
  writeFileSync(
    join(dir, 'kb', 'latin.md'),
    Buffer.concat([Buffer.from('---\ntype: Note\ntitle: Caf'), Buffer.from([0xe9]), Buffer.from('\n---\n')]),
  );
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['good']);
  assert.deepEqual(lines(b), [
    'kb/latin.md:3: warning: this file is not UTF-8 (byte 0xE9 here; Latin-1 or another encoding?); skipped. Save it as UTF-8',
  ]);
});

test('a concept over the size cap is read only up to the cap, with a warning; its rules still load', async () => {
  const head = GOOD.replace('id: good', 'id: big');
  const dir = bundleDir({ 'index.md': '[big](big.md)\n' });
  // 3 MiB, the cut falling inside a multi-byte character.
  writeFileSync(join(dir, 'kb', 'big.md'), head + 'é'.repeat(3 * 512 * 1024) + '\n');
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['big']);
  assert.equal(b.concepts[0]!.rules.length, 1);
  const body = b.concepts[0]!.body;
  assert.ok(Buffer.byteLength(body) <= MAX_FILE_BYTES, `body is ${Buffer.byteLength(body)} bytes`);
  assert.ok(!body.includes('\uFFFD'), 'the cut does not split a character');
  assert.deepEqual(lines(b), [
    'kb/big.md: warning: this file is 3.0 MiB, over the 1 MiB cap: only its first 1 MiB is read',
  ]);
});

test('an index over the cap is read up to it: the links before the cut count', async () => {
  const links = Array.from({ length: 60_000 }, (_, i) => `- [Concept ${i}](c0.md)`).join('\n');
  const dir = bundleDir({
    'index.md': `${links}\n[late](late.md)\n`,
    'c0.md': GOOD,
    'late.md': GOOD.replace('id: good', 'id: late'),
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['good']);
  assert.deepEqual(lines(b), [
    'kb/index.md: warning: this file is 1.4 MiB, over the 1 MiB cap: only its first 1 MiB is read',
  ]);
});

test('a symlink loop is named a loop, not "no such file"', async () => {
  const dir = bundleDir({ 'index.md': '[loop](loop.md)\n[good](good.md)\n', 'good.md': GOOD });
  symlinkSync('loop.md', join(dir, 'kb', 'loop.md'));
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['good']);
  assert.deepEqual(lines(b), [
    'kb/index.md:1: warning: link to loop.md: a symlink loop (a link that leads back to itself); ignored',
  ]);
});

test(
  'YAML nested past the depth limit, a huge mapping, unknown tags: each its own warning, nothing thrown',
  FINISHES,
  async () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: v`).join('\n');
    const dir = bundleDir({
      'index.md': '[deep](deep.md) [keys](keys.md) [tag](tag.md) [good](good.md)\n',
      'deep.md': `---\ntype: Note\nd: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n---\n`,
      'keys.md': `---\ntype: Note\nid: keys\n${keys}\n---\n`,
      'tag.md': '---\ntype: Note\nf: !!js/function "function () {}"\n---\n',
      'good.md': GOOD,
    });
    const b = await loadBundle(join(dir, 'kb'), { base: dir });
    assert.deepEqual(ids(b), ['keys', 'good']);
    const out = lines(b);
    assert.equal(out.length, 2, out.join('\n'));
    assert.equal(out[0], 'kb/deep.md:3: warning: frontmatter nests more than 64 levels deep; skipped');
    assert.match(out[1]!, /^kb\/tag\.md:3: warning: frontmatter is not valid YAML: unknown .*tag.*; skipped$/);
  },
);

test('index link extraction is linear: 200,000 `[` on one line, and 200,000 `](`', FINISHES, () => {
  assert.deepEqual(extractLinks('['.repeat(200_000)), []);
  assert.deepEqual(extractLinks(`${'[a]('.repeat(100_000)}x.md)`), [{ target: 'x.md', line: 1 }]);
  assert.deepEqual(extractLinks(`${'[a](x'.repeat(50_000)}${' '.repeat(100_000)}`), []);
  assert.deepEqual(extractLinks(`x${'`'.repeat(100_000)} [a](b.md) ${'`` '.repeat(50_000)}`), [
    { target: 'b.md', line: 1 },
  ]);
});

test('first-heading extraction is linear: a heading of 150,000 spaces', FINISHES, () => {
  assert.equal(firstHeading(`#${' '.repeat(150_000)}Title${' '.repeat(150_000)}#\n`), 'Title');
  assert.equal(firstHeading(`# ${'a '.repeat(150_000)}`), `${'a '.repeat(150_000)}`.trimEnd());
  assert.equal(firstHeading(`#${' '.repeat(150_000)}`), null);
});

test('frontmatter split is linear: a million lines, CRLF, no closing fence', FINISHES, () => {
  const many = `---\n${'a: 1\n'.repeat(1_000_000)}`;
  assert.deepEqual(splitFrontmatter(many), {
    ok: false,
    line: 1,
    message: 'the frontmatter has no closing --- line; skipped',
  });
  const split = splitFrontmatter('---\r\ntype: x\r\n---\r\n# T\r\nbody\r');
  assert.deepEqual(split, { ok: true, source: 'type: x', body: '# T\nbody' });
});

test('the knowledge budget never copies a huge text into an array (155 MB crashed Node)', FINISHES, () => {
  const huge = 'word '.repeat(31_000_000); // 155 MB
  assert.equal(characters(huge), huge.length);
  assert.equal(tokensOf(huge), Math.ceil(huge.length / 4));
  const cut = truncateToTokens(huge, 2000);
  assert.ok(cut.endsWith(`\n${TRUNCATION_MARK}`));
  assert.ok(tokensOf(cut) <= 2000);
  // Code points, not UTF-16 units: an emoji counts once and is never split.
  assert.equal(characters('😀😀a'), 3);
  assert.equal(truncateToTokens('😀'.repeat(100), 5).startsWith('😀'.repeat(7)), true);
  assert.ok(!truncateToTokens('😀'.repeat(100), 5).includes('\uFFFD'));
});

test('an overrun is remembered for a week, per bundle, and then forgotten', () => {
  const dir = tempDir();
  const file = join(dir, 'cache.json');
  const now = Date.now();
  rememberOverrun(file, '/kb', 'old', now - OVERRUN_MEMORY_MS - 1);
  rememberOverrun(file, '/kb', 'recent', now - 1000);
  rememberOverrun(file, '/other', 'elsewhere', now);
  assert.deepEqual(ConceptCache.open(file, '/kb').overran(now), ['recent']);
  assert.deepEqual(ConceptCache.open(file, '/other').overran(now), ['elsewhere']);
  assert.deepEqual(ConceptCache.open(file, '/kb').overran(now + OVERRUN_MEMORY_MS), []);
});
