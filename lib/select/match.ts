/**
 * Which documents govern a chunk and why (docs/architecture.md "Stages and the one-way order"). The bundle is
 * compiled once into lookup tables: each distinct glob is compiled once and tested once per
 * path; domain and tag names are found by key, not by scanning every concept.
 */
import type { Bundle, Concept } from '../bundle/types.js';
import { compileGlob, literalPrefixLength } from '../bundle/globs.js';
import { chunkNames, nameKey, splitName } from './names.js';
import { tokensOf } from './budget.js';
import type { MatchKind } from './types.js';

export interface Match {
  concept: Concept;
  match: MatchKind;
  matched: string;
  /** Longer literal glob prefix, or more name segments: more specific. */
  specificity: number;
  /** Tokens of the whole document text. */
  tokens: number;
}

const PRIORITY: Record<MatchKind, number> = { paths: 1, 'doc-map': 1, domain: 2, tags: 3 };

interface GlobEntry {
  glob: string;
  /** literalPrefixLength of the glob, counted once. */
  literalLength: number;
  /** The literal start of the glob: a path that does not start with it cannot match. */
  prefix: string;
  /** Compiled on first use: compiling costs far more than testing, and most globs never get past the prefix. */
  test: ((path: string) => boolean) | null;
  concepts: Concept[];
}

interface NameEntry {
  concept: Concept;
  kind: 'domain' | 'tags';
  name: string;
  segments: number;
}

export interface Selector {
  match(path: string, oldPath: string | null, namespace: string | null): Match[];
}

export function compileSelector(bundle: Bundle): Selector {
  const globs = new Map<string, GlobEntry>();
  const singles = new Map<string, NameEntry[]>();
  const qualified = new Map<string, NameEntry[]>();
  // Counted for a concept when it first matches: most of a large bundle's never do.
  const tokens = new Map<Concept, number>();
  const tokensOfConcept = (concept: Concept) => {
    let counted = tokens.get(concept);
    if (counted === undefined) tokens.set(concept, (counted = tokensOf(concept.body)));
    return counted;
  };
  for (const concept of bundle.concepts) {
    for (const glob of distinct(concept.paths)) {
      let entry = globs.get(glob);
      if (!entry) {
        const literalLength = literalPrefixLength(glob);
        const prefix = glob.slice(0, literalLength).replace(/\/$/, '');
        entry = { glob, literalLength, prefix, test: null, concepts: [] };
        globs.set(glob, entry);
      }
      entry.concepts.push(concept);
    }
    for (const kind of ['domain', 'tags'] as const) {
      for (const name of distinct(concept[kind])) {
        const segments = splitName(name);
        if (segments.length === 0) continue;
        const table = segments.length === 1 ? singles : qualified;
        const key = nameKey(segments);
        const list = table.get(key) ?? [];
        list.push({ concept, kind, name, segments: segments.length });
        table.set(key, list);
      }
    }
  }
  // Globs by the first folder of their literal start, so a path is tested only against globs
  // that could match it; globs that start with a wildcard are tested against every path.
  const byFirst = new Map<string, GlobEntry[]>();
  const anywhere: GlobEntry[] = [];
  for (const entry of globs.values()) {
    const { literalLength } = entry;
    const literal = entry.glob.slice(0, literalLength);
    const slash = literal.indexOf('/');
    const first = slash !== -1 ? literal.slice(0, slash) : literalLength === entry.glob.length ? literal : null;
    if (first === null) anywhere.push(entry);
    else {
      // Pushed, not copied: a bundle's globs mostly share their first folder (`src/…`).
      const list = byFirst.get(first);
      if (list) list.push(entry);
      else byFirst.set(first, [entry]);
    }
  }
  const testGlobs = (entries: readonly GlobEntry[] | undefined, path: string, hits: Set<GlobEntry>) => {
    if (!entries) return;
    for (const entry of entries) {
      if (hits.has(entry) || !path.startsWith(entry.prefix)) continue;
      entry.test ??= compileGlob(entry.glob);
      if (entry.test(path)) hits.add(entry);
    }
  };

  return {
    match(path, oldPath, namespace) {
      const best = new Map<Concept, Match>();
      const offer = (concept: Concept, match: MatchKind, matched: string, specificity: number) => {
        const current = best.get(concept);
        if (!current || better(match, matched, specificity, current)) {
          best.set(concept, { concept, match, matched, specificity, tokens: tokensOfConcept(concept) });
        }
      };
      const paths = oldPath && oldPath !== path ? [path, oldPath] : [path];
      const hits = new Set<GlobEntry>();
      for (const p of paths) {
        const slash = p.indexOf('/');
        testGlobs(byFirst.get(slash === -1 ? p : p.slice(0, slash)), p, hits);
        testGlobs(anywhere, p, hits);
      }
      for (const entry of hits) {
        for (const concept of entry.concepts)
          offer(concept, concept.mapped ? 'doc-map' : 'paths', entry.glob, entry.literalLength);
      }
      if (singles.size || qualified.size) {
        const names = chunkNames(namespace, paths);
        const found = (entries: NameEntry[] | undefined) => {
          if (entries) for (const e of entries) offer(e.concept, e.kind, e.name, e.segments);
        };
        for (const s of names.singles) found(singles.get(s));
        for (const q of names.qualified) found(qualified.get(q));
      }
      return [...best.values()].sort(compareMatches);
    },
  };
}

/** A concept's list without repeats; most lists hold one entry, which needs no set. */
function distinct(list: readonly string[]): readonly string[] {
  return list.length < 2 ? list : [...new Set(list)];
}

function better(match: MatchKind, matched: string, specificity: number, than: Match): boolean {
  if (PRIORITY[match] !== PRIORITY[than.match]) return PRIORITY[match] < PRIORITY[than.match];
  if (specificity !== than.specificity) return specificity > than.specificity;
  return matched < than.matched;
}

/** Priority (paths, domain, tags), then specificity, then concept ID. */
export function compareMatches(a: Match, b: Match): number {
  return (
    PRIORITY[a.match] - PRIORITY[b.match] ||
    b.specificity - a.specificity ||
    (a.concept.id < b.concept.id ? -1 : a.concept.id > b.concept.id ? 1 : 0)
  );
}
