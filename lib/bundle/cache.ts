/**
 * A derived, deletable cache of parsed concepts: parsing YAML frontmatter is most of the cost
 * of loading a large bundle, and hooks load the bundle on every commit.
 *
 * Kept in `<git common dir>/revtrail/bundle-cache-v1.json`, one section per bundle (its real
 * path). An entry is the result of buildConcept() for one file, reused only when the file's
 * bundle path and a hash of its whole text are the same, and only by the same build of
 * revtrail (the parser may change between builds). buildConcept() is a pure function of
 * (path, text), so a hit gives exactly what parsing would: no timestamps to trust, no racy
 * window. Reading and hashing a file is cheap; parsing it is not.
 *
 * Never an error: a missing, damaged or unwritable cache only means parsing again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConceptResult } from './concept.js';
import type { Concept, Rule } from './types.js';

/** Bumped when the stored shape changes. */
const FORMAT = 1;

declare const REVTRAIL_VERSION: string | undefined;

export function bundleCacheFile(commonDir: string): string {
  return join(commonDir, 'revtrail', `bundle-cache-v${FORMAT}.json`);
}

type StoredRule = Omit<Rule, 'regex'>;
type StoredConcept = Omit<Concept, 'rules'> & { rules: StoredRule[] };
interface StoredResult {
  concept: StoredConcept | null;
  problems: ConceptResult['problems'];
  idLine: number;
}
interface Entry {
  hash: string;
  result: StoredResult;
}
interface CacheData {
  format: number;
  /** The build that wrote it. */
  build: string;
  /** Real bundle path -> bundle-relative file -> entry. */
  bundles: Record<string, Record<string, Entry>>;
}

let buildId: string | undefined;

/**
 * This build of revtrail: its version plus the identity of this module's file. In the bundled
 * CLI the chunk names carry content hashes (and a chunk names the chunks it imports), and a
 * rebuild rewrites the file, so any change to the code gives another id.
 */
function currentBuild(): string {
  if (buildId !== undefined) return buildId;
  let file = '';
  try {
    const path = fileURLToPath(import.meta.url);
    const s = statSync(path);
    file = `${path}:${s.size}:${s.mtimeMs}`;
  } catch {
    file = import.meta.url;
  }
  // The Node version too: a pattern one V8 accepts may not compile in another.
  buildId = `${typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : 'dev'}|${process.version}|${file}`;
  return buildId;
}

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('base64');
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
    let data: CacheData | null = null;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as CacheData;
      if (parsed && parsed.format === FORMAT && parsed.build === build && parsed.bundles && typeof parsed.bundles === 'object') data = parsed;
    } catch {
      // No cache yet, or one this build cannot read: start empty.
    }
    this.data = data ?? { format: FORMAT, build, bundles: Object.create(null) };
    this.previous = this.data.bundles[bundle] ?? Object.create(null);
    if (!data) this.changed = true;
  }

  /** The cache for the bundle at real path `bundle`, stored in `file`. */
  static open(file: string, bundle: string): ConceptCache {
    return new ConceptCache(file, bundle);
  }

  /** The parse of `file` with this exact text, or null. */
  get(file: string, text: string): { result: ConceptResult | null; hash: string } {
    const hash = hashText(text);
    const entry = this.previous[file];
    if (entry && entry.hash === hash && entry.result) {
      this.used[file] = entry;
      return { result: restore(entry.result), hash };
    }
    return { result: null, hash };
  }

  set(file: string, hash: string, result: ConceptResult): void {
    this.used[file] = { hash, result: store(result) };
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
      if (root !== this.bundle && !existsSync(root)) delete this.data.bundles[root];
    }
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temp, JSON.stringify(this.data));
      renameSync(temp, this.file);
    } catch {
      // A read-only .git or a full disk: the next run parses again.
      try {
        unlinkSync(temp);
      } catch {
        // never written
      }
    }
  }
}

function store(result: ConceptResult): StoredResult {
  const { concept } = result;
  return {
    concept: concept && { ...concept, rules: concept.rules.map(({ regex: _regex, ...rule }) => rule) },
    problems: result.problems,
    idLine: result.idLine,
  };
}

function restore(stored: StoredResult): ConceptResult {
  const { concept } = stored;
  return {
    concept: concept && { ...concept, rules: concept.rules.map(restoreRule) },
    problems: stored.problems,
    idLine: stored.idLine,
  };
}

/** The pattern compiled when the rule first runs: most rules of a large bundle govern no changed file. */
function restoreRule(stored: StoredRule): Rule {
  const rule = { ...stored } as Rule;
  Object.defineProperty(rule, 'regex', {
    configurable: true,
    enumerable: true,
    get() {
      const regex = new RegExp(stored.pattern, stored.flags);
      Object.defineProperty(rule, 'regex', { value: regex, writable: true, enumerable: true, configurable: true });
      return regex;
    },
    set(value: RegExp) {
      Object.defineProperty(rule, 'regex', { value, writable: true, enumerable: true, configurable: true });
    },
  });
  return rule;
}
