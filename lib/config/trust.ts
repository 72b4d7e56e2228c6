/**
 * The trust store (docs/trust.md): which reviewer command a person allowed to run in which
 * clone, kept outside every work tree, the way `direnv allow` does it. A repository's own
 * files can never trust themselves: the store lives in the person's config folder.
 *
 * Key: the real path of the clone's git common dir, so every worktree of a clone shares one
 * entry and a symlinked path reaches the same one. Value: the exact argv trusted; any change
 * to the configured command needs trusting again.
 */
import { realpath } from 'node:fs/promises';
import { readFailure, readRegularFile } from '../core/fs/read.js';
import { ensureDir } from '../core/fs/storage.js';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { withLock } from '../core/fs/lock.js';
import { InputError } from '../core/errors.js';
import { configMessages as m } from '../messages/config.js';

export interface TrustEntry {
  /** The reviewer program trusted (empty when only an endpoint was). */
  command: string[];
  /** A model reviewer endpoint off this machine that the person allowed the code to be sent to. */
  endpoint?: string;
  /** The configuration file the command came from, when it was trusted (shown, not checked). */
  config: string | null;
  trustedAt: string;
}

interface Store {
  version: 1;
  clones: Record<string, TrustEntry>;
}

/** `REVTRAIL_TRUST_FILE`, else `$XDG_CONFIG_HOME/revtrail/trust.json`, else `~/.config/revtrail/trust.json`. */
export function trustFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REVTRAIL_TRUST_FILE) return env.REVTRAIL_TRUST_FILE;
  const base = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'revtrail', 'trust.json');
}

/** The key of a clone: its git common dir's real path (the folder as given when it cannot be resolved). */
export async function cloneKey(commonDir: string): Promise<string> {
  return realpath(commonDir).catch(() => commonDir);
}

/** The most of the trust store that is read (one small entry per clone). */
const MAX_STORE_BYTES = 4 * 1024 * 1024;

async function readStore(file: string): Promise<Store> {
  let text: string;
  try {
    // Only a regular file: a FIFO or a device there is an unreadable store, never a hang.
    text = readRegularFile(file, { maxBytes: MAX_STORE_BYTES }).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, clones: {} };
    throw new InputError(m.trustUnreadable(file, readFailure(error)), { remedy: m.trustUnreadableRemedy(file) });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  const clones = (value as { clones?: unknown } | null)?.clones;
  if (typeof clones !== 'object' || clones === null || Array.isArray(clones)) {
    throw new InputError(m.trustCorrupt(file), { remedy: m.trustUnreadableRemedy(file) });
  }
  return { version: 1, clones: clones as Record<string, TrustEntry> };
}

const sameArgv = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export type TrustState =
  | { state: 'trusted'; entry: TrustEntry }
  /** Something else was trusted here: the configured command changed since. */
  | { state: 'changed'; entry: TrustEntry }
  /** `problem`: the store could not be read (one line naming it), so nothing is trusted. */
  | { state: 'untrusted'; problem?: string };

/** Whether `argv` is what the person trusted for this clone. A store that cannot be read trusts nothing, and says why. */
export async function trustState(
  commonDir: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<TrustState> {
  let store: Store;
  try {
    store = await readStore(trustFile(env));
  } catch (error) {
    return { state: 'untrusted', problem: error instanceof Error ? error.message : String(error) };
  }
  const entry = store.clones[await cloneKey(commonDir)];
  if (!entry || !Array.isArray(entry.command)) return { state: 'untrusted' };
  return sameArgv(entry.command, argv) ? { state: 'trusted', entry } : { state: 'changed', entry };
}

async function update(env: NodeJS.ProcessEnv, change: (store: Store) => void): Promise<void> {
  const file = trustFile(env);
  await ensureDir(dirname(file));
  await withLock(`${file}.lock`, async () => {
    const store = await readStore(file);
    change(store);
    await writeFileAtomic(file, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  });
}

/** Whether the person allowed this clone's code to be sent to exactly `endpoint` (a store that cannot be read allows nothing). */
export async function endpointTrusted(
  commonDir: string,
  endpoint: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  try {
    const entry = (await readStore(trustFile(env))).clones[await cloneKey(commonDir)];
    return entry?.endpoint === endpoint;
  } catch {
    return false;
  }
}

/** Records `argv` (and a model endpoint, if any) as trusted for this clone (replacing what was trusted before). */
export async function trustCommand(
  commonDir: string,
  argv: readonly string[],
  config: string | null,
  env: NodeJS.ProcessEnv = process.env,
  endpoint?: string,
): Promise<TrustEntry> {
  const key = await cloneKey(commonDir);
  const entry: TrustEntry = {
    command: [...argv],
    ...(endpoint ? { endpoint } : {}),
    config,
    trustedAt: new Date().toISOString(),
  };
  await update(env, (store) => {
    store.clones[key] = entry;
  });
  return entry;
}

/** Forgets this clone's trust; returns what was trusted, or null when nothing was. */
export async function revokeTrust(commonDir: string, env: NodeJS.ProcessEnv = process.env): Promise<TrustEntry | null> {
  const key = await cloneKey(commonDir);
  let removed: TrustEntry | null = null;
  // Nothing to do (and no store to create) when nothing is trusted.
  if (!(await readStore(trustFile(env))).clones[key]) return null;
  await update(env, (store) => {
    removed = store.clones[key] ?? null;
    delete store.clones[key];
  });
  return removed;
}
