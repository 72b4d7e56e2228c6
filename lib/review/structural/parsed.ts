/**
 * The one place a file version is parsed (docs/structural.md "Parsed once"): every rule kind
 * that reads a tree (`ast` and `imports` rules, the pattern rules' view of Python, Go and Java,
 * the declarations a comparison pairs by), old and new versions alike, asks here, and a version
 * whose text and language were parsed before in this process gets the same tree back. Keyed by
 * the language and a hash of the text, not by path or blob id: the work tree's version has no
 * blob id, and one blob is the new version of one review and the old of the next (a push of
 * several refs, the editor's reviews against HEAD, a replay of history).
 *
 * Bounded: a tree costs about sixty times its text in memory (a 1 MiB TypeScript file, 61 MB),
 * so the trees of at most MAX_KEPT_TEXT characters are kept, the least recently used dropped
 * first. That is two files at the parse cap: a file's old and new trees are always both kept
 * while its rules run.
 */
import { createHash } from 'node:crypto';
import type { StructuralLanguage } from '../../bundle/structural.js';
import { hasErrors, parseFile, type Root } from './match.js';

/** The text, in characters, whose trees are kept: twice the parse cap (./index.ts MAX_PARSED_BYTES). */
export const MAX_KEPT_TEXT = 2 * 1024 * 1024;

export interface Parsed {
  /** The tree (with ERROR nodes where parts do not parse), or null where the parser threw. */
  root: Root | null;
  /** Why it does not parse, or not all of it (a thrown parser error, or "not valid <language>"), else null. */
  unparsed: string | null;
}

// A Map iterates in insertion order: re-inserting a hit makes the first entry the least recently used.
const kept = new Map<string, { parsed: Parsed; size: number }>();
let keptSize = 0;
let parses = 0;

/** What a version's tree is known by: its language and its text's hash. */
export function versionKey(language: StructuralLanguage, text: string): string {
  return `${language}\0${createHash('sha1').update(text).digest('base64')}`;
}

/** The parse of `text` in `language` (`key`: versionKey of both), parsed here only when no tree of it is kept. */
export function parsedVersion(language: StructuralLanguage, text: string, key = versionKey(language, text)): Parsed {
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit.parsed;
  }
  parses++;
  const parsed: Parsed = { root: null, unparsed: null };
  try {
    parsed.root = parseFile(language, text);
    // A tree with errors is kept: the parts that parse keep their rules (docs/structural.md).
    if (hasErrors(parsed.root)) parsed.unparsed = `not valid ${language}`;
  } catch (error) {
    parsed.unparsed = (error as Error).message;
  }
  kept.set(key, { parsed, size: text.length });
  keptSize += text.length;
  for (const [old, entry] of kept) {
    if (keptSize <= MAX_KEPT_TEXT || old === key) break;
    kept.delete(old);
    keptSize -= entry.size;
  }
  return parsed;
}

/** How many file versions this process has parsed (what test/review/parse-once.test.ts counts). */
export function parseCount(): number {
  return parses;
}
