/**
 * Replacing a file so that a reader (or a crash) sees the old content or the new, never a torn
 * mix: write a temp file in the same folder, fsync it, rename it over the target. Every file
 * revtrail writes goes through here (docs/architecture.md, "Writing files"); the lock
 * (./lock.ts) takes its temp names from here too, so `cleanStaleTemps` knows every one.
 */
import { createWriteStream, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crypto, fsPromises } from '../node-module.js';
import { storageFailure } from './storage.js';

/** The temp-file name pattern; `cleanStaleTemps` recognises leftovers of a killed writer by it. */
const TEMP_MARK = '.revtrail-tmp-';
/** The mining cache's own temp names before it wrote through here (`<file>.<pid>.<8 hex>.tmp`): still swept. */
const OLD_MINE_TEMP = /^\.\d+\.[0-9a-f]{8}\.tmp$/;

/** A fresh temp file name in `file`'s folder (the same file system, so the rename is atomic). */
export function tempBeside(file: string): string {
  return join(dirname(file), `${basename(file)}${TEMP_MARK}${process.pid}-${crypto().randomBytes(4).toString('hex')}`);
}

export interface AtomicWriteOptions {
  mode?: number;
  /**
   * false: no fsync before the rename. For derived caches only: after a crash such a file may be
   * empty or old, which only means computing it again, and an fsync can cost tens of
   * milliseconds on a busy disk. Default true.
   */
  durable?: boolean;
  /**
   * Create only: a file already there stays as it is and the write fails with EEXIST (`init`
   * never overwrites). The temp file is hard-linked into place, so the new file too appears whole.
   */
  exclusive?: boolean;
}

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  try {
    await writeAtomic(file, data, options);
  } catch (error) {
    // A full disk or a read-only .git: the file is as it was, and the error says so by name.
    throw storageFailure(error, file);
  }
}

async function writeAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions): Promise<void> {
  // Loaded on the first write: a clean commit writes nothing (docs/hooks.md, "Start-up").
  const { link, open, realpath, rename, stat, unlink } = fsPromises();
  // A link is written through, as a plain write would: its target gets the new content.
  if (!options.exclusive) file = await realpath(file).catch(() => file);
  let mode = options.mode;
  if (mode === undefined) {
    try {
      mode = (await stat(file)).mode & 0o7777;
    } catch {
      mode = 0o644;
    }
  }
  const temp = tempBeside(file);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(data);
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.exclusive) await linkInto(link, temp, file);
    else await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  if (options.exclusive) await unlink(temp).catch(() => {});
}

/** The temp file hard-linked to `file` (EEXIST when there is one); copied where hard links are not supported. */
async function linkInto(link: (from: string, to: string) => Promise<void>, temp: string, file: string): Promise<void> {
  try {
    await link(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    const { copyFile, constants } = fsPromises();
    await copyFile(temp, file, constants.COPYFILE_EXCL);
  }
}

/**
 * The same replace for a caller that cannot wait: derived caches written in the middle of a run
 * (the bundle cache, the hooks' code cache). No fsync (see `durable`), default mode; throws
 * StorageError like writeFileAtomic.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const temp = tempBeside(file);
  try {
    writeFileSync(temp, data, { flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never written
    }
    throw storageFailure(error, file);
  }
}

/** Removes temp files a killed writer left beside `file` (older than a minute, so never a live one). */
export async function cleanStaleTemps(file: string): Promise<void> {
  const { readdir, stat, unlink } = fsPromises();
  const dir = dirname(file);
  const prefix = `${basename(file)}${TEMP_MARK}`;
  const own = basename(file);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const cutoff = Date.now() - 60_000;
  for (const name of names) {
    if (!name.startsWith(prefix) && !(name.startsWith(own) && OLD_MINE_TEMP.test(name.slice(own.length)))) continue;
    const full = join(dir, name);
    try {
      if ((await stat(full)).mtimeMs < cutoff) await unlink(full);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/**
 * A file written as a stream that appears whole or not at all: the stream goes to a temp file
 * beside `file`; `commit()` renames it over the target, `abort()` removes it.
 */
export interface AtomicStream {
  stream: NodeJS.WritableStream & { destroy(): void };
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export async function openAtomicStream(file: string): Promise<AtomicStream> {
  const { mkdir, rename, unlink } = fsPromises();
  await mkdir(dirname(file), { recursive: true });
  const temp = tempBeside(file);
  const stream = createWriteStream(temp, { flags: 'wx' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return {
    stream,
    commit: () => rename(temp, file),
    abort: async () => {
      stream.destroy();
      await unlink(temp).catch(() => {});
    },
  };
}
