/**
 * The new-side lines of a changed file as the diff shows them (added and context lines), indexed
 * once per file: rules that look around a line (the line above, the rest of a statement) ask
 * here instead of scanning the hunks for every match.
 */
import type { DiffFile } from '../../diff/types.js';

interface Indexed {
  texts: string[];
  /** New-file line number → position in `texts`. */
  at: Map<number, number>;
  /** Per position: where its hunk's lines start and end in `texts` (end exclusive). */
  from: number[];
  to: number[];
}

const cache = new WeakMap<DiffFile, Indexed>();

function indexed(file: DiffFile): Indexed {
  let found = cache.get(file);
  if (found) return found;
  found = { texts: [], at: new Map(), from: [], to: [] };
  for (const hunk of file.hunks) {
    const start = found.texts.length;
    for (const line of hunk.lines) {
      if (line.kind === 'del' || line.newLine === null) continue;
      found.at.set(line.newLine, found.texts.length);
      found.texts.push(line.text);
    }
    for (let k = start; k < found.texts.length; k++) {
      found.from.push(start);
      found.to.push(found.texts.length);
    }
  }
  cache.set(file, found);
  return found;
}

/** The text of new-file line `line`, where the diff shows it. */
export function lineText(file: DiffFile, line: number): string | undefined {
  const f = indexed(file);
  const k = f.at.get(line);
  return k === undefined ? undefined : f.texts[k];
}

/**
 * Up to `above` lines before and `below` after new-file line `line`, within its hunk (the lines
 * between hunks are not known); `at` is the line's index in `lines`. Just the line when the diff
 * does not show it.
 */
export function linesAround(
  file: DiffFile,
  line: number,
  above: number,
  below: number,
  fallback: string,
): { lines: string[]; at: number } {
  const f = indexed(file);
  const k = f.at.get(line);
  if (k === undefined) return { lines: [fallback], at: 0 };
  const start = Math.max(f.from[k]!, k - above);
  return { lines: f.texts.slice(start, Math.min(f.to[k]!, k + below + 1)), at: k - start };
}
