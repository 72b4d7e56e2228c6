/**
 * The files a push changes, each as it is at the pushed tip, for the credential rules (docs/hooks.md
 * "Push", issue 35): a diff reviews added lines only, so a key whose header stays while its body is
 * replaced (a rotated test key), or one assembled over several commits of the push (header and
 * footer in one, the body in the next), is no whole key in any diff. Read whole, every such file
 * holds it. Regular files only (no symlink, no submodule); each blob is read and decoded as the
 * binary-file reader reads one (../diff/blob-text.ts: up to the per-file cap, UTF-16/32 by BOM or
 * NUL pattern), and becomes a diff that adds every line, numbered as in the file.
 */
import { changedBlobs, run } from '../core/git/commands.js';
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
  /** Every path the files are at, links and submodules included (a key can be a name). */
  paths: string[];
}

/**
 * The changed files of `range` at its new side, as a diff that adds them whole; `prefix` goes
 * before each path in what the findings name (a tree a tag names: `refs/tags/t/`).
 */
export async function tipFiles(
  top: string,
  range: string,
  caps: DiffCaps = DEFAULT_CAPS,
  prefix = '',
): Promise<TipFiles> {
  const changed = await run(changedBlobs(range), { cwd: top });
  const blobs = changed.filter((b) => REGULAR.has(b.mode));
  const files = await readWhole(
    top,
    blobs.map((b) => ({ path: prefix + b.path, oid: b.oid, mode: b.mode })),
    caps,
  );
  return { ...files, paths: changed.map((b) => prefix + b.path) };
}

/** One blob (a tag of a blob) as a file named `name`, read whole. */
export async function blobFile(
  top: string,
  oid: string,
  name: string,
  caps: DiffCaps = DEFAULT_CAPS,
): Promise<TipFiles> {
  return { ...(await readWhole(top, [{ path: name, oid, mode: '100644' }], caps)), paths: [] };
}

async function readWhole(
  top: string,
  blobs: ReadonlyArray<{ path: string; oid: string; mode: string }>,
  caps: DiffCaps,
): Promise<{ text: string; capped: string[] }> {
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
