/** Small derived values kept between runs (lib/core/derived-cache.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { derived, openDerivedCache, saveDerivedCache } from '../../lib/core/derived-cache.js';
import { tempDir } from '../kit/repo.js';

const isNumber = (v: unknown): v is number => typeof v === 'number';

test('a value computed once is read back by the next run; another build, a damaged file or a wrong shape computes again', async () => {
  const dir = tempDir();
  const file = join(dir, 'revtrail', 'derived-v1.json');
  let computed = 0;
  const square = (n: number) =>
    derived(
      'square',
      String(n),
      () => {
        computed++;
        return n * n;
      },
      isNumber,
    );

  openDerivedCache(file);
  assert.deepEqual([square(3), square(4), square(3)], [9, 16, 9]);
  assert.equal(computed, 2, 'each value is computed once');
  await saveDerivedCache();
  const stored = JSON.parse(readFileSync(file, 'utf8')) as {
    build: string;
    tables: Record<string, Record<string, unknown>>;
  };
  assert.deepEqual(stored.tables.square, { 3: 9, 4: 16 });

  // "The next run": the same file opened afresh (another file first, so the store is reread).
  openDerivedCache(join(dir, 'other.json'));
  openDerivedCache(file);
  computed = 0;
  assert.deepEqual([square(3), square(4)], [9, 16]);
  assert.equal(computed, 0);

  // A value of the wrong shape is not trusted.
  writeFileSync(file, JSON.stringify({ ...stored, tables: { square: { 3: 'nine' } } }));
  openDerivedCache(join(dir, 'other.json'));
  openDerivedCache(file);
  assert.equal(square(3), 9);
  assert.equal(computed, 1);

  // Another build's file, or a damaged one: nothing is taken from it.
  for (const text of [JSON.stringify({ ...stored, build: 'another build' }), '{"build": ']) {
    writeFileSync(file, text);
    openDerivedCache(join(dir, 'other.json'));
    openDerivedCache(file);
    computed = 0;
    assert.equal(square(4), 16);
    assert.equal(computed, 1, text.slice(0, 20));
  }
});
