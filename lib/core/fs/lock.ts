/**
 * A lock file for read-modify-write of files in the git common dir, which every worktree
 * shares: two worktrees committing at once must not lose each other's queue changes
 * (docs/trust.md, "Locks").
 *
 * The lock names its holder (`<pid> <hostname>`), so a holder that was killed is seen to be
 * gone at once: on this host, a pid that no longer exists holds nothing. Age is the fallback
 * (another host, or a pid reused since): a holder does milliseconds of work, so a lock older
 * than STALE_MS, or dated in the future (a clock moved, a copied .git), holds nothing either.
 */
import { link, lstat, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { cleanStaleTemps, tempBeside } from './atomic.js';
import { RevtrailError } from '../errors.js';
import { storageFailure } from './storage.js';
import { lockMessages as m } from '../../messages/storage.js';

const STALE_MS = 10_000;
const WAIT_MS = 10_000;
/** Timestamps a little ahead are clock granularity or another host's skew; more is not a live lock. */
const FUTURE_SKEW_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LockOptions {
  /** How long to wait for a live holder before giving up (default 10 s). */
  waitMs?: number;
}

export async function withLock<T>(lockFile: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? WAIT_MS);
  const me = `${process.pid} ${hostname()}\n`;
  let delay = 5;
  for (;;) {
    let created: boolean;
    try {
      created = await create(lockFile, me);
    } catch (error) {
      throw storageFailure(error, lockFile);
    }
    if (created) break;
    if (await breakIfStale(lockFile)) continue;
    if (Date.now() > deadline)
      throw new RevtrailError(m.lockBusy(lockFile), { exitCode: 2, remedy: m.lockBusyRemedy(lockFile) });
    await sleep(delay);
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await work();
  } finally {
    await unlink(lockFile).catch(() => {});
  }
}

/**
 * Creates the lock with its content in one step (a temp file hard-linked into place), so no
 * reader ever sees a lock without its holder; where hard links are not supported, an exclusive
 * create and a write. False: someone holds it.
 */
async function create(lockFile: string, content: string): Promise<boolean> {
  const temp = tempBeside(lockFile);
  try {
    try {
      await writeFile(temp, content, { flag: 'wx' });
    } catch (error) {
      // A full disk creates the file and then refuses its content: nothing may stay behind.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(temp).catch(() => {});
      throw error;
    }
    try {
      await link(temp, lockFile);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    } finally {
      await unlink(temp).catch(() => {});
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await open(lockFile, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content).finally(() => handle.close());
    return true;
  } catch (error) {
    await unlink(lockFile).catch(() => {}); // ours, and empty: no one may wait on it
    throw error;
  }
}

/** True when the pid is a live process (or one we may not signal, which is alive too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock as read holds nothing any more. */
export function isStale(content: string, mtimeMs: number, now = Date.now(), host = hostname()): boolean {
  const age = now - mtimeMs;
  if (age > STALE_MS || age < -FUTURE_SKEW_MS) return true;
  const [pidText, holderHost] = content.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false; // being written: its age decides
  // A lock without a host is from this host (earlier versions wrote the pid alone).
  if (holderHost !== undefined && holderHost !== host) return false;
  return pid !== process.pid && !alive(pid);
}

/** Breaks a stale lock; true when it did (or the lock is gone), so the caller tries again at once. */
async function breakIfStale(lockFile: string): Promise<boolean> {
  let seen: { ino: number; mtimeMs: number };
  try {
    const [info, content] = await Promise.all([lstat(lockFile), readFile(lockFile, 'utf8')]);
    if (!isStale(content, info.mtimeMs)) return false;
    seen = { ino: info.ino, mtimeMs: info.mtimeMs };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  // Rename first: of two processes breaking the same stale lock, only one moves it. If what
  // moved is not the lock judged stale (another process broke it and took a fresh one in
  // between), it goes back where it was.
  const aside = tempBeside(lockFile);
  try {
    await rename(lockFile, aside);
  } catch {
    return false; // someone else broke or released it
  }
  try {
    const moved = await lstat(aside);
    if (moved.ino !== seen.ino || moved.mtimeMs !== seen.mtimeMs) await link(aside, lockFile).catch(() => {});
  } finally {
    await unlink(aside).catch(() => {});
  }
  // A holder that died may have died mid-create: its temp file is beside the lock.
  await cleanStaleTemps(lockFile);
  return true;
}
