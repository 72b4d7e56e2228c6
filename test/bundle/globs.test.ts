/** Path globs of a bundle, compiled once through picomatch. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import {
  checkGlob,
  compiledGlob,
  compileGlob,
  compileGlobs,
  costlyGlob,
  GLOB_OPTIONS,
} from '../../lib/bundle/globs.js';

test('globs follow docs/bundle.md: `**` spans folders, `*` stays in one, dot files match', () => {
  const cases: Array<[string, string, boolean]> = [
    ['src/controllers/**', 'src/controllers/a.ts', true],
    ['src/controllers/**', 'src/controllers/deep/er/a.ts', true],
    ['src/controllers/**', 'src/controllers/.env', true],
    ['src/controllers/**', 'src/controllersx/a.ts', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
    ['**/*.ts', 'deep/er/a.ts', true],
    ['**/*.ts', 'a.tsx', false],
    ['**/.env', 'config/.env', true],
    ['.github/**', '.github/workflows/ci.yml', true],
    ['src/[ab].ts', 'src/b.ts', true],
    ['src/[ab].ts', 'src/c.ts', false],
    ['weird name.ts', 'weird name.ts', true],
  ];
  for (const [glob, path, expected] of cases) assert.equal(compileGlob(glob)(path), expected, `${glob} on ${path}`);
  const list = compileGlobs(['docs/**', '**/*.md']);
  assert.deepEqual(['docs/a.txt', 'README.md', 'src/a.ts'].filter(list), ['docs/a.txt', 'README.md']);
  assert.equal(compileGlobs([])('anything'), false);
});

test('checkGlob is memoized without sharing mistakes between globs', () => {
  assert.deepEqual(checkGlob('/src/**'), checkGlob('/src/**'));
  const dotted = checkGlob('./x/*.ts');
  assert.equal(dotted.ok && dotted.glob, 'x/*.ts');
  assert.equal(checkGlob('src/[a').ok, false);
  assert.equal(checkGlob('src/a').ok, true);
});

test('property: a compiled glob matches exactly what picomatch matches, from a fresh regex or a cached one', async () => {
  const fc = (await import('fast-check')).default;
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof import('picomatch');
  const part = fc.constantFrom(
    'src',
    'a',
    'b.ts',
    '.env',
    'x y',
    '*',
    '**',
    '*.ts',
    '[ab]',
    '{a,b}',
    '?',
    'a*',
    '@(a|b)',
    '!(a)',
    '+(a)',
    '\\*',
    '.',
    '..',
    '...',
    'a-b_c',
  );
  // Half of them `FOLDER/**`, which compileGlob decides mostly without a regex.
  const glob = fc.oneof(
    fc.array(part, { minLength: 1, maxLength: 4 }).map((p) => p.join('/')),
    fc.array(part, { minLength: 1, maxLength: 3 }).map((p) => `${p.join('/')}/**`),
  );
  const segment = fc.constantFrom(
    'src',
    'a',
    'b',
    'b.ts',
    '.env',
    'x y',
    'a.ts',
    '*',
    'ab',
    '',
    '.',
    '..',
    '...',
    'a-b_c',
    '**',
  );
  const path = fc.array(segment, { minLength: 0, maxLength: 4 }).map((p) => p.join('/'));
  fc.assert(
    fc.property(glob, fc.array(path, { minLength: 1, maxLength: 6 }), (g, paths) => {
      let reference: (p: string) => boolean;
      try {
        reference = picomatch(g, GLOB_OPTIONS);
      } catch {
        return true; // a glob picomatch refuses is refused by checkGlob before it is ever compiled
      }
      if (costlyGlob(g)) return true; // skipped by checkGlob, and matches nothing (its own test below)
      const fresh = compileGlob(g);
      for (const p of paths) assert.equal(fresh(p), reference(p), `${g} on ${JSON.stringify(p)}`);
      // Through the derived cache: what another run stored gives the same answers.
      const [source, flags] = compiledGlob(g);
      const again = new RegExp(source, flags);
      for (const p of paths)
        assert.equal(p !== '' && (p === g || again.test(p)), reference(p), `${g} on ${JSON.stringify(p)} (cached)`);
      return true;
    }),
    { numRuns: 600 },
  );
});

test('costly globs: more than two `**` or more than two wildcards in a segment are skipped with a warning, not matched', () => {
  for (const g of ['*a*a*a*a*a*a*a*a*a*a*a*a*b', '**/a/**/a/**', 'src/*a*b*', 'src/*(a)*b*c']) {
    assert.ok(costlyGlob(g), g);
    const checked = checkGlob(g);
    assert.ok(!checked.ok && checked.costly, g);
    // A costly glob that reaches the matcher anyway (a config's exclude) matches nothing, at once.
    assert.equal(compileGlob(g)(`${'a'.repeat(44)}c`), false);
    assert.equal(compileGlob(g)(`${'a/'.repeat(2000)}.`), false);
  }
  for (const g of ['**/__tests__/**/*.test.*', 'src/**/*.{ts,tsx}', '*.spec.*', '**/a/**/b.ts'])
    assert.equal(costlyGlob(g), null, g);
});
