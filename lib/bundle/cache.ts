/**
 * A derived, deletable cache of parsed concepts: parsing YAML frontmatter is most of the cost
 * of loading a large bundle, and hooks load the bundle on every commit.
 *
 * Kept in `<git common dir>/revtrail/bundle-cache-v1.json`, one section per bundle (its real
 * path). An entry is the result of buildConcept() for one file, reused only when the file's
 * bundle path and a hash of its bytes (as read, up to the size cap) are the same, and only by
 * the same build of revtrail (the parser may change between builds). buildConcept() is a pure
 * function of (path, text), so a hit gives exactly what parsing would. On a warm commit even
 * reading and hashing a hundred files shows, so an entry also keeps the file's stat() signature
 * from when it was hashed, and a file whose stat() still says the same is not read at all (as
 * git's index does; files changed within two seconds of being read get no signature: the racy
 * case, docs/bundle.md "Cache").
 *
 * Never an error: a missing, damaged or unwritable cache only means parsing again.
 *
 * It also remembers, per bundle, the rules whose pattern overran its time limit in a review
 * (keys naming rule and pattern, from the review stage), so later reviews skip them without
 * waiting again (docs/bundle.md "Time"); a changed pattern is a new key, and after
 * OVERRUN_MEMORY_MS the rule is tried once more (a machine that stalled is not held against it
 * for ever).
 */
import { crypto } from '../core/node-module.js';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { readRegularFile } from '../core/fs/read.js';
import { writeFileAtomicSync } from '../core/fs/atomic.js';
import { dirname } from 'node:path';
import { currentBuild } from '../core/build.js';
import { bundleCacheFile as bundleCachePath } from '../core/state.js';
import type { ConceptResult } from './concept.js';
import type { Concept, Rule } from './types.js';

/** Bumped when the stored shape changes. */
const FORMAT = 1;
/** How long an overrun is remembered: a week. */
export const OVERRUN_MEMORY_MS = 7 * 24 * 3600 * 1000;

export function bundleCacheFile(commonDir: string): string {
  return bundleCachePath(commonDir, FORMAT);
}

export type StoredRule = Omit<Rule, 'regex'>;
/** A concept as a cache keeps it: its rules without their compiled regexes. */
export type StoredConcept = Omit<Concept, 'rules'> & { rules: StoredRule[] };
interface StoredResult {
  concept: StoredConcept | null;
  problems: ConceptResult['problems'];
  idLine: number;
}
interface Entry {
  hash: string;
  /** The file's stat() signature when its bytes were hashed (see `lookup`). */
  stat?: string;
  result: StoredResult;
}
interface CacheData {
  format: number;
  /** The build that wrote it. */
  build: string;
  /** Real bundle path -> bundle-relative file -> entry. */
  bundles: Record<string, Record<string, Entry>>;
  /** Real bundle path -> key of a rule that overran its time limit -> when (ms since the epoch). */
  overran?: Record<string, Record<string, number>>;
}

/**
 * A file changed less than this before it was read may change again within the same timestamp
 * tick (coarse file-system clocks: up to 2 s on FAT) without its stat() changing: git's "racily
 * clean" case. Such a file gets no signature; it is hashed on the next run, as any file without one.
 */
const RACY_MS = 2000;

/**
 * What stat() says of a file's identity and last change (size, mtime, ctime, inode), or
 * undefined while the file is too recently changed to be known by it (RACY_MS).
 */
export function statSignature(
  stats: { size: number; mtimeMs: number; ctimeMs: number; ino: number },
  now = Date.now(),
): string | undefined {
  if (!(Math.max(stats.mtimeMs, stats.ctimeMs) + RACY_MS < now)) return undefined;
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
}

/** Whether every file still has the signature it had (bundle.sources, a clean record's files). */
export function signaturesHold(files: ReadonlyArray<readonly [file: string, signature: string]>): boolean {
  for (const [file, signature] of files) {
    let now: string | undefined;
    try {
      now = statSignature(statSync(file));
    } catch {
      return false;
    }
    if (now !== signature) return false;
  }
  return true;
}

let cryptoModule: typeof import('node:crypto') | undefined;

function hashBytes(bytes: Uint8Array): string {
  // Held here: crypto() is a require() each call, which a thousand files feel.
  const c = (cryptoModule ??= crypto());
  // crypto.hash (Node 20.12+) is the one-shot form: no Hash object per file on a fresh clone's thousand.
  return typeof c.hash === 'function'
    ? c.hash('sha1', bytes, 'base64')
    : c.createHash('sha1').update(bytes).digest('base64');
}

