/**
 * The one way revtrail reads a file that a repository (or anything else it does not write
 * itself) may have put there: only a regular file, and at most a given number of bytes
 * (docs/trust.md "Fails closed"). A committed symlink to /dev/zero or /dev/urandom, a FIFO or a
 * socket is refused before a byte is read: the open is non-blocking (a FIFO with no writer would
 * otherwise wait forever) and the kind is checked on the open descriptor, so a swap between a
 * check and the read cannot slip a device in. Symlinks are followed: a link to a regular file
 * reads as that file.
 *
 * Synchronous on purpose: the callers read small files on the hook path, where fs/promises is
 * not loaded (docs/hooks.md "Start-up").
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { readMessages as m } from '../../messages/storage.js';

/** Why a file was not read: it is not a regular file, or it is larger than the reader takes. */
export class FileShapeError extends Error {
  readonly code: 'ENOTREG' | 'ETOOBIG';
  readonly file: string;
  constructor(file: string, code: 'ENOTREG' | 'ETOOBIG', message: string) {
    super(message);
    this.name = 'FileShapeError';
    this.code = code;
    this.file = file;
  }
}

export interface ReadOptions {
  /** The most bytes read. */
  maxBytes: number;
  /** true: a larger file is read up to maxBytes (`truncated` says so); false (default): it is a FileShapeError. */
  truncate?: boolean;
}

export interface RegularRead {
  bytes: Buffer;
  /** The file's size when opened (more than bytes.length when it was cut at the cap). */
  size: number;
  truncated: boolean;
}

// O_NONBLOCK keeps the open of a FIFO from waiting for a writer; it changes nothing for a regular
// file. Windows has neither the flag nor FIFOs of this kind.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return m.kindDirectory;
  if (stats.isCharacterDevice()) return m.kindCharDevice;
  if (stats.isBlockDevice()) return m.kindBlockDevice;
  if (stats.isFIFO()) return m.kindFifo;
  if (stats.isSocket()) return m.kindSocket;
  return m.kindOther;
}

/**
 * Reads `file` if it is a regular file, at most `maxBytes` of it. Throws the fs error (ENOENT,
 * EACCES, ELOOP…) or a FileShapeError; never blocks on a device or a FIFO.
 */
export function readRegularFile(file: string, options: ReadOptions): RegularRead {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new FileShapeError(file, 'ENOTREG', m.notRegular(kindOf(stats)));
    const size = stats.size;
    if (size > options.maxBytes && !options.truncate)
      throw new FileShapeError(file, 'ETOOBIG', m.tooBig(size, options.maxBytes));
    const want = Math.min(size, options.maxBytes);
    const bytes = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, bytes, got, want - got, got);
      if (n === 0) break; // the file shrank meanwhile
      got += n;
    }
    return { bytes: got < want ? bytes.subarray(0, got) : bytes, size, truncated: size > options.maxBytes };
  } finally {
    closeSync(fd);
  }
}

/** The UTF-8 text of a regular file of at most `maxBytes`, or undefined when there is none (ENOENT, ENOTDIR). */
export function readRegularText(file: string, maxBytes: number): string | undefined {
  try {
    return readRegularFile(file, { maxBytes }).bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** A short reason for a failed read ("not a regular file (a FIFO)", "permission denied (EACCES)"), for a message that names the file. */
export function readFailure(error: unknown): string {
  if (error instanceof FileShapeError) return error.message;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? m.fsCode(code) : error instanceof Error ? error.message : String(error);
}
