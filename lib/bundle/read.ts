/**
 * Reading one bundle file with bounded memory: only a regular file, at most MAX_FILE_BYTES of it
 * whatever its size, and the bytes must be UTF-8 (docs/bundle.md "Caps"). A file over the cap is used
 * up to the cap; the caller warns.
 */
import { isUtf8 } from 'node:buffer';
import { readRegularFile } from '../core/fs/read.js';

/** The most of one bundle file (index or concept) that is read: 1 MiB. */
export const MAX_FILE_BYTES = 1024 * 1024;

export interface CappedRead {
  bytes: Buffer;
  /** The file's size on disk (more than bytes.length when it was cut at the cap). */
  size: number;
  truncated: boolean;
}

/**
 * Reads at most `cap` bytes of `file`; a cut never splits a UTF-8 sequence. Only a regular file
 * is read (core/fs/read.ts): a FIFO or a device is a FileShapeError, never a hang. Throws the fs error.
 */
export function readCapped(file: string, cap = MAX_FILE_BYTES): CappedRead {
  const read = readRegularFile(file, { maxBytes: cap, truncate: true });
  if (!read.truncated) return read;
  return { bytes: read.bytes.subarray(0, utf8Boundary(read.bytes)), size: read.size, truncated: true };
}

/** The length of `bytes` without a UTF-8 sequence cut off at its end. */
function utf8Boundary(bytes: Uint8Array): number {
  let start = bytes.length;
  // Back up over at most three continuation bytes to the lead byte of the last sequence.
  for (let k = 1; k <= 4 && start > 0; k++) {
    const b = bytes[bytes.length - k]!;
    if ((b & 0xc0) !== 0x80) {
      const need = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      start = need > k ? bytes.length - k : bytes.length;
      break;
    }
  }
  return start;
}

export type Decoded = { ok: true; text: string } | { ok: false; line: number; byte: number };

/** The text of UTF-8 bytes, or where the first byte that is not UTF-8 sits (a Latin-1 file, a binary one). */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  if (isUtf8(bytes))
    return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8') };
  const at = firstInvalid(bytes);
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
  return { ok: false, line, byte: bytes[at] ?? 0 };
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
export function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}
