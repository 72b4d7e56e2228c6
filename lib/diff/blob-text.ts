/**
 * Files git shows as "Binary files … differ" (the `binary` or `-diff` attribute, or a NUL in its
 * first 8,000 bytes), read as text for the credential rules only (docs/review.md "Git's
 * attributes"): a key in such a file is pushed like any other. What git would push is read
 * (blobs through one `git cat-file --batch`, the work tree's file for local changes), up to the
 * per-file cap, decoded (UTF-16 by its BOM, UTF-8 when it is valid, else latin1, byte for
 * character), and the lines of the new side that the old side lacks become the file's added
 * lines, numbered as in the new file.
 */
import { lstat } from 'node:fs/promises';
import { readRegularFile } from '../core/fs/read.js';
import { join } from 'node:path';
import { catFileBatchStream, stream } from '../core/git/commands.js';
import { DEFAULT_CAPS, type DiffCaps } from './cap.js';
import type { DiffFile, Hunk, TextView } from './types.js';

/** Where the new side of a file is: a blob, or the work tree's file (local changes). */
export type BlobSide = 'objects' | 'worktree';

const ZERO_ID = /^0+$/;

/**
 * The text of bytes: the encoding a BOM names (UTF-32 before UTF-16: FF FE 00 00 starts both),
 * else one the bytes' NUL pattern shows (UTF-16 or UTF-32 text of mostly ASCII without a BOM, as
 * Windows tools write it), UTF-8 when valid, else latin1 (docs/review.md "Git's attributes").
 */
export function decodeBytes(bytes: Buffer): { text: string; encoding: TextView } {
  const bom = (...b: number[]) => b.every((x, i) => bytes[i] === x);
  if (bom(0xff, 0xfe, 0, 0)) return { text: utf32(bytes.subarray(4), 'le'), encoding: 'utf-32le' };
  if (bom(0, 0, 0xfe, 0xff)) return { text: utf32(bytes.subarray(4), 'be'), encoding: 'utf-32be' };
  if (bom(0xff, 0xfe)) return { text: bytes.subarray(2).toString('utf16le'), encoding: 'utf-16le' };
  if (bom(0xfe, 0xff)) return { text: utf16be(bytes.subarray(2)), encoding: 'utf-16be' };
  const shape = nulShape(bytes);
  if (shape === 'utf-32le') return { text: utf32(bytes, 'le'), encoding: shape };
  if (shape === 'utf-32be') return { text: utf32(bytes, 'be'), encoding: shape };
  if (shape === 'utf-16le') return { text: bytes.toString('utf16le'), encoding: shape };
  if (shape === 'utf-16be') return { text: utf16be(bytes), encoding: shape };
  const start = bom(0xef, 0xbb, 0xbf) ? 3 : 0;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start)), encoding: 'utf-8' };
  } catch {
    return { text: bytes.toString('latin1'), encoding: 'latin1' };
  }
}

function utf16be(bytes: Buffer): string {
  return Buffer.from(bytes.subarray(0, bytes.length & ~1))
    .swap16()
    .toString('utf16le');
}

/** UTF-32 code units as text; a unit that is no code point becomes U+FFFD. */
function utf32(bytes: Buffer, order: 'le' | 'be'): string {
  const parts: string[] = [];
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    const unit = order === 'le' ? bytes.readUInt32LE(i) : bytes.readUInt32BE(i);
    parts.push(unit <= 0x10ffff && (unit < 0xd800 || unit > 0xdfff) ? String.fromCodePoint(unit) : '\ufffd');
  }
  return parts.join('');
}

/** How much of a file's start is looked at for a NUL pattern (git's own binary test reads 8,000 bytes). */
const SHAPE_BYTES = 8000;

/**
 * The wide encoding a BOM-less start shows, or null: text of mostly ASCII in UTF-16 has a NUL in
 * nearly every other byte (the high byte of each unit) and in UTF-32 three bytes of four, while
 * the other positions are not NUL. At least 8 units, and 90% of them, must fit the shape, so a
 * binary file with scattered NULs stays binary (latin1).
 */
function nulShape(bytes: Buffer): Exclude<TextView, 'utf-8' | 'latin1'> | null {
  const n = Math.min(bytes.length, SHAPE_BYTES);
  if (n < 16 || bytes.indexOf(0) === -1) return null;
  const fits = (width: 2 | 4, order: 'le' | 'be') => {
    let units = 0;
    let good = 0;
    for (let i = 0; i + width <= n; i += width) {
      units++;
      const low = order === 'le' ? bytes[i]! : bytes[i + width - 1]!;
      let zeros = true;
      for (let k = 1; k < width; k++) if (bytes[order === 'le' ? i + k : i + width - 1 - k] !== 0) zeros = false;
      if (zeros && low !== 0) good++;
    }
    return units >= 8 && good >= units * 0.9;
  };
  if (fits(4, 'le')) return 'utf-32le';
  if (fits(4, 'be')) return 'utf-32be';
  if (fits(2, 'le')) return 'utf-16le';
  if (fits(2, 'be')) return 'utf-16be';
  return null;
}

