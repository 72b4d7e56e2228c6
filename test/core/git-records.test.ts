/**
 * A streamed command's records and batches (stream in lib/core/git/run.ts) cut git's output into records exactly as a split of the
 * whole output would, whatever the reads bring: records far longer than one read, multi-byte
 * characters across read boundaries, a separator of several characters, no trailing separator.
 * The output is a real blob printed by `git cat-file`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stream, type StreamCommand } from '../../lib/core/git/run.js';

/** A blob's content as records (one at a time) or batches (a read at a time), cut at `separator`. */
const blob = <F extends 'records' | 'batches'>(sha: string, format: F, separator?: string): StreamCommand<F> => ({
  args: ['cat-file', 'blob', sha],
  stream: format,
  separator,
});
import { throwawayRepos } from '../kit/repo.js';

const repos = throwawayRepos();

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const r of it) out.push(r);
  return out;
}

test('records come back whole and in order, one at a time or a read at a time', async () => {
  const repo = repos();
  // 4,000 short records, one of 3 MB, and characters of two to four bytes everywhere.
  const records = Array.from({ length: 4000 }, (_, i) => `r${i} é漢😀 ${'x'.repeat(i % 300)}`);
  records.splice(1234, 0, '😀'.repeat(750_000));
  records.push('last, with no separator after it');
  for (const separator of ['\0', '\n', '\x1f\x1e']) {
    const sha = repo.git(['hash-object', '-w', '--stdin'], { input: records.join(separator) }).trim();
    assert.deepEqual(
      await collect(stream(blob(sha, 'records', separator), { cwd: repo.dir })),
      records,
      JSON.stringify(separator),
    );
    const batches: string[][] = [];
    for await (const b of stream(blob(sha, 'batches', separator), { cwd: repo.dir })) batches.push(b);
    assert.ok(
      batches.every((b) => b.length > 0),
      'no empty batch',
    );
    assert.ok(batches.length > 1, 'more than one read');
    assert.deepEqual(batches.flat(), records);
  }
});

test('a failing git command throws; a reader that stops early is not kept waiting for the rest', async () => {
  const repo = repos();
  await assert.rejects(collect(stream(blob('no-such-object', 'records'), { cwd: repo.dir })), /cat-file/);
  const sha = repo.git(['hash-object', '-w', '--stdin'], { input: 'a\0'.repeat(200_000) }).trim();
  let seen = 0;
  for await (const r of stream(blob(sha, 'records'), { cwd: repo.dir })) {
    assert.equal(r, 'a');
    if (++seen === 10) break;
  }
  assert.equal(seen, 10);
});