export class ConceptCache {
  private readonly data: CacheData;
  private readonly previous: Record<string, Entry>;
  private readonly used: Record<string, Entry> = Object.create(null);
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly bundle: string,
  ) {
    const build = currentBuild();
    const data = readCache(file, build);
    this.data = data ?? { format: FORMAT, build, bundles: Object.create(null) };
    this.previous = this.data.bundles[bundle] ?? Object.create(null);
    if (!data) this.changed = true;
  }

  /** Keys of the rules that overran in an earlier review of this bundle. */
  overran(now = Date.now()): string[] {
    return Object.keys(this.overranAt(now));
  }

  /** The same, each with when it overran (a bundle snapshot keeps them: ./snapshot.ts). */
  overranAt(now = Date.now()): Record<string, number> {
    return stillRemembered(this.data.overran?.[this.bundle], now);
  }

  /** The cache for the bundle at real path `bundle`, stored in `file`. */
  static open(file: string, bundle: string): ConceptCache {
    return new ConceptCache(file, bundle);
  }

  /**
   * The parse of `file` without reading it: when stat() says it is the very file whose bytes
   * were hashed (same size, mtime, ctime and inode; see statSignature). Else null, and `get`
   * decides by its bytes.
   */
  lookup(file: string, signature: string | undefined): ConceptResult | null {
    const entry = this.previous[file];
    if (signature === undefined || !entry?.result || entry.stat !== signature) return null;
    this.used[file] = entry;
    return restore(entry.result);
  }

  /** The parse of `file` with these exact bytes, or null. */
  get(file: string, bytes: Uint8Array, signature?: string): { result: ConceptResult | null; hash: string } {
    const hash = hashBytes(bytes);
    const entry = this.previous[file];
    if (entry && entry.hash === hash && entry.result) {
      // The same bytes under a new signature (a checkout, a touch, no longer racy): kept for the next run.
      if (signature !== undefined && entry.stat !== signature) {
        this.used[file] = { ...entry, stat: signature };
        this.changed = true;
      } else this.used[file] = entry;
      return { result: restore(entry.result), hash };
    }
    return { result: null, hash };
  }

  set(file: string, hash: string, result: ConceptResult, signature?: string): void {
    this.used[file] = { hash, ...(signature === undefined ? {} : { stat: signature }), result: store(result) };
    this.changed = true;
  }

  /**
   * Writes the entries this load used (files no longer listed or read drop out), atomically:
   * a reader sees the old file or the new one. Skipped when nothing changed.
   */
  save(): void {
    const before = Object.keys(this.previous).length;
    if (!this.changed && Object.keys(this.used).length === before) return;
    this.data.bundles[this.bundle] = this.used;
    // Sections of bundles that are gone (a deleted checkout, a --knowledge folder removed) go too.
    for (const root of Object.keys(this.data.bundles)) {
      if (root !== this.bundle && !existsSync(root)) {
        delete this.data.bundles[root];
        if (this.data.overran) delete this.data.overran[root];
      }
    }
    write(this.file, this.data);
  }
}

/** The most of the bundle cache that is read; a larger (or non-regular) file is no cache. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

function readCache(file: string, build: string): CacheData | null {
  try {
    const parsed = JSON.parse(readRegularFile(file, { maxBytes: MAX_CACHE_BYTES }).bytes.toString('utf8')) as CacheData;
    if (
      parsed &&
      parsed.format === FORMAT &&
      parsed.build === build &&
      parsed.bundles &&
      typeof parsed.bundles === 'object'
    )
      return parsed;
  } catch {
    // No cache yet, or one this build cannot read: start empty.
  }
  return null;
}

/**
 * Adds `key` to the rules that overran in bundle `bundle` (real path). Rare (a pattern that
 * overran its time), so the file is read and written again; a failure to write is ignored (the
 * next review waits for the rule once more).
 */
export function rememberOverrun(file: string, bundle: string, key: string, now = Date.now()): void {
  const build = currentBuild();
  const data: CacheData = readCache(file, build) ?? { format: FORMAT, build, bundles: Object.create(null) };
  const overran = (data.overran ??= Object.create(null) as Record<string, Record<string, number>>);
  const keys = (overran[bundle] ??= Object.create(null) as Record<string, number>);
  // Old entries go: only what is still remembered stays in the file.
  for (const k of Object.keys(keys)) if (!(now - keys[k]! < OVERRUN_MEMORY_MS)) delete keys[k];
  keys[key] = now;
  write(file, data);
}

function write(file: string, data: CacheData): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomicSync(file, JSON.stringify(data));
  } catch {
    // A read-only .git or a full disk: the next run parses again.
  }
}

/** The overruns of `keys` still remembered at `now` (OVERRUN_MEMORY_MS); anything else in it is dropped. */
export function stillRemembered(keys: unknown, now = Date.now()): Record<string, number> {
  const kept: Record<string, number> = Object.create(null);
  if (!keys || typeof keys !== 'object') return kept;
  for (const [key, at] of Object.entries(keys))
    if (typeof at === 'number' && now - at < OVERRUN_MEMORY_MS) kept[key] = at;
  return kept;
}

export function storeConcept<C extends Pick<Concept, 'rules'>>(concept: C): Omit<C, 'rules'> & { rules: StoredRule[] } {
  return { ...concept, rules: concept.rules.map(({ regex: _regex, ...rule }) => rule) };
}

export function restoreConcept(concept: StoredConcept): Concept {
  return { ...concept, rules: concept.rules.map(restoreRule) };
}

function store(result: ConceptResult): StoredResult {
  const { concept } = result;
  return {
    concept: concept && storeConcept(concept),
    problems: result.problems,
    idLine: result.idLine,
  };
}

function restore(stored: StoredResult): ConceptResult {
  const { concept } = stored;
  return {
    concept: concept && restoreConcept(concept),
    problems: stored.problems,
    idLine: stored.idLine,
  };
}

function restoreRule(stored: StoredRule): Rule {
  return lazyRegex({ ...stored });
}

/** What a restored rule inherits: its regex, compiled on first use and then its own. */
const LAZY_RULE: object = Object.create(Object.prototype, {
  regex: {
    get(this: StoredRule) {
      const regex = new RegExp(this.pattern, this.flags);
      Object.defineProperty(this, 'regex', { value: regex, writable: true, enumerable: true, configurable: true });
      return regex;
    },
    set(this: StoredRule, value: RegExp) {
      Object.defineProperty(this, 'regex', { value, writable: true, enumerable: true, configurable: true });
    },
  },
});

/**
 * `stored`, made a rule in place: its pattern is compiled when the rule first runs, as most
 * rules of a large bundle govern no changed file. Inherited, not defined on each rule: a
 * thousand-concept bundle restores in a fraction of the time (docs/bundle.md "Snapshot").
 */
export function lazyRegex(stored: StoredRule): Rule {
  return Object.setPrototypeOf(stored, LAZY_RULE) as Rule;
}
