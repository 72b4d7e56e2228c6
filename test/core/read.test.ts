/**
 * core/fs/read.ts: only regular files, at most maxBytes of them; a device, a FIFO or a folder is
 * refused before a byte is read (docs/trust.md "Fails closed").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FileShapeError, readFailure, readRegularFile, readRegularText } from '../../lib/core/fs/read.js';
import { tempDir } from '../kit/repo.js';

const dir = tempDir();

test('a regular file, and a symlink to one, read whole; a missing one is undefined for readRegularText', () => {
  writeFileSync(join(dir, 'a.json'), '{"a": 1}\n');
  symlinkSync('a.json', join(dir, 'link.json'));
  assert.equal(readRegularFile(join(dir, 'a.json'), { maxBytes: 100 }).bytes.toString(), '{"a": 1}\n');
  assert.deepEqual(readRegularFile(join(dir, 'link.json'), { maxBytes: 100 }), {
    bytes: Buffer.from('{"a": 1}\n'),
    size: 9,
    truncated: false,
  });
  assert.equal(readRegularText(join(dir, 'none.json'), 100), undefined);
  assert.equal(readRegularText(join(dir, 'a.json', 'below'), 100), undefined, 'ENOTDIR is "none" too');
});

test('devices, a FIFO (no writer: the open does not wait) and a folder are FileShapeErrors naming the kind', () => {
  symlinkSync('/dev/zero', join(dir, 'zero'));
  symlinkSync('/dev/urandom', join(dir, 'random'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  mkdirSync(join(dir, 'folder'));
  for (const [name, kind] of [
    ['zero', /a character device, such as \/dev\/zero/],
    ['random', /a character device/],
    ['fifo', /a FIFO/],
    ['folder', /a folder/],
  ] as const) {
    assert.throws(
      () => readRegularFile(join(dir, name), { maxBytes: 1 << 20, truncate: true }),
      (e: unknown) =>
        e instanceof FileShapeError &&
        e.code === 'ENOTREG' &&
        kind.test(e.message) &&
        /^not a regular file/.test(readFailure(e)),
      name,
    );
  }
});

test('a file over the cap: an error by default, its first maxBytes with truncate', () => {
  writeFileSync(join(dir, 'big'), 'x'.repeat(5000));
  assert.throws(
    () => readRegularFile(join(dir, 'big'), { maxBytes: 4096 }),
    (e: unknown) => e instanceof FileShapeError && e.code === 'ETOOBIG' && /5 KiB, more than the 4 KiB/.test(e.message),
  );
  const cut = readRegularFile(join(dir, 'big'), { maxBytes: 4096, truncate: true });
  assert.deepEqual([cut.bytes.length, cut.size, cut.truncated], [4096, 5000, true]);
  assert.match(readFailure(Object.assign(new Error('x'), { code: 'EACCES' })), /permission denied \(EACCES\)/);
});

test("property: the bytes read are the file's first min(size, maxBytes) bytes, truncated exactly when size > maxBytes", () => {
  const file = join(dir, 'prop');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 0, max: 4000 }), (content, maxBytes) => {
      writeFileSync(file, content);
      const read = readRegularFile(file, { maxBytes, truncate: true });
      assert.deepEqual(new Uint8Array(read.bytes), content.subarray(0, Math.min(content.length, maxBytes)));
      assert.equal(read.truncated, content.length > maxBytes);
      assert.equal(read.size, content.length);
    }),
    { numRuns: 200 },
  );
});
