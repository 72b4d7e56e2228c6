/** Path globs of a bundle (`paths`, a rule's `paths`/`exclude`): checked once, compiled once. */
import picomatch from 'picomatch';
import { bundleMessages as m } from '../messages/bundle.js';

/** Dot files match, as SPEC §3 asks; `**` spans folders (picomatch's default). */
export const GLOB_OPTIONS = { dot: true } as const;

export type GlobCheck =
  | { ok: true; glob: string; warning: string | null }
  | { ok: false; error: string };

/** Validates one glob; a leading `/` or `./` is dropped (repo-relative) with a warning. */
export function checkGlob(raw: string): GlobCheck {
  if (raw.trim() === '') return { ok: false, error: m.emptyGlob };
  if (raw.startsWith('!')) return { ok: false, error: m.negatedGlob(raw) };
  const glob = raw.replace(/^(\.?\/)+/, '');
  const warning = glob !== raw ? m.absoluteGlob(raw) : null;
  if (glob === '') return { ok: false, error: m.emptyGlob };
  try {
    // strictBrackets makes an unbalanced [ { ( an error instead of a literal character.
    picomatch.makeRe(glob, { ...GLOB_OPTIONS, strictBrackets: true });
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

/** One matcher for a list of globs (picomatch compiles each once). Empty list: matches nothing. */
export function compileGlobs(globs: readonly string[]): PathMatcher {
  if (globs.length === 0) return () => false;
  return picomatch(globs as string[], GLOB_OPTIONS);
}
