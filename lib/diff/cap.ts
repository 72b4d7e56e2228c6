/**
 * Bounded diffs (docs/review.md "Big files"): git's diff output read as a byte stream, with what
 * one file contributes capped (bytes and lines) and the whole diff capped, so that no file can
 * exhaust memory or make a string longer than V8 allows. A file over its cap keeps its first
 * lines, its last hunk header rewritten to the lines kept, so the diff still parses; the file is
 * named so the review can say it was reviewed up to the cap.
 *
 * Boundaries are found in the bytes: every line of a hunk starts with ` `, `-`, `+` or `\`, so a
 * line starting `diff --git ` is always a file header, never a file's content.
 */
import { parseHunkHeader, type HunkHeader } from './hunk-header.js';
import { parseDiff } from './parse.js';
import { formatHunkHeader } from './format.js';
import { filePath } from './types.js';
import { KEEP_BYTES, PastCapScreen } from './past-cap.js';

/** All the lines past caps one diff keeps for the credential rules (a file keeps at most KEEP_BYTES). */
const PAST_CAP_BYTES = 16 * KEEP_BYTES;

export interface DiffCaps {
  /** Bytes of diff text one file contributes. */
  fileBytes: number;
  /** Lines of diff text one file contributes. */
  fileLines: number;
  /** Bytes of the whole diff (files beyond it keep only their headers). */
  totalBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_CAPS: DiffCaps = { fileBytes: 8 * MiB, fileLines: 100_000, totalBytes: 128 * MiB };

/** A diff read under the caps, and the files it cut (their paths, in diff order). */
export interface CappedDiff {
  text: string;
  capped: string[];
}

/** Receives the bytes between delimiters, and each delimiter found. */
interface SplitSink {
  bytes(part: Buffer): void;
  boundary(): void;
}

/**
 * Finds `delimiter` in a stream read in pieces (a delimiter may straddle two reads) and hands on
 * the bytes between. The stream's start counts as following a newline, so a delimiter that starts
 * with `\n` is found on the first line too.
 */
export class StreamSplitter {
  private tail: Buffer = Buffer.from('\n');
  private leading = true;

  constructor(
    private readonly delimiter: Buffer,
    private readonly sink: SplitSink,
  ) {}

  write(piece: Buffer): void {
    const data = this.tail.length ? Buffer.concat([this.tail, piece]) : piece;
    let start = 0;
    if (this.leading && data.length < this.delimiter.length) {
      this.tail = Buffer.from(data);
      return;
    }
    if (this.leading) {
      this.leading = false;
      // The newline put in front of the stream is not the stream's: dropped unless a delimiter takes it.
      if (data.indexOf(this.delimiter) !== 0) start = 1;
    }
    for (let at = data.indexOf(this.delimiter, start); at !== -1; at = data.indexOf(this.delimiter, start)) {
      if (at > start) this.sink.bytes(data.subarray(start, at));
      this.sink.boundary();
      start = at + this.delimiter.length;
    }
    const keep = Math.max(start, data.length - (this.delimiter.length - 1));
    if (keep > start) this.sink.bytes(data.subarray(start, keep));
    this.tail = Buffer.from(data.subarray(keep));
  }

  end(): void {
    if (this.leading) {
      this.leading = false;
      if (this.tail.indexOf(this.delimiter) === 0) this.sink.boundary();
      this.tail = this.tail.subarray(this.tail.indexOf(this.delimiter) === 0 ? this.delimiter.length : 1);
    }
    if (this.tail.length) this.sink.bytes(this.tail);
    this.tail = Buffer.alloc(0);
  }
}

const FILE_HEADER = Buffer.from('\ndiff --git ');
const HEADER_ROOM = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * One diff's bytes in, the capped diff out. `write` the pieces as they come, `end` once; the
 * output is the input wherever no cap was reached.
 */
export class DiffCapper {
  private readonly out: Buffer[] = [];
  private outBytes = 0;
  private file: Buffer[] = [];
  private fileBytes = 0;
  /** The current file reached its cap: its further bytes go only to the credential screen. */
  private skipping = false;
  private screen: PastCapScreen | null = null;
  private pastCapLeft = PAST_CAP_BYTES;
  private readonly splitter: StreamSplitter;
  readonly capped: string[] = [];

  constructor(private readonly caps: DiffCaps = DEFAULT_CAPS) {
    this.splitter = new StreamSplitter(FILE_HEADER, {
      bytes: (part) => this.add(part),
      boundary: () => {
        // The delimiter holds the newline that ended the previous file and the next header's start.
        if (this.fileBytes > 0 || this.skipping) this.add(Buffer.from('\n'));
        this.finishFile();
        this.add(Buffer.from('diff --git '));
      },
    });
  }

  write(piece: Buffer): void {
    this.splitter.write(piece);
  }

  /** The capped diff's bytes. */
  end(): Buffer {
    this.splitter.end();
    this.finishFile();
    return this.out.length === 1 ? this.out[0]! : Buffer.concat(this.out);
  }

