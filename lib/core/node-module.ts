/**
 * A Node built-in module loaded when first needed. Loading some of them costs milliseconds
 * (crypto ~5 ms, v8, worker_threads), and the hooks run on every commit: modules on that path
 * take them here, on first use, instead of at import (docs/hooks.md "Start-up").
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export const crypto = (): typeof import('node:crypto') => load('node:crypto') as typeof import('node:crypto');
export const v8 = (): typeof import('node:v8') => load('node:v8') as typeof import('node:v8');
export const workerThreads = (): typeof import('node:worker_threads') =>
  load('node:worker_threads') as typeof import('node:worker_threads');
/** The writers' (core/fs/atomic.ts, storage.ts): a clean commit reads synchronously and writes nothing. */
export const fsPromises = (): typeof import('node:fs/promises') =>
  load('node:fs/promises') as typeof import('node:fs/promises');
/** Only to ask whether stdin is a terminal when fstat() could not tell (hooks/stdin.ts). */
export const tty = (): typeof import('node:tty') => load('node:tty') as typeof import('node:tty');

let flagsChanged = false;

/**
 * V8's fallback to its linear engine after excessive backtracking, and the `l` flag that asks
 * that engine whether it can run a pattern (review/engine/regex-guard.ts turns them on).
 */
export const REGEX_FALLBACK_FLAGS = [
  '--enable-experimental-regexp-engine-on-excessive-backtracks',
  '--enable-experimental-regexp-engine',
] as const;

/**
 * Sets V8 flags for the rest of the process. Recorded, because V8 rejects a code cache made
 * under other flags than a fresh process starts with (lib/start/starter.ts).
 */
export function setV8Flags(flags: readonly string[]): void {
  flagsChanged = true;
  const { setFlagsFromString } = v8();
  for (const flag of flags) setFlagsFromString(flag);
}

/** Whether this process changed V8's flags (setV8Flags). */
export function v8FlagsChanged(): boolean {
  return flagsChanged;
}
