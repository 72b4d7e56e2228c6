/** Writes parsed diff structures back as unified diff text (a chunk's `diff` for reviewer programs). */
import type { DiffFile, Hunk } from './types.js';
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

export function formatHunk(hunk: Hunk): string {
  const range = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);
  let out = `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${hunk.section ? ` ${hunk.section}` : ''}\n`;
  for (const line of hunk.lines) {
    out += `${line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}${line.text}\n`;
    if (line.noNewlineAtEnd) out += '\\ No newline at end of file\n';
  }
  return out;
}

export function formatFile(file: DiffFile, hunks: readonly Hunk[] = file.hunks): string {
  return formatFileHeader(file) + hunks.map(formatHunk).join('');
}