function linesOf(text: string, max = Infinity): string[] {
  const lines = text.split('\n', max === Infinity ? undefined : max + 1);
  if (lines.length > max) lines.length = max;
  else if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * Hunks of the new side's lines the old side does not hold (as many times as it holds them),
 * among the first `maxLines` of each side.
 */
export function addedHunks(oldText: string | null, newText: string, maxLines = Infinity): Hunk[] {
  const before = new Map<string, number>();
  for (const line of oldText === null ? [] : linesOf(oldText, maxLines)) before.set(line, (before.get(line) ?? 0) + 1);
  const hunks: Hunk[] = [];
  let current: Hunk | null = null;
  linesOf(newText, maxLines).forEach((text, index) => {
    const left = before.get(text) ?? 0;
    if (left > 0) {
      before.set(text, left - 1);
      current = null;
      return;
    }
    const line = index + 1;
    if (!current)
      hunks.push((current = { oldStart: 0, oldLines: 0, newStart: line, newLines: 0, section: '', lines: [] }));
    current.lines.push({ kind: 'add', text, oldLine: null, newLine: line });
    current.newLines++;
  });
  return hunks;
}

/**
 * The binary files of `files` (those with a new side) given text views in place; returns the
 * paths read only up to the cap. A blob that cannot be read leaves its file as it was.
 */
export async function readBinaryAsText(
  top: string,
  files: DiffFile[],
  side: BlobSide,
  caps: DiffCaps = DEFAULT_CAPS,
): Promise<string[]> {
  const wanted = files.filter((f) => f.binary && f.newPath !== null && f.blobs);
  if (wanted.length === 0) return [];
  const ids = new Set<string>();
  for (const f of wanted) {
    if (f.blobs!.old && !ZERO_ID.test(f.blobs!.old)) ids.add(f.blobs!.old);
    if (side === 'objects' && f.blobs!.new && !ZERO_ID.test(f.blobs!.new)) ids.add(f.blobs!.new);
  }
  let budget = caps.totalBytes;
  const blobs = await catFile(top, [...ids], caps.fileBytes);
  const capped: string[] = [];
  for (const f of wanted) {
    const old = f.blobs!.old && !ZERO_ID.test(f.blobs!.old) ? blobs.get(f.blobs!.old) : undefined;
    const next =
      side === 'worktree' ? await readWorktree(join(top, f.newPath!), caps.fileBytes) : blobs.get(f.blobs!.new ?? '');
    if (!next || (f.status !== 'added' && f.blobs!.old && !ZERO_ID.test(f.blobs!.old) && !old)) continue;
    if (budget <= 0) {
      capped.push(f.newPath!);
      continue;
    }
    budget -= next.bytes.length + (old?.bytes.length ?? 0);
    const decoded = decodeBytes(next.bytes);
    const oldText = old ? decodeBytes(old.bytes).text : null;
    if (
      next.cut ||
      old?.cut ||
      overLines(decoded.text, caps.fileLines) ||
      (oldText !== null && overLines(oldText, caps.fileLines))
    )
      capped.push(f.newPath!);
    f.hunks = addedHunks(oldText, decoded.text, caps.fileLines);
    f.textView = decoded.encoding;
  }
  return capped;
}

function overLines(text: string, max: number): boolean {
  let at = -1;
  for (let n = 0; n <= max; n++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return false;
    if (n === max - 1) return at + 1 < text.length;
  }
  return true;
}

interface Blob {
  bytes: Buffer;
  /** Longer than the cap: `bytes` is its start. */
  cut: boolean;
}

/** The blobs' first `cap` bytes, from one `git cat-file --batch` (missing ones are absent). */
async function catFile(top: string, ids: readonly string[], cap: number): Promise<Map<string, Blob>> {
  const found = new Map<string, Blob>();
  if (ids.length === 0) return found;
  let pending = Buffer.alloc(0); // an unfinished header line
  let current: { id: string; left: number; parts: Buffer[]; kept: number; size: number; blob: boolean } | null = null;
  let queue = 0;
  // catFileBatch's output parsed as it streams: each blob is cut at `cap` bytes on arrival,
  // where catFileBatch's own parse would hold it whole.
  for await (const piece of stream(catFileBatchStream(ids), { cwd: top })) {
    let data = pending.length ? Buffer.concat([pending, piece]) : piece;
    pending = Buffer.alloc(0);
    while (data.length) {
      if (current) {
        // The content, then one newline git adds after it.
        const take = Math.min(current.left, data.length);
        if (current.kept < cap) {
          const room = Math.min(take, cap - current.kept);
          current.parts.push(Buffer.from(data.subarray(0, room)));
          current.kept += room;
        }
        current.left -= take;
        data = data.subarray(take);
        if (current.left === 0) {
          if (current.blob) found.set(current.id, { bytes: Buffer.concat(current.parts), cut: current.size > cap });
          current = null;
        }
        continue;
      }
      const newline = data.indexOf(0x0a);
      if (newline === -1) {
        pending = Buffer.from(data);
        break;
      }
      const header = data.subarray(0, newline).toString('utf8');
      data = data.subarray(newline + 1);
      if (header === '') continue; // the newline after a blob's content
      const id = ids[queue++] ?? '';
      const m = /^\S+ (\S+) (\d+)$/.exec(header);
      if (!m) continue; // "<id> missing" or "ambiguous"
      const size = Number(m[2]);
      const blob = m[1] === 'blob';
      // Anything but a blob is read past, kept nowhere.
      if (size > 0) current = { id, left: size, parts: [], kept: blob ? 0 : cap, size, blob };
      else if (blob) found.set(id, { bytes: Buffer.alloc(0), cut: false });
    }
  }
  return found;
}

/** A work tree file's first `cap` bytes; undefined when it cannot be read as a regular file. */
async function readWorktree(path: string, cap: number): Promise<Blob | undefined> {
  try {
    // A symbolic link is its target's name to git, never this file's bytes.
    if ((await lstat(path)).isSymbolicLink()) return undefined;
    // The one safe reader (core/fs/read.ts): only a regular file, cut at the cap.
    const read = readRegularFile(path, { maxBytes: cap, truncate: true });
    return { bytes: read.bytes, cut: read.truncated };
  } catch {
    return undefined;
  }
}
