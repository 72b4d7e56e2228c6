/**
 * A clean commit decided without the review (docs/hooks.md "Clean commits"). A full review
 * leaves a record of its policy (./clean-record.ts): the configuration's text, the stat()
 * signature of every bundle file it read, and the needles of every rule it could run (the
 * baseline's and every concept's, whatever their paths). While the configuration reads the
 * same and every file still has its signature, the same review would run the same rules; when
 * no added line of a piece holds any of their needles, no rule can match there (the rule
 * runner skips it by the same test, ./engine/needle-test.ts), and the review would find nothing and
 * say nothing. A syntax-tree or import rule has no needle: a piece with added lines on a path
 * its `paths` match is "maybe". Anything this check does not follow (a capped or binary file, a line too long
 * for the rules, non-ASCII text beside case-blind needles, a needle found) is "maybe": the
 * caller runs the full review.
 *
 * Kept small on purpose: the commit-msg hook loads this instead of the review, the bundle and
 * the selection (test/review/clean-check.property.test.ts holds it to the full review's outcome).
 */
import { readDerivedFile } from '../core/derived-cache.js';
import { configSource, type ConfigSource } from '../config/load.js';
import { signaturesHold } from '../bundle/cache.js';
import { parseDiff } from '../diff/parse.js';
import { toChunks } from '../diff/chunk.js';
import type { CappedDiff } from '../diff/cap.js';
import { MAX_LINE_LENGTH } from './engine/time.js';
import { asciiLower, holdsNeedle, joinedAdded } from './engine/needle-test.js';
import { globTest } from '../bundle/glob-test.js';
import { needleSearches, someNeedleLine, type ScreenNeedles } from './credential-needles.js';

export interface CleanRecord {
  /** The work tree whose policy it is. */
  top: string;
  /** The text the configuration came from (config/load.ts configSource). */
  config: ConfigSource;
  /** Every bundle file the load read or looked at, with its stat() signature (bundle.sources). */
  files: Array<[string, string]>;
  /** `chunkLines` of that configuration: the pieces the review cuts a diff into. */
  chunkLines: number;
  /** `trailers.foldAt` of that configuration. */
  foldAt: number;
  /** Whether a bundle rule takes a built-in credential rule_source (the push's credential screen then steps aside). */
  credentialSources: boolean;
  /** The credential screen's needles (./credential-screen.ts), or null when the rules cannot be screened. */
  credentialNeedles: ScreenNeedles | null;
  /** The hooks a model reviewer runs in (`reviewer.model.hooks`): a hook named here takes the review. */
  modelHooks: string[];
  /** Needles compared with the added text as it is. */
  needles: string[];
  /** Needles of case-blind rules, compared with the lower-cased (ASCII) text. */
  lowerNeedles: string[];
  /** The `paths` of every syntax-tree and import rule: a piece with added lines on one of them is "maybe". */
  structuralGlobs: StructuralGlob[];
}

/** A glob with the regex picomatch made of it (bundle/globs.ts compiledGlob): matched here without picomatch. */
export type StructuralGlob = [glob: string, source: string, flags: string];

/** The record in `file` when it still answers for the policy of `top`, else null. */
export function currentCleanRecord(file: string, top: string): CleanRecord | null {
  const record = readDerivedFile(file)?.record as CleanRecord | undefined;
  if (!isRecord(record) || record.top !== top) return null;
  try {
    const source = configSource(top);
    if (source.file !== record.config.file || source.text !== record.config.text) return null;
  } catch {
    return null; // unreadable now: the review says why
  }
  return signaturesHold(record.files) ? record : null;
}

/**
 * The one pre-check (docs/architecture.md "Use cases"): what a hook's review would decide,
 * answered without it where that is sure. The commit and push flows and their start bundles ask
 * it; its tests are the rule runner's needle test and the bundle's glob test, not copies.
 */
export interface PreCheck {
  /**
   * A diff the review would cut into pieces (a commit's staged diff, a ref's combined diff):
   * `clean` with how many pieces the review would have cut it into, or `review`.
   */
  decide(diff: CappedDiff): Decision;
  /**
   * One pushed commit's own patch, for the credential rules alone (docs/hooks.md "Push"): `clean`
   * when no added line holds a credential rule's needle, else `review`.
   */
  decidePatch(patch: PatchBytes): 'clean' | 'review';
  /** Whether decidePatch can say `clean` at all (the record keeps sound needles for the credential rules). */
  readonly screensPatches: boolean;
}