  private add(part: Buffer): void {
    if (this.skipping) {
      this.screen?.write(part.toString('latin1'));
      return;
    }
    this.file.push(part);
    this.fileBytes += part.length;
    // A file is cut before its end once its header is surely in (a few KiB at most); finishFile
    // cuts a smaller one.
    if (
      this.fileBytes > HEADER_ROOM &&
      (this.fileBytes > this.caps.fileBytes || this.outBytes + this.fileBytes > this.caps.totalBytes)
    )
      this.cut();
  }

  private finishFile(): void {
    if (!this.skipping && this.fileBytes > 0) {
      // Every line is at least two bytes: a file under twice the line cap cannot be over it.
      if (this.fileBytes > this.caps.fileBytes || this.outBytes + this.fileBytes > this.caps.totalBytes) this.cut();
      else if (this.fileBytes >= 2 * this.caps.fileLines && countLines(this.file) > this.caps.fileLines) this.cut();
      else this.emit(this.file);
    }
    // The lines past the cap that may hold a credential, after what was kept (./past-cap.ts).
    if (this.screen) {
      const extra = this.screen.end();
      this.pastCapLeft -= this.screen.used;
      if (extra) this.emit([Buffer.from(extra, 'latin1')]);
      this.screen = null;
    }
    this.file = [];
    this.fileBytes = 0;
    this.skipping = false;
  }

  private emit(parts: Buffer[]): void {
    for (const part of parts) {
      this.out.push(part);
      this.outBytes += part.length;
    }
  }

  /** Keeps the current file's first lines within the caps, and drops the rest of it. */
  private cut(): void {
    const bytes = Buffer.concat(this.file);
    const room = Math.max(0, Math.min(this.caps.fileBytes, this.caps.totalBytes - this.outBytes));
    const kept = cutFile(bytes, room, this.caps.fileLines);
    this.emit([kept.bytes]);
    this.capped.push(kept.path);
    this.file = [];
    this.fileBytes = 0;
    this.skipping = true;
    this.screen = new PastCapScreen(kept.next, Math.max(0, Math.min(KEEP_BYTES, this.pastCapLeft)));
    this.screen.write(bytes.subarray(kept.restAt).toString('latin1'));
  }
}

function countLines(parts: readonly Buffer[]): number {
  let n = 0;
  for (const part of parts) for (let at = part.indexOf(NEWLINE); at !== -1; at = part.indexOf(NEWLINE, at + 1)) n++;
  return n;
}

/**
 * The first whole lines of one file's diff within `maxBytes` and `maxLines` (its header always),
 * with the last hunk's header giving the counts of the lines kept, and the file's path.
 */
export function cutFile(
  bytes: Buffer,
  maxBytes: number,
  maxLines: number,
): { bytes: Buffer; path: string; restAt: number; next: { old: number; new: number } | null } {
  const lines: Buffer[] = [];
  let used = 0;
  let headerEnd = -1; // lines before the first hunk
  let hunkAt = -1;
  let hunk: HunkHeader | null = null;
  let oldCount = 0;
  let newCount = 0;
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline + 1;
    const line = bytes.subarray(start, end);
    const first = line[0];
    const isHunk = first === 0x40 /* @ */ && line[1] === 0x40;
    if (headerEnd === -1 && isHunk) headerEnd = lines.length;
    const inHeader = headerEnd === -1;
    if (!inHeader && (used + line.length > maxBytes || lines.length >= maxLines || newline === -1)) break;
    if (isHunk) {
      hunk = parseHunkHeader(line.toString('latin1').replace(/\r?\n$/, ''));
      hunkAt = lines.length;
      oldCount = newCount = 0;
    } else if (hunk) {
      if (first === 0x20 /* space */ || first === NEWLINE) {
        oldCount++;
        newCount++;
      } else if (first === 0x2d /* - */) oldCount++;
      else if (first === 0x2b /* + */) newCount++;
    }
    lines.push(line);
    used += line.length;
    start = end;
  }
  const header = headerEnd === -1 ? lines : lines.slice(0, headerEnd);
  let path = '?';
  try {
    const [file] = parseDiff(Buffer.concat(header).toString('utf8'), 'diff');
    if (file) path = filePath(file);
  } catch {
    // a header git wrote always parses; '?' only for hand-made input
  }
  if (hunk && hunkAt !== -1) {
    if (oldCount === 0 && newCount === 0) lines.splice(hunkAt);
    else
      lines[hunkAt] = Buffer.from(
        formatHunkHeader(
          { oldStart: hunk.oldStart, oldLines: oldCount, newStart: hunk.newStart, newLines: newCount },
          hunk.tail,
        ),
        'latin1',
      );
  } else if (hunkAt !== -1) lines.splice(hunkAt);
  const next = hunk ? { old: hunk.oldStart + oldCount, new: hunk.newStart + newCount } : null;
  return { bytes: Buffer.concat(lines), path, restAt: start, next };
}

/** Reads a diff under the caps from a stream of pieces. */
export async function readCapped(pieces: AsyncIterable<Buffer>, caps: DiffCaps = DEFAULT_CAPS): Promise<CappedDiff> {
  const capper = new DiffCapper(caps);
  for await (const piece of pieces) capper.write(piece);
  return { text: capper.end().toString('utf8'), capped: capper.capped };
}
