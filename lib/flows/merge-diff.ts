/**
 * What a merge introduced (docs/record.md "What a commit is reviewed against"): the lines of the result that are in none
 * of its parents, such as a conflict resolution (markers left in it included). A line counts
 * when the diff from every parent adds it. The result is the first parent's diff with every
 * other added line turned into context, so line numbers, file headers and declarations stay
 * as the review expects them.
 */
import { parseDiff } from '../diff/parse.js';
import { formatFile } from '../diff/format.js';
import type { DiffFile, DiffLine, Hunk } from '../diff/types.js';

const addedLines = (files: readonly DiffFile[]) => {
  const set = new Set<string>();
  for (const f of files) {
    if (!f.newPath) continue;
    for (const h of f.hunks) for (const l of h.lines) if (l.kind === 'add') set.add(`${f.newPath}\0${l.newLine}`);
  }
  return set;
};

/** `first`: the diff from the first parent to the result; `others`: from each other parent. */
export function introducedDiff(first: string, others: readonly string[]): string {
  return introducedFiles(first, others)
    .map((file) => formatFile(file))
    .join('');
}

/** The files of `introducedDiff`, as the model: what the one writer writes (../diff/format.ts). */
export function introducedFiles(first: string, others: readonly string[]): DiffFile[] {
  const otherAdds = others.map((text) => addedLines(parseDiff(text, 'merge diff')));
  const introduced = (path: string, line: DiffLine) =>
    line.kind === 'add' && otherAdds.every((set) => set.has(`${path}\0${line.newLine}`));
  const out: DiffFile[] = [];
  for (const file of parseDiff(first, 'merge diff')) {
    if (!file.newPath || file.binary) continue;
    const path = file.newPath;
    const hunks: Hunk[] = [];
    for (const hunk of file.hunks) {
      if (!hunk.lines.some((l) => introduced(path, l))) continue;
      let oldCount = 0;
      let newCount = 0;
      for (const l of hunk.lines) {
        const kind = l.kind === 'add' && !introduced(path, l) ? 'context' : l.kind;
        if (kind !== 'add') oldCount++;
        if (kind !== 'del') newCount++;
      }
      // A count of 0 names the line before the hunk; with lines, the first line of it.
      const oldStart = hunk.oldLines === 0 && oldCount > 0 ? hunk.oldStart + 1 : hunk.oldStart;
      let oldLine = oldStart;
      const lines = hunk.lines.map((l): DiffLine => {
        const kind = l.kind === 'add' && !introduced(path, l) ? 'context' : l.kind;
        const line: DiffLine = { kind, text: l.text, oldLine: kind === 'add' ? null : oldLine++, newLine: l.newLine };
        if (l.noNewlineAtEnd) line.noNewlineAtEnd = true;
        return line;
      });
      hunks.push({ oldStart, oldLines: oldCount, newStart: hunk.newStart, newLines: newCount, section: '', lines });
    }
    if (hunks.length === 0) continue;
    // Context lines need an old side: a file new to the first parent reads as a changed one.
    out.push({
      oldPath: file.oldPath ?? path,
      newPath: path,
      status: 'modified',
      binary: false,
      oldMode: null,
      newMode: null,
      hunks,
    });
  }
  return out;
}