/** The pre-check's answer for a diff: clean, with the pieces the review would have cut, or only the review can tell. */
export type Decision = { decision: 'clean'; pieces: number } | { decision: 'review' };

/** A commit's patch as git wrote it, with the files cut at the cap. */
export interface PatchBytes {
  diff: Buffer;
  capped: readonly string[];
}

/** The pre-check for `hook` under `record`'s policy, or null where only the review can decide there. */
export function preCheck(record: CleanRecord | null, hook: 'commit-msg' | 'pre-push'): PreCheck | null {
  // A model reviewer that runs in this hook reads every piece (docs/model.md).
  if (!record || record.modelHooks.includes(hook)) return null;
  const screensPatches = !record.credentialSources && record.credentialNeedles !== null;
  let searches: RegExp[] | undefined;
  return {
    decide(diff) {
      const pieces = cleanPieces(diff, record);
      return pieces === null ? { decision: 'review' } : { decision: 'clean', pieces };
    },
    decidePatch(patch) {
      if (!screensPatches || !screenable(patch)) return 'review';
      searches ??= needleSearches(record.credentialNeedles!);
      return someNeedleLine(patch.diff.toString('latin1'), searches, () => true) ? 'review' : 'clean';
    },
    screensPatches,
  };
}

const BINARY = Buffer.from('\nBinary files ');

/**
 * Whether a screen may pass over this commit's patch: a file cut to the cap is named by the
 * review, and a file git calls binary is read as text there (docs/review.md "Git's attributes").
 */
export function screenable(patch: PatchBytes): boolean {
  return patch.capped.length === 0 && patch.diff.indexOf(BINARY) === -1;
}

/** How many pieces the review would have cut the diff into when it surely finds nothing; null: only the review can tell. */
function cleanPieces(diff: CappedDiff, record: CleanRecord): number | null {
  if (diff.capped.length) return null; // the review warns about each capped file
  let files: ReturnType<typeof parseDiff>;
  try {
    files = parseDiff(diff.text, 'git diff');
  } catch {
    return null; // the review reports it
  }
  // Binary files are read as text for the credential rules: the review does that.
  if (files.some((f) => f.binary && f.newPath !== null)) return null;
  const chunks = toChunks(files, record.chunkLines);
  // The bundle's own glob test, from the regex kept in the record (no picomatch here).
  const structural = record.structuralGlobs.map(([glob, source, flags]) => globTest(glob, new RegExp(source, flags)));
  for (const chunk of chunks) {
    if (chunk.added.length === 0) continue;
    // A syntax-tree rule may match on any node the added lines touch: no needle tells.
    if (structural.some((matches) => matches(chunk.path))) return null;
    if (chunk.added.some((a) => a.text.length > MAX_LINE_LENGTH)) return null;
    // The rule runner's own needle test (./engine/needle-test.ts), over every rule's needles at once.
    const joined = joinedAdded(chunk);
    if (holdsNeedle(joined, record.needles)) return null;
    if (record.lowerNeedles.length) {
      const lower = asciiLower(joined);
      if (lower === null || holdsNeedle(lower, record.lowerNeedles)) return null;
    }
  }
  return chunks.length;
}

const strings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((s) => typeof s === 'string');

function isRecord(value: unknown): value is CleanRecord {
  const r = value as CleanRecord | null | undefined;
  return (
    !!r &&
    typeof r.top === 'string' &&
    !!r.config &&
    typeof r.config.file === 'string' &&
    typeof r.config.text === 'string' &&
    Array.isArray(r.files) &&
    r.files.every((f) => Array.isArray(f) && f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string') &&
    typeof r.chunkLines === 'number' &&
    typeof r.foldAt === 'number' &&
    strings(r.modelHooks) &&
    typeof r.credentialSources === 'boolean' &&
    (r.credentialNeedles === null ||
      (!!r.credentialNeedles && strings(r.credentialNeedles.exact) && strings(r.credentialNeedles.folded))) &&
    strings(r.needles) &&
    strings(r.lowerNeedles) &&
    Array.isArray(r.structuralGlobs) &&
    r.structuralGlobs.every((g) => Array.isArray(g) && g.length === 3 && strings(g))
  );
}
