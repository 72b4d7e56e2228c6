/**
 * The files a push changes, each as it is at the pushed tip, for the credential rules (docs/hooks.md
 * "Push", issue 35): a diff reviews added lines only, so a key whose header stays while its body is
 * replaced (a rotated test key), or one assembled over several commits of the push (header and
 * footer in one, the body in the next), is no whole key in any diff. Read whole, every such file
 * holds it. Regular files only (no symlink, no submodule); each blob is read and decoded as the
 * binary-file reader reads one (../diff/blob-text.ts: up to the per-file cap, UTF-16/32 by BOM or
 * NUL pattern), and becomes a diff that adds every line, numbered as in the file.
 */
import { changedBlobs, runGit } from '../core/git/commands.js';
import { readBinaryAsText } from '../diff/blob-text.js';
import { DEFAULT_CAPS, type DiffCaps } from '../diff/cap.js';
import { formatFile } from '../diff/format.js';
import type { DiffFile } from '../diff/types.js';

const REGULAR = new Set(['100644', '100755']);

export interface TipFiles {
  /** A unified diff adding every line of every changed file at the tip ('' when none). */
  text: string;
  /** Files read only up to a cap (named by the review, and never passed over by a screen). */
  capped: string[];
}

/** The changed files of `range` at its new side, as a diff that adds them whole. */
export async function tipFiles(top: string, range: string, caps: DiffCaps = DEFAULT_CAPS): Promise<TipFiles> {
  const blobs = (await runGit(changedBlobs(range), { cwd: top })).filter((b) => REGULAR.has(b.mode));
  if (blobs.length === 0) return { text: '', capped: [] };
  const files: DiffFile[] = blobs.map((b) => ({
    oldPath: null,
    newPath: b.path,
    status: 'added',
    binary: true,
    blobs: { old: null, new: b.oid },
    oldMode: null,
    newMode: b.mode,
    hunks: [],
  }));
  const capped = await readBinaryAsText(top, files, 'objects', caps);
  const text = files
    .filter((f) => f.hunks.length > 0)
    .map((f) => formatFile({ ...f, binary: false }))
    .join('');
  return { text, capped };
}
