/**
 * Small derived values kept between runs: each is a pure function of its key (the regex picomatch
 * makes of a glob, the needles of a rule's pattern), so a hit gives exactly what computing
 * would. Kept in `<git common dir>/revtrail/derived-v1.json`, for one build only (the code that
 * computes them may change between builds); a missing, damaged or unwritable file only means
 * computing again. Why: a warm commit then loads neither picomatch nor the regex parser
 * (docs/hooks.md "Start-up").
 *
 * One store per process, opened by the review's session; with none open, values are computed.
 */
import { dirname, join } from 'node:path';
import { currentBuild } from './build.js';
import { writeFileAtomic } from './fs/atomic.js';
import { ensureDir } from './fs/storage.js';
import { readRegularFile } from './fs/read.js';

/** The most of a derived file that is read: a larger one (or a FIFO, a device) is no cache. */
const MAX_DERIVED_BYTES = 16 * 1024 * 1024;

/** Past this many entries a table starts over: the keys of a bundle that keeps changing do not pile up. */
const MAX_ENTRIES = 10_000;

interface Store {
  file: string;
  tables: Record<string, Record<string, unknown>>;
  /** Entries per table, counted once (Object.keys on every insert would be quadratic). */
  sizes: Map<string, number>;
  dirty: boolean;
}

let store: Store | null = null;

/**
 * The content of a derived file this build wrote, or null: none yet, damaged, or another
 * build's. Shared by the derived values here and the validated configuration (config/load.ts).
 */
export function readDerivedFile(file: string): Record<string, unknown> | null {
  try {
    const data = JSON.parse(readRegularFile(file, { maxBytes: MAX_DERIVED_BYTES }).bytes.toString('utf8')) as unknown;
    if (data && typeof data === 'object' && (data as { build?: unknown }).build === currentBuild())
      return data as Record<string, unknown>;
  } catch {
    // none yet, or unreadable
  }
  return null;
}

/** Writes `content` as this build's derived file (atomic, no fsync). Never an error: the next run computes again. */
export async function writeDerivedFile(file: string, content: Record<string, unknown>): Promise<void> {
  try {
    await ensureDir(dirname(file));
    await writeFileAtomic(file, JSON.stringify({ ...content, build: currentBuild() }), { durable: false });
  } catch {
    // a read-only .git or a full disk
  }
}

/** Opens the store in `file` for this process (once; a second call with another file switches). */
export function openDerivedCache(file: string): void {
  if (store?.file === file) return;
  const tables = readDerivedFile(file)?.tables;
  store = {
    file,
    tables: tables && typeof tables === 'object' ? (tables as Store['tables']) : Object.create(null),
    sizes: new Map(),
    dirty: false,
  };
}

/** The value of `key` in `table`: from an earlier run when it passes `valid`, else computed now (and kept). */
export function derived<T>(table: string, key: string, compute: () => T, valid: (value: unknown) => value is T): T {
  const known = peekDerived(table, key, valid);
  if (known !== undefined) return known;
  const value = compute();
  keepDerived(table, key, value);
  return value;
}

/** The value of `key` in `table` an earlier run kept, when it passes `valid`; else undefined (for values computed asynchronously). */
export function peekDerived<T>(table: string, key: string, valid: (value: unknown) => value is T): T | undefined {
  const known = store?.tables[table]?.[key];
  return known !== undefined && valid(known) ? known : undefined;
}

/** Keeps `value` as the value of `key` in `table` (nothing with no store open). */
export function keepDerived(table: string, key: string, value: unknown): void {
  if (store) {
    let target = store.tables[table];
    let size = store.sizes.get(table) ?? (target ? Object.keys(target).length : 0);
    if (!target || size >= MAX_ENTRIES) {
      store.tables[table] = target = Object.create(null) as Record<string, unknown>;
      size = 0;
    }
    target[key] = value;
    store.sizes.set(table, size + 1);
    store.dirty = true;
  }
}

/**
 * A derived file of its own beside the store, for values too large to be read on every run (the
 * facts of parsed file versions: review/structural/facts.ts), or null with no store open.
 */
export function derivedFileBeside(name: string): string | null {
  return store ? join(dirname(store.file), name) : null;
}

/** What writes a file beside the store, run with the store's own save. */
const savers = new Set<() => Promise<void>>();

export function onDerivedSave(save: () => Promise<void>): void {
  savers.add(save);
}

/** Writes the store when this run computed something it did not hold, and the files beside it. Never an error. */
export async function saveDerivedCache(): Promise<void> {
  for (const save of savers) await save();
  if (!store?.dirty) return;
  store.dirty = false;
  await writeDerivedFile(store.file, { tables: store.tables });
}
