/** Path globs of a bundle, compiled once through picomatch. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkGlob, compileGlob, compileGlobs } from '../../lib/bundle/globs.js';

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
