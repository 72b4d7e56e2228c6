/**
 * What a parsed file version yields, kept between hooks (docs/structural.md "Parsed once"): a
 * tree cannot be written down, what the rules read of it can. The commit-msg hook parses the
 * staged versions; the push of that commit reviews the same two texts, and finds here whether
 * they parse, each syntax-tree rule's matches, their imports and what each character is, without
 * loading the parser. Keyed by the version's key (./parsed.ts: language and text hash) and, for
 * matches, the rule's language and pattern; kept for one build only (core/derived-cache.ts).
 *
 * Bounded: one small file per version in a folder beside the derived store, read only when that
 * version is asked for (a commit no syntax-tree rule reaches reads none; one file of all versions
 * cost a hook 55 ms to read at 800 KB), at most MAX_VERSIONS files, the least recently used
 * removed first; a fact larger than MAX_FACT_CHARS (a rule matching whole classes of a large
 * file) is computed every time.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { derivedFileBeside, onDerivedSave, readDerivedFile, writeDerivedFile } from '../../core/derived-cache.js';

const FOLDER = 'tree-facts-v1';
export const MAX_VERSIONS = 256;
const MAX_FACT_CHARS = 64 * 1024;

interface Entry {
  facts: Record<string, unknown>;
  /** Computed here: to be written. */
  dirty: boolean;
  /** Read from its file: its time is touched, so the least recently used go first. */
  hit: boolean;
}

let opened: { dir: string; versions: Map<string, Entry> } | null = null;

function open(): typeof opened {
  const dir = derivedFileBeside(FOLDER);
  if (!dir) return null;
  if (opened?.dir !== dir) {
    opened = { dir, versions: new Map() };
    onDerivedSave(save);
  }
  return opened;
}

const fileOf = (dir: string, key: string) => join(dir, `${createHash('sha1').update(key).digest('hex')}.json`);

function entryOf(store: NonNullable<typeof opened>, key: string): Entry {
  let entry = store.versions.get(key);
  if (!entry) {
    const facts = readDerivedFile(fileOf(store.dir, key))?.facts;
    entry =
      facts && typeof facts === 'object'
        ? { facts: facts as Record<string, unknown>, dirty: false, hit: false }
        : { facts: {}, dirty: false, hit: false };
    store.versions.set(key, entry);
  }
  return entry;
}

async function save(): Promise<void> {
  const store = opened;
  if (!store) return;
  let wrote = false;
  const now = new Date();
  for (const [key, entry] of store.versions) {
    const file = fileOf(store.dir, key);
    if (entry.dirty) {
      entry.dirty = false;
      entry.hit = false;
      wrote = true;
      await writeDerivedFile(file, { facts: entry.facts });
    } else if (entry.hit) {
      entry.hit = false;
      try {
        utimesSync(file, now, now);
      } catch {
        // removed meanwhile: computed again when asked
      }
    }
  }
  if (wrote) prune(store.dir);
  // A long process (the editor, a replay of history) keeps no more of them in memory than on disk.
  for (const key of store.versions.keys()) {
    if (store.versions.size <= MAX_VERSIONS) break;
    store.versions.delete(key);
  }
}

/** Past MAX_VERSIONS files, the least recently used are removed. Never an error. */
function prune(dir: string): void {
  try {
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    if (names.length <= MAX_VERSIONS) return;
    const aged = names
      .map((n) => {
        try {
          return { n, at: statSync(join(dir, n)).mtimeMs };
        } catch {
          return { n, at: 0 };
        }
      })
      .sort((a, b) => a.at - b.at);
    for (const { n } of aged.slice(0, names.length - MAX_VERSIONS)) unlinkSync(join(dir, n));
  } catch {
    // another hook pruned it first, or the folder cannot be written
  }
}

/** The short name of what a fact is of (a rule's language and pattern). */
export function factName(kind: string, of: string): string {
  return `${kind}:${createHash('sha1').update(of).digest('base64').slice(0, 16)}`;
}

/**
 * The fact `name` of the version `key`: from an earlier run when it passes `valid`, else
 * computed now and kept (for values the version's tree gives; an error thrown is not kept).
 */
export function versionFact<T>(key: string, name: string, valid: (value: unknown) => value is T, compute: () => T): T {
  const store = open();
  const entry = store ? entryOf(store, key) : undefined;
  const known = entry?.facts[name];
  if (entry && known !== undefined && valid(known)) {
    entry.hit = !entry.dirty;
    return known;
  }
  const value = compute();
  if (entry && (JSON.stringify(value)?.length ?? 0) <= MAX_FACT_CHARS) {
    entry.facts[name] = value;
    entry.dirty = true;
  }
  return value;
}
