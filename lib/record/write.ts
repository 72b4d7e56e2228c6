/**
 * Writing Review-Finding trailers (docs/trailers.md): only through `git interpret-trailers`, so they land
 * in git's own trailer block (after Signed-off-by:, before comments and the scissors line) and
 * `%(trailers)` sees every one. Bytes in, bytes out: a message in another encoding survives.
 */
import { readFile } from 'node:fs/promises';
import { addTrailers, parsedTrailers, run } from '../core/git/commands.js';
import { TRAILER_KEY, foldRow, formatRow, type TrailerRow } from './row.js';
import { lintMessage } from './lint.js';
import { cleanStaleTemps, writeFileAtomic } from '../core/fs/atomic.js';
import { RevtrailError } from '../core/errors.js';
import { trailerMessages as m } from '../messages/trailers.js';
import { loadConfig } from '../config/load.js';

export interface TrailerGitOptions {
  /** Folder inside the repository (git reads core.commentChar and trailer.* from its config). */
  cwd: string;
  /** The comment character of this message (see commentCharFor); passed to git explicitly. */
  commentChar?: string;
  /** git 2.39 can spin forever on some inputs; never hang a commit on it. */
  timeoutMs?: number;
  /** `trailers.foldAt`: rows longer than this are folded (docs/trailers.md "Folding"); 0 never. Default 100. */
  foldAt?: number;
}

export const DEFAULT_FOLD_AT = 100;

/** `trailers.foldAt` of the repository's config; the default when the config cannot be read (the rows are still written). */
export async function configuredFoldAt(top: string): Promise<number> {
  try {
    return (await loadConfig(top)).config.trailers.foldAt;
  } catch {
    return DEFAULT_FOLD_AT;
  }
}

/** The trailer line (folded where it is long) for a row. */
export function trailerLine(row: TrailerRow, foldAt = DEFAULT_FOLD_AT): string {
  return `${TRAILER_KEY}: ${foldRow(formatRow(row), foldAt)}`;
}

/** git 2.39 glues a trailer onto a last line that has no newline: give it one first. */
export function withFinalNewline(message: Buffer): Buffer {
  return message.length === 0 || message[message.length - 1] === 0x0a
    ? message
    : Buffer.concat([message, Buffer.from('\n')]);
}

/**
 * The message with one `Review-Finding:` trailer per row added. `--if-exists addIfDifferent`
 * skips a row already in the trailer block (an amended commit gains no duplicates);
 * `--no-divider` keeps a `---` line in the body from ending the message.
 */
export async function appendTrailers(
  message: Buffer,
  rows: readonly TrailerRow[],
  options: TrailerGitOptions,
): Promise<Buffer> {
  if (rows.length === 0) return message;
  const lines = rows.map((row) => trailerLine(row, options.foldAt));
  // git compares values as written: the same row folded another way (an older commit, another
  // width) would be added twice. Such a row is already there.
  const text = message.toString('utf8');
  if (/^review-finding[ \t]*:/im.test(text)) {
    const present = new Set(
      lintMessage(text, { commentChar: options.commentChar ?? '#' }).rows.map((r) => formatRow(r.row)),
    );
    const keep = rows.map((row, i) => !present.has(formatRow(row)) || text.includes(lines[i]!));
    if (!keep.every(Boolean))
      return appendTrailers(
        message,
        rows.filter((_, i) => keep[i]),
        options,
      );
  }
  // With core.commentChar R the key is written in lower case (keyFor): git would strip the row.
  const key = keyFor(options.commentChar);
  const trailers = lines.map((line) => (key === TRAILER_KEY ? line : `${key}${line.slice(TRAILER_KEY.length)}`));
  // Bytes in and out: the message keeps its encoding. A git that spins is killed (GitError).
  const after = await run(addTrailers(withFinalNewline(message), trailers, options), { cwd: options.cwd });
  await checkReadBack(after, rows, options);
  return after;
}

/**
 * The key as written. git's cleanup strips every line that starts with the comment character,
 * so with `core.commentChar=R` a `Review-Finding:` row would vanish from an edited message; the
 * key is case-insensitive for git (`%(trailers:key=…)`) and for every revtrail reader, so it is
 * written in lower case there (docs/record.md "Git's settings").
 */
export function keyFor(commentChar: string | undefined): string {
  return commentChar && TRAILER_KEY.startsWith(commentChar) ? TRAILER_KEY.toLowerCase() : TRAILER_KEY;
}

/** A row git would not read back as a trailer of the message: nothing is written (say so). */
export class TrailersUnreadableError extends RevtrailError {}

// Folding puts a newline and a space where git's unfolding shows a space: compare without whitespace.
const bare = (v: string) => v.replace(/\s+/g, '');

/** git's own reading of the written message must hold every row (`interpret-trailers --parse`). */
async function checkReadBack(after: Buffer, rows: readonly TrailerRow[], options: TrailerGitOptions): Promise<void> {
  const seen = new Set<string>();
  for (const line of (await parseTrailers(after, options)).split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === TRAILER_KEY.toLowerCase())
      seen.add(bare(line.slice(colon + 1)));
  }
  const lost = rows.filter((r) => !seen.has(bare(formatRow(r))));
  if (lost.length)
    throw new TrailersUnreadableError(m.notReadBack(lost.map((r) => `${r.verdict} ${r.id}`)), {
      remedy: m.notReadBackRemedy,
    });
}

/** git's own view of the message's trailers (`Key: value` per line, unfolded). */
export async function parseTrailers(message: Buffer, options: TrailerGitOptions): Promise<string> {
  return (await run(parsedTrailers(withFinalNewline(message), options), { cwd: options.cwd })).toString('utf8');
}

/**
 * Adds the rows to a message file, replacing it atomically; on any failure the file is left as
 * it was. Returns whether the file changed.
 */
export async function addTrailersToFile(
  file: string,
  rows: readonly TrailerRow[],
  options: TrailerGitOptions,
): Promise<boolean> {
  if (rows.length === 0) return false;
  await cleanStaleTemps(file);
  const before = await readFile(file);
  const after = await appendTrailers(before, rows, options);
  if (after.equals(before)) return false;
  await writeFileAtomic(file, after);
  return true;
}
