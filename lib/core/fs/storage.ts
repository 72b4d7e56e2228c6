/**
 * A write that the file system refused (docs/trust.md; full disk, read-only or permission-denied `.git`, a
 * file where a folder should be) is the person's to fix, not revtrail's bug: it becomes a
 * StorageError naming the file and what to do, printed in one or two lines like any user error.
 */
import { RevtrailError } from '../errors.js';
import { storageMessages as m } from '../../messages/storage.js';

const REFUSALS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'EEXIST', 'EMLINK', 'EFBIG', 'ENAMETOOLONG']);

export class StorageError extends RevtrailError {
  readonly code: string;
  readonly file: string;
  constructor(file: string, code: string, cause: unknown, action: 'read' | 'write' = 'write') {
    super((action === 'read' ? m.cannotRead : m.cannotWrite)(file, m.reason(code)), { exitCode: 2, remedy: m.remedy(code, file), cause });
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
  try {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw storageFailure(error, dir);
  }
}
