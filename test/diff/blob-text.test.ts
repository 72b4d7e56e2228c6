/**
 * Files git shows as binary, read as text for the credential rules (lib/diff/blob-text.ts): the
 * decoding a BOM or valid UTF-8 names, else latin1, and the added lines with their numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addedHunks, decodeBytes } from '../../lib/diff/blob-text.js';

test('decoding: UTF-16 by its BOM (both byte orders), UTF-8 when valid (BOM dropped), else latin1 byte for character', () => {
  const text = 'key=é\r\n';
  assert.deepEqual(decodeBytes(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), {
    text,
    encoding: 'utf-16le',
  });
  const be = Buffer.from(text, 'utf16le').swap16();
  assert.deepEqual(decodeBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), { text, encoding: 'utf-16be' });
  assert.deepEqual(decodeBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])), {
    text,
    encoding: 'utf-8',
  });
  const binary = Buffer.from([0x89, 0x50, 0, 0xff, 0x41, 0x0a]);
  assert.deepEqual(decodeBytes(binary), { text: binary.toString('latin1'), encoding: 'latin1' });
  assert.equal(decodeBytes(binary).text.length, binary.length);
});

test('decoding without a BOM: UTF-16 and UTF-32 of mostly ASCII by their NUL pattern; UTF-32 by its BOM; a binary with NULs stays latin1', () => {
  const text = '[aws]\r\nkey=AKIA-not-a-key\r\nname=é\r\n';
  const le = Buffer.from(text, 'utf16le');
  assert.deepEqual(decodeBytes(le), { text, encoding: 'utf-16le' });
  assert.deepEqual(decodeBytes(Buffer.from(le).swap16()), { text, encoding: 'utf-16be' });
  const units = [...text].map((c) => c.codePointAt(0)!);
  const le32 = Buffer.alloc(units.length * 4);
  const be32 = Buffer.alloc(units.length * 4);
  units.forEach((u, i) => {
    le32.writeUInt32LE(u, i * 4);
    be32.writeUInt32BE(u, i * 4);
  });
  assert.deepEqual(decodeBytes(le32), { text, encoding: 'utf-32le' });
  assert.deepEqual(decodeBytes(be32), { text, encoding: 'utf-32be' });
  assert.deepEqual(decodeBytes(Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), le32])), { text, encoding: 'utf-32le' });
  assert.deepEqual(decodeBytes(Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), be32])), { text, encoding: 'utf-32be' });
  // A PNG-like start: NULs here and there, not in a pattern.
  const png = Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0,
  ]);
  assert.equal(decodeBytes(png).encoding, 'latin1');
});

test('added lines: those of the new side the old side lacks, as often as it lacks them, numbered in the new side', () => {
  const hunks = addedHunks('a\nb\nb\n', 'a\nk1\nb\nb\nb\r\nk2\n');
  assert.deepEqual(
    hunks.map((h) => [h.newStart, h.newLines, h.lines.map((l) => [l.newLine, l.text])]),
    [
      [2, 1, [[2, 'k1']]],
      [
        5,
        2,
        [
          [5, 'b'],
          [6, 'k2'],
        ],
      ],
    ],
  );
  assert.deepEqual(
    addedHunks(null, 'x\ny').flatMap((h) => h.lines.map((l) => l.newLine)),
    [1, 2],
  );
  assert.deepEqual(
    addedHunks(null, 'x\ny\nz\n', 2).flatMap((h) => h.lines.map((l) => l.text)),
    ['x', 'y'],
  );
});
