/** Path globs of a bundle (`paths`, a rule's `paths`/`exclude`): checked once, compiled once. */
import { createRequire } from 'node:module';
import { derived } from '../core/derived-cache.js';
import type Picomatch from 'picomatch';
import { globTest } from './glob-test.js';
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
  /** `costly`: a valid glob too costly to match (costlyGlob), skipped with a warning rather than an error. */
  | { ok: false; error: string; costly?: true };

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
  if (literalFolder(glob) !== undefined) return { ok: true, glob, warning }; // always a valid glob
  const cost = costlyGlob(glob);
  if (cost) return { ok: false, error: m.costlyGlob(raw, cost), costly: true };
  try {
    // strictBrackets makes an unbalanced [ { ( an error instead of a literal character.
    picomatch().makeRe(glob, { ...GLOB_OPTIONS, strictBrackets: true });
  } catch (error) {
    return { ok: false, error: m.invalidGlob(raw, (error as Error).message) };
  }
  return { ok: true, glob, warning };
}

/** Most `**` segments a glob may have: picomatch's regex backtracks over the path once per `**`. */
export const MAX_GLOBSTARS = 2;
/** Most wildcards (runs of `*`, extglobs) one segment may have: its regex backtracks over the name once per wildcard. */
export const MAX_SEGMENT_WILDCARDS = 2;

/**
 * Why matching the glob could take super-linear time worth noticing, or null. picomatch makes
 * each `*` a lazy `[^/]*?` and each `**` a lazy run over the path, so a path that fails tries
 * every way of splitting it between them: `*a*a*a*b` against a 250-character name takes
 * seconds, a 13-star one minutes; three `**` against a 4,000-character path never finish.
 * Within these limits the cost stays quadratic at worst (docs/bundle.md "Time").
 */
export function costlyGlob(glob: string): string | null {
  const segments = glob.split('/');
  const globstars = segments.filter((s) => s === '**').length;
  if (globstars > MAX_GLOBSTARS) return m.tooManyGlobstars(globstars, MAX_GLOBSTARS);
  for (const segment of segments) {
    if (segment === '**') continue;
    const wildcards = (segment.match(/[*+?@!]\(|\*+/g) ?? []).length;
    if (wildcards > MAX_SEGMENT_WILDCARDS) return m.tooManyWildcards(wildcards, MAX_SEGMENT_WILDCARDS);
  }
  return null;
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
const isCompiled = (value: unknown): value is CompiledGlob =>
  Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string';

/**
 * The regex of a glob. picomatch compiles it once; the derived cache keeps it between runs (keyed
 * by build, so by picomatch's version too): a warm review never loads picomatch.
 */
export function compiledGlob(glob: string): CompiledGlob {
  return derived(
    'glob',
    glob,
    () => {
      const regex = picomatch().makeRe(glob, GLOB_OPTIONS);
      return [regex.source, regex.flags];
    },
    isCompiled,
  );
}

/**
 * One glob as a predicate, compiled once per run (bundles repeat the same globs). The test is
 * picomatch's own for these options (picomatch.test: a non-empty path equal to the glob, or one
 * its regex matches); test/bundle/globs.test.ts holds it to picomatch's matcher.
 */
export function compileGlob(glob: string): PathMatcher {
  let matcher = compiled.get(glob);
  if (!matcher) {
    const folder = literalFolder(glob);
    matcher = folder === undefined ? regexMatcher(glob) : folderMatcher(glob, folder);
    compiled.set(glob, matcher);
  }
  return matcher;
}

function regexMatcher(glob: string): PathMatcher {
  // A glob checkGlob skips (a config's exclude is not checked there): it matches nothing, so a
  // rule it would exclude still runs (fails closed).
  if (costlyGlob(glob)) return () => false;
  const [source, flags] = compiledGlob(glob);
  return globTest(glob, new RegExp(source, flags));
}

// A path of plain segments: none empty, none `.` or `..` (what git names a file with).
const PLAIN_PATH = /^(?!\.\.?(?:\/|$))[^/]+(?:\/(?!\.\.?(?:\/|$))[^/]+)*$/;
// `FOLDER/**` with a FOLDER of literal, plain segments: most bundles' scope globs.
const FOLDER_GLOB = /^((?:(?!\.\.?\/)[\w.\- ]+\/)*(?!\.\.?\/)[\w.\- ]+)\/\*\*$/;

/** FOLDER of a `FOLDER/**` glob whose folder is literal, else undefined. */
function literalFolder(glob: string): string | undefined {
  return FOLDER_GLOB.exec(glob)?.[1];
}

/**
 * `FOLDER/**` without a regex for the paths that decide it plainly: a plain path below FOLDER
 * matches, a plain one elsewhere does not (the regex is anchored at FOLDER's literal start). Any
 * other path (FOLDER itself, `.` or `..` or empty segments) goes to picomatch's regex, made on
 * first need: a hook's commit then compiles no regex for such globs. The property test in
 * test/bundle/globs.test.ts holds both paths to picomatch.
 */
function folderMatcher(glob: string, folder: string): PathMatcher {
  let regex: PathMatcher | undefined;
  const byRegex = (path: string) => (regex ??= regexMatcher(glob))(path);
  return (path) => {
    if (path.length > folder.length + 1 && path.startsWith(folder) && path.charCodeAt(folder.length) === 47) {
      return PLAIN_PATH.test(path.slice(folder.length + 1)) || byRegex(path);
    }
    return path !== folder && PLAIN_PATH.test(path) ? false : byRegex(path);
  };
}

/** One matcher for a list of globs (each compiled once). Empty list: matches nothing. */
export function compileGlobs(globs: readonly string[]): PathMatcher {
  if (globs.length === 0) return () => false;
  if (globs.length === 1) return compileGlob(globs[0]!);
  const matchers = globs.map(compileGlob);
  return (path) => matchers.some((match) => match(path));
}
