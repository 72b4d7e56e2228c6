/**
 * Hunks for the diff model's property tests (test/diff/*.property.test.ts): lines of given kinds
 * numbered from where the hunk starts, with the counts and the empty-side start git writes.
 */
import type { DiffLine, Hunk } from '../../lib/diff/types.js';

/**
 * One hunk of `lines` starting at `oldAt`/`newAt`, and where the next hunk may start (one line
 * apart, so two hunks never touch).
 */
export function numberedHunk(
  lines: ReadonlyArray<readonly [DiffLine['kind'], string]>,
  oldAt: number,
  newAt: number,
  section: string,
): { hunk: Hunk; oldAt: number; newAt: number } {
  const hunk: Hunk = { oldStart: oldAt, oldLines: 0, newStart: newAt, newLines: 0, section, lines: [] };
  for (const [kind, text] of lines) {
    if (kind === 'add') hunk.lines.push({ kind, text, oldLine: null, newLine: newAt++ });
    else if (kind === 'del') hunk.lines.push({ kind, text, oldLine: oldAt++, newLine: null });
    else hunk.lines.push({ kind, text, oldLine: oldAt++, newLine: newAt++ });
  }
  hunk.oldLines = hunk.lines.filter((l) => l.kind !== 'add').length;
  hunk.newLines = hunk.lines.filter((l) => l.kind !== 'del').length;
  // An empty side starts at 0, as git writes it.
  if (hunk.oldLines === 0) hunk.oldStart = Math.max(0, hunk.oldStart - 1);
  if (hunk.newLines === 0) hunk.newStart = Math.max(0, hunk.newStart - 1);
  return { hunk, oldAt: oldAt + 1, newAt: newAt + 1 };
}
