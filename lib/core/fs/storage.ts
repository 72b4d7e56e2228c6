/**
 * A write that the file system refused (docs/trust.md; full disk, read-only or permission-denied `.git`, a
 * file where a folder should be) is the person's to fix, not revtrail's bug: it becomes a
 * StorageError naming the file and what to do, printed in one or two lines like any user error.
 */
import { RevtrailError } from '../errors.js';
import { fsPromises } from '../node-module.js';
import { storageMessages as m } from '../../messages/storage.js';

const REFUSALS = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
  'EMLINK',
  'EFBIG',
  'ENAMETOOLONG',
]);

export class StorageError extends RevtrailError {
  readonly code: string;
  readonly file: string;
  constructor(file: string, code: string, cause: unknown, action: 'read' | 'write' = 'write') {
    super((action === 'read' ? m.cannotRead : m.cannotWrite)(file, m.reason(code)), {
      exitCode: 2,
      remedy: m.remedy(code, file),
      cause,
    });
    this.code = code;
    this.file = file;
  }
}

/** The error as a StorageError when the file system refused to write (or read) `file`; else unchanged. */
export function storageFailure(error: unknown, file: string, action: 'read' | 'write' = 'write'): unknown {
  if (error instanceof StorageError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && REFUSALS.has(code) ? new StorageError(file, code, error, action) : error;
}

/** mkdir -p, refused writes reported as a StorageError naming the folder. */
export async function ensureDir(dir: string): Promise<void> {
  const { mkdir } = fsPromises();
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    // Node's recursive mkdir says ENOENT where the parent exists but refuses the write (a
    // read-only .git): one plain mkdir gives the real reason.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      try {
        await mkdir(dir);
      } catch (plain) {
        throw storageFailure(plain, dir);
      }
      return;
    }
    throw storageFailure(error, dir);
  }
}

// git's own words for a refused write (strerror), in the C locale revtrail runs it in.
const GIT_REFUSALS: ReadonlyArray<[RegExp, string]> = [
  [/Read-only file system/, 'EROFS'],
  [/No space left on device/, 'ENOSPC'],
  [/Disk quota exceeded/, 'EDQUOT'],
  [/Permission denied/, 'EACCES'],
];

/**
 * A git command that failed because the file system refused its write (git's object store or
 * index in a read-only or full .git) as a StorageError naming `file`; null for any other failure.
 */
export function gitStorageFailure(stderr: string, file: string): StorageError | null {
  if (
    !/unable to (create|write)|could not (write|create)|cannot (write|create)|failed to (write|create)|insufficient permission/i.test(
      stderr,
    )
  )
    return null;
  for (const [words, code] of GIT_REFUSALS)
    if (words.test(stderr)) return new StorageError(file, code, new Error(stderr.trim()));
  return null;
}
