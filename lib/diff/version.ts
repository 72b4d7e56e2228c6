/**
 * Which version of a changed file is the new side of a diff, decided once for every reader of
 * file versions (the structural pass's files, review/structural/io.ts; the binary files read as
 * text, ./blob-text.ts): the work tree's for local changes, the index's for staged ones, the
 * tip's for a range. A diff handed in as text has no file versions to read.
 */
import type { VersionSide } from '../core/git/versions.js';
import type { DiffSource } from './types.js';

export type NewSide = VersionSide;

/** The new side of `source` (`tip`: the range's tip commit, when known); null when there is none to read. */
export function newSideOf(source: DiffSource, tip: string | null): NewSide | null {
  if (source.kind === 'worktree') return { kind: 'worktree' };
  if (source.kind === 'staged') return { kind: 'index' };
  if (source.kind === 'range' && tip) return { kind: 'commit', commit: tip };
  return null;
}

/** git's name of `path` on an object side (`:path`, `tip:path`), as cat-file takes it. */
export { versionName as objectName } from '../core/git/versions.js';
