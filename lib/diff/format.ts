/**
 * The one writer of diff text (docs/architecture.md "The diff model"): `DiffFile`s and hunks
 * back to unified diff text, as git writes it. A chunk's `diff` for reviewer programs, a merge's
 * introduced lines, a pushed message or path list as an added file, the lines kept past a cap:
 * each is built as a `DiffFile` or `Hunk` and written here, so what the reader (./read.ts) reads
 * back is the same model.
 */
import type { DiffFile, DiffLine, Hunk } from './types.js';
import { quotePath } from './quote.js';

/** The git header of one file: `diff --git`, modes, rename/copy lines, binary note, `---`/`+++`. */
export function formatFileHeader(file: DiffFile): string {
  const oldName = file.oldPath ?? file.newPath!;
  const newName = file.newPath ?? file.oldPath!;
  const out = [`diff --git ${quotePath(`a/${oldName}`)} ${quotePath(`b/${newName}`)}`];
  if (file.status === 'added' && file.newMode) out.push(`new file mode ${file.newMode}`);
  else if (file.status === 'deleted' && file.oldMode) out.push(`deleted file mode ${file.oldMode}`);
  else if (file.oldMode && file.newMode && file.oldMode !== file.newMode) {
    out.push(`old mode ${file.oldMode}`, `new mode ${file.newMode}`);
  }
  if (file.status === 'renamed' || file.status === 'copied') {
    const verb = file.status === 'renamed' ? 'rename' : 'copy';
    out.push(`${verb} from ${quotePath(oldName)}`, `${verb} to ${quotePath(newName)}`);
  }
  const oldSide = file.oldPath === null ? '/dev/null' : quotePath(`a/${file.oldPath}`);
  const newSide = file.newPath === null ? '/dev/null' : quotePath(`b/${file.newPath}`);
  if (file.binary) out.push(`Binary files ${oldSide} and ${newSide} differ`);
  else if (file.hunks.length) out.push(`--- ${oldSide}`, `+++ ${newSide}`);
  return out.join('\n') + '\n';
}

/** The counts a hunk header names. */
export type HunkCounts = Pick<Hunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines'>;

/**
 * A hunk's `@@` line with its newline; `tail` is written after the closing `@@` as given (a
 * section goes after one space). A count of 1 is left out, as git does.
 */
export function formatHunkHeader(counts: HunkCounts, tail = ''): string {
  const range = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);
  return `@@ -${range(counts.oldStart, counts.oldLines)} +${range(counts.newStart, counts.newLines)} @@${tail}\n`;
}

/** One line of a hunk with its newline (and git's marker after it when the file ends without one). */
export function formatHunkLine(kind: DiffLine['kind'], text: string, noNewlineAtEnd = false): string {
  const line = `${kind === 'add' ? '+' : kind === 'del' ? '-' : ' '}${text}\n`;
  return noNewlineAtEnd ? `${line}\\ No newline at end of file\n` : line;
}

export function formatHunk(hunk: Hunk): string {
  let out = formatHunkHeader(hunk, hunk.section ? ` ${hunk.section}` : '');
  for (const line of hunk.lines) out += formatHunkLine(line.kind, line.text, line.noNewlineAtEnd);
  return out;
}

export function formatFile(file: DiffFile, hunks: readonly Hunk[] = file.hunks): string {
  return formatFileHeader(file) + hunks.map(formatHunk).join('');
}
