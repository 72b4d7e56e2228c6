/** Every user-facing message of the file layer (lib/core/fs/): a refused write, a file not read, a lock held. */
const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file would be too large',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOTDIR: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
  EEXIST: 'a file is where a folder should be',
  EMLINK: 'too many links',
  ENAMETOOLONG: 'the name is too long',
};

export const storageMessages = {
  reason: (code: string) => `${REASONS[code] ?? 'refused'} (${code})`,
  cannotRead: (file: string, reason: string) => `cannot read ${file}: ${reason}`,
  cannotWrite: (file: string, reason: string) => `cannot write ${file}: ${reason}`,
  remedy: (code: string, file: string) =>
    code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG'
      ? 'Free some disk space, then run the command again.'
      : code === 'EROFS'
        ? 'The repository is mounted read-only here: run revtrail where .git can be written.'
        : code === 'EACCES' || code === 'EPERM'
          ? `Check who owns ${file} and its folder (a git command run with sudo leaves root-owned files in .git).`
          : code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR'
            ? `Something is in the way on the path to ${file}: move it aside, then run the command again.`
            : 'Fix the file system problem, then run the command again.',
};

/** Reasons a file was not read (lib/core/fs/read.ts); the caller's message names the file. */
export const readMessages = {
  notRegular: (kind: string) => `not a regular file (${kind})`,
  tooBig: (size: number, max: number) => `${bytes(size)}, more than the ${bytes(max)} revtrail reads of it`,
  kindDirectory: 'a folder',
  kindCharDevice: 'a character device, such as /dev/zero',
  kindBlockDevice: 'a block device',
  kindFifo: 'a FIFO',
  kindSocket: 'a socket',
  kindOther: 'not a plain file',
  fsCode: (code: string) => `${READ_REASONS[code] ?? REASONS[code] ?? 'cannot be read'} (${code})`,
};

const READ_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ELOOP: 'a symlink loop',
  EISDIR: 'a folder',
  ENOTDIR: 'a file is where a folder should be',
  EIO: 'an input/output error',
};

function bytes(n: number): string {
  return n >= 1024 * 1024
    ? `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`
    : n >= 1024
      ? `${Math.round(n / 1024)} KiB`
      : `${n} bytes`;
}

export const lockMessages = {
  lockBusy: (file: string) => `another revtrail process holds ${file}`,
  lockBusyRemedy: (file: string) => `Wait for it to finish; if none is running, delete ${file}.`,
};
