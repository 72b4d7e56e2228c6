/**
 * The change an open buffer makes against HEAD, as git says it (docs/editor.md "What is
 * reviewed"): the file's HEAD blob and the buffer's text are written side by side into a
 * temporary folder, `a/PATH` and `b/PATH`, and `git diff --no-index --no-prefix` of the two
 * gives a unified diff whose headers name PATH as a diff of the work tree would. A file HEAD
 * does not have is new (`/dev/null` against it); an untracked file the ignore rules cover is not
 * reviewed, as a commit would not take it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileDiff, ignoredFiles, run, stream } from '../core/git/commands.js';
import { fileVersions } from '../core/git/versions.js';
import { DEFAULT_CAPS, readCapped, type CappedDiff } from '../diff/cap.js';

/** The diff options that pin git's output format, as the review's own diffs pin it (diff/source.ts). */

export interface BufferDiffOptions {
  /** Called once git is diffing: what the caller starts then costs the diff no time (./reviews.ts). */
  whileDiffing?: () => void;
  /** Takes the scratch folder's removal, for the caller to run later (after the diagnostics are sent). */
  later?: (tidy: () => void) => void;
}

/**
 * The unified diff of `text` (the buffer) against HEAD's `path` (repository-relative, `/`),
 * or null when a commit would not review the file (ignored, or a name git's batch cannot take).
 */
export async function bufferDiff(
  top: string,
  path: string,
  text: string,
  options: BufferDiffOptions = {},
): Promise<CappedDiff | null> {
  if (path.includes('\n') || path.startsWith('../')) return null;
  const newFile = join('b', path);
  // The scratch copies are written and removed at once, synchronously: a few small files in a
  // folder of our own, read once by git (nothing to keep across a crash: no fsync, no rename). Awaited writes
  // would each wait for a turn of the event loop, which the first review's bundle load gives only
  // now and then, and the diff would start after the load instead of beside it.
  const dir = mkdtempSync(join(tmpdir(), 'revtrail-lsp-'));
  try {
    // The process's one reader of file versions (core/git/versions.ts), whose cat-file the
    // editor starts ahead of the review (./reviews.ts): the answer comes without the wait for git
    // to start. HEAD is resolved when git reads the question, so it is HEAD as it is now.
    const head = fileVersions(top).object(`HEAD:${path}`);
    head.catch(() => {}); // awaited below, unless a write throws first
    mkdirSync(dirname(join(dir, newFile)), { recursive: true });
    writeFileSync(join(dir, newFile), text);
    const found = await head;
    const old = found?.type === 'blob' ? found.bytes : null;
    if (old === null && (await run(ignoredFiles([path]), { cwd: top })).length > 0) return null;
    return await diffAgainst(dir, path, old, newFile, options.whileDiffing);
  } finally {
    const tidy = () => rmSync(dir, { recursive: true, force: true });
    if (options.later) options.later(tidy);
    else tidy();
  }
}

/** git's diff of the scratch copy `newFile` in `dir` against the HEAD blob `old` (none: a new file). */
async function diffAgainst(
  dir: string,
  path: string,
  old: Buffer | null,
  newFile: string,
  whileDiffing?: () => void,
): Promise<CappedDiff> {
  let oldFile = '/dev/null';
  if (old !== null) {
    oldFile = join('a', path);
    mkdirSync(dirname(join(dir, oldFile)), { recursive: true });
    writeFileSync(join(dir, oldFile), old);
  }
  // Exit 1 is git's "they differ"; the same per-file caps as every review's diff (diff/cap.ts).
  const diffing = readCapped(stream(fileDiff(oldFile, newFile, DEFAULT_CAPS.fileBytes), { cwd: dir }));
  whileDiffing?.();
  const diff = await diffing;
  // Against /dev/null git names the new file on both sides of its header (`diff --git b/P b/P`);
  // a diff of the work tree says `a/P b/P`, and so the parser reads the old side.
  if (old === null) diff.text = diff.text.replace(/^diff --git ("?)b\//, 'diff --git $1a/');
  return diff;
}
