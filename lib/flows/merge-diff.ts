/**
 * What a merge introduced (docs/record.md "What a commit is reviewed against"): the lines of the result that are in none
 * of its parents, such as a conflict resolution (markers left in it included). A line counts
 * when the diff from every parent adds it. The result is the first parent's diff with every
 * other added line turned into context, so line numbers, file headers and declarations stay
 * as the review expects them.
 */
import { parseDiff } from '../diff/parse.js';
import { quotePath } from '../diff/quote.js';
import type { DiffFile, DiffLine } from '../diff/types.js';

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
  const otherAdds = others.map((text) => addedLines(parseDiff(text, 'merge diff')));
  const introduced = (path: string, line: DiffLine) =>
    line.kind === 'add' && otherAdds.every((set) => set.has(`${path}\0${line.newLine}`));
  const out: string[] = [];
  for (const file of parseDiff(first, 'merge diff')) {
    if (!file.newPath || file.binary) continue;
    const path = file.newPath;
    const hunks: string[] = [];
    for (const hunk of file.hunks) {
      if (!hunk.lines.some((l) => introduced(path, l))) continue;
      const body: string[] = [];
      let oldCount = 0;
      let newCount = 0;
      for (const l of hunk.lines) {
        const kind = l.kind === 'add' && !introduced(path, l) ? 'context' : l.kind;
        body.push(`${kind === 'add' ? '+' : kind === 'del' ? '-' : ' '}${l.text}`);
        if (l.noNewlineAtEnd) body.push('\\ No newline at end of file');
        if (kind !== 'add') oldCount++;
        if (kind !== 'del') newCount++;
      }
      // A count of 0 names the line before the hunk; with lines, the first line of it.
      const oldStart = hunk.oldLines === 0 && oldCount > 0 ? hunk.oldStart + 1 : hunk.oldStart;
      hunks.push(`@@ -${oldStart},${oldCount} +${hunk.newStart},${newCount} @@`, ...body);
    }
    if (hunks.length === 0) continue;
    // Context lines need an old side: a file new to the first parent reads as a changed one.
    const oldName = quotePath(`a/${file.oldPath ?? path}`);
    out.push(
      `diff --git ${oldName} ${quotePath(`b/${path}`)}`,
      `--- ${oldName}`,
      `+++ ${quotePath(`b/${path}`)}`,
      ...hunks,
    );
  }
  return out.length ? out.join('\n') + '\n' : '';
}
