/** Path globs of a bundle (`paths`, a rule's `paths`/`exclude`): checked once, compiled once. */
import { createRequire } from 'node:module';
import { derived } from '../core/derived-cache.js';
import type Picomatch from 'picomatch';
import { bundleMessages as m } from '../messages/bundle.js';

let library: typeof Picomatch | undefined;

/**
 * picomatch (a CommonJS package, so it can be required on demand), loaded on first need: a
 * review whose bundle has no globs to check does not load it (the hooks run on every commit).
 */
function picomatch(): typeof Picomatch {
  return (library ??= createRequire(import.meta.url)('picomatch') as typeof Picomatch);
}

/** Dot files match, as docs/bundle.md asks; `**` spans folders (picomatch's default). */
export const GLOB_OPTIONS = { dot: true } as const;

export type GlobCheck =
  | { ok: true; glob: string; warning: string | null }
  | { ok: false; error: string };

const checked = new Map<string, GlobCheck>();

/** Validates one glob; a leading `/` or `./` is dropped (repo-relative) with a warning. Memoized: bundles repeat their globs. */
export function checkGlob(raw: string): GlobCheck {
  let result = checked.get(raw);
  if (!result) {
    result = check(raw);
    checked.set(raw, result);
  }
  return result;
}

function check(raw: string): GlobCheck {
  if (raw.trim() === '') return { ok: false, error: m.emptyGlob };
  if (raw.startsWith('!')) return { ok: false, error: m.negatedGlob(raw) };
  const glob = raw.replace(/^(\.?\/)+/, '');
  const warning = glob !== raw ? m.absoluteGlob(raw) : null;
  if (glob === '') return { ok: false, error: m.emptyGlob };
  try {
    // strictBrackets makes an unbalanced [ { ( an error instead of a literal character.
    picomatch().makeRe(glob, { ...GLOB_OPTIONS, strictBrackets: true });
  } catch (error) {
    return { ok: false, error: m.invalidGlob(raw, (error as Error).message) };
  }
  return { ok: true, glob, warning };
}

/** Length of the glob's literal start (`src/controllers/` of `src/controllers/**`): its specificity. */
export function literalPrefixLength(glob: string): number {
  const at = glob.search(/[*?[\]{}()!+@\\]/);
  return at === -1 ? glob.length : at;
}

export type PathMatcher = (path: string) => boolean;

/** A glob compiled by picomatch: its regex, as source and flags (what the bundle cache keeps). */
export type CompiledGlob = [source: string, flags: string];

const compiled = new Map<string, PathMatcher>();
const isCompiled = (value: unknown): value is CompiledGlob => Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string';

/**
 * The regex of a glob. picomatch compiles it once; the derived cache keeps it between runs (keyed
 * by build, so by picomatch's version too): a warm review never loads picomatch.
 */
export function compiledGlob(glob: string): CompiledGlob {
  return derived('glob', glob, () => {
    const regex = picomatch().makeRe(glob, GLOB_OPTIONS);
    return [regex.source, regex.flags];
  }, isCompiled);
}

/**
 * One glob as a predicate, compiled once per run (bundles repeat the same globs). The test is
 * picomatch's own for these options (picomatch.test: a non-empty path equal to the glob, or one
 * its regex matches); test/bundle/globs-property.test.ts holds it to picomatch's matcher.
 */
export function compileGlob(glob: string): PathMatcher {
  let matcher = compiled.get(glob);
  if (!matcher) {
    const [source, flags] = compiledGlob(glob);
    const regex = new RegExp(source, flags);
    matcher = (path) => path !== '' && (path === glob || regex.test(path));
    compiled.set(glob, matcher);
  }
  return matcher;
}

/** One matcher for a list of globs (each compiled once). Empty list: matches nothing. */
export function compileGlobs(globs: readonly string[]): PathMatcher {
  if (globs.length === 0) return () => false;
  if (globs.length === 1) return compileGlob(globs[0]!);
  const matchers = globs.map(compileGlob);
  return (path) => matchers.some((match) => match(path));
}
