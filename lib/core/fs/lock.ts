/**
 * A lock file for read-modify-write of files in the git common dir, which every worktree
 * shares: two worktrees committing at once must not lose each other's queue changes.
 */
import { open, stat, unlink, rename } from 'node:fs/promises';
import { RevtrailError } from '../errors.js';
import { verdictMessages as m } from '../../messages/verdicts.js';

const STALE_MS = 10_000; // a holder does milliseconds of work; older means it was killed
const WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function withLock<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let delay = 5;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await breakIfStale(lockFile);
    if (Date.now() > deadline) throw new RevtrailError(m.lockBusy(lockFile), { exitCode: 2, remedy: m.lockBusyRemedy(lockFile) });
    await sleep(delay);
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await work();
  } finally {
    await unlink(lockFile).catch(() => {});
  }
}

async function breakIfStale(lockFile: string): Promise<void> {
  try {
    if (Date.now() - (await stat(lockFile)).mtimeMs < STALE_MS) return;
    // Rename first: of two processes breaking the same stale lock, only one moves it.
    const aside = `${lockFile}.stale-${process.pid}`;
    await rename(lockFile, aside);
    await unlink(aside);
  } catch {
    // someone else broke or released it
  }
}
