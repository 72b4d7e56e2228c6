/**
 * The gate's facts cache reads each line only when its commit is asked about: what it answers
 * must be what reading every line up front answered (a later line replaces an earlier one, a
 * torn line is no entry, a line in another spelling still counts), and what a run learns is
 * there for the next run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FactsCache } from '../../lib/gate/cache.js';
import type { LineRanges } from '../../lib/gate/facts.js';
import { tempDir } from '../kit/repo.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

function cacheFile(commonDir: string, text: string): void {
  mkdirSync(join(commonDir, 'revtrail', 'gate-cache'), { recursive: true });
  writeFileSync(join(commonDir, 'revtrail', 'gate-cache', 'facts-v1.jsonl'), text);
}

test('later lines win, torn lines are skipped, other spellings are read, commits never mix', async () => {
  const dir = tempDir();
  cacheFile(
    dir,
    [
      JSON.stringify({ c: A, t: ['old.ts'] }),
      JSON.stringify({ c: A, f: 'x.ts', r: [[1, 2]] }),
      '{"c":"' + B + '","t":["torn',
      JSON.stringify({ c: A, t: ['a.ts', 'b.ts'] }),
      `{ "c" : "${C}", "t" : ["spaced.ts"] }`,
      JSON.stringify({ c: B, f: 'x.ts', r: [[5, 5]] }),
      'null',
      '',
      JSON.stringify({ c: A, f: 'x.ts', r: [[3, 4]] }),
    ].join('\n') + '\n',
  );
  const cache = await FactsCache.load(dir);
  assert.deepEqual(cache.touched(A), new Set(['a.ts', 'b.ts']));
  assert.equal(cache.touched(B), undefined);
  assert.deepEqual(cache.touched(C), new Set(['spaced.ts']));
  assert.deepEqual(cache.changed(A, 'x.ts'), [[3, 4]]);
  assert.deepEqual(cache.changed(B, 'x.ts'), [[5, 5]]);
  assert.equal(cache.changed(A, 'y.ts'), undefined);
  assert.equal(cache.changed(C, 'x.ts'), undefined);
  assert.equal(cache.touched('d'.repeat(40)), undefined);
});

test('what a run learns is answered at once and read back by the next run', async () => {
  const dir = tempDir();
  const first = await FactsCache.load(dir);
  first.setTouched(A, new Set(['a.ts']));
  first.setChanged(A, 'a.ts', [[1, 3]]);
  assert.deepEqual(first.touched(A), new Set(['a.ts']));
  await first.save();
  const second = await FactsCache.load(dir);
  assert.deepEqual(second.touched(A), new Set(['a.ts']));
  assert.deepEqual(second.changed(A, 'a.ts'), [[1, 3]]);
  second.setTouched(A, new Set(['b.ts']));
  await second.save();
  assert.deepEqual((await FactsCache.load(dir)).touched(A), new Set(['b.ts']));
  assert.equal(readFileSync(join(dir, 'revtrail', 'gate-cache', 'facts-v1.jsonl'), 'utf8').split('\n').length, 4);
});

test('answers equal reading every line up front (property)', async () => {
  const commit = fc.constantFrom(A, B, C);
  const file = fc.constantFrom('x.ts', 'y.ts', 'dir/é "q".ts');
  const ranges = fc.array(fc.tuple(fc.nat(50), fc.nat(50)), { maxLength: 3 }) as fc.Arbitrary<LineRanges>;
  const entry = fc.oneof(
    fc.record({ c: commit, t: fc.array(file, { maxLength: 3 }) }).map((e) => JSON.stringify(e)),
    fc.record({ c: commit, f: file, r: ranges }).map((e) => JSON.stringify(e)),
    fc.record({ c: commit, t: fc.array(file, { maxLength: 3 }) }).map((e) => JSON.stringify(e).slice(0, 20)),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(entry, { maxLength: 12 }), async (lines) => {
      const dir = tempDir();
      cacheFile(dir, lines.join('\n') + '\n');
      // The reading every line up front gave.
      const touched = new Map<string, Set<string>>();
      const changed = new Map<string, LineRanges>();
      for (const line of lines) {
        try {
          const e = JSON.parse(line) as { c: string; t?: string[]; f?: string; r?: LineRanges };
          if (e.t) touched.set(e.c, new Set(e.t));
          else if (e.f !== undefined && e.r) changed.set(`${e.c}\0${e.f}`, e.r);
        } catch {
          // torn
        }
      }
      const cache = await FactsCache.load(dir);
      for (const c of [A, B, C]) {
        assert.deepEqual(cache.touched(c), touched.get(c));
        for (const f of ['x.ts', 'y.ts', 'dir/é "q".ts'])
          assert.deepEqual(cache.changed(c, f), changed.get(`${c}\0${f}`));
      }
    }),
    { numRuns: 60 },
  );
});
