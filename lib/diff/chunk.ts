/**
 * Chunking (docs/bundle.md): one file's changes, split into pieces of at most `chunkLines` changed
 * (added or deleted) lines. Whole hunks go together while they fit; only a hunk that alone is
 * over the limit is cut, between runs of changes where it can be, inside a run only when one
 * run is itself over the limit.
 */
import { filePath, type Chunk, type DiffFile, type DiffLine, type Hunk } from './types.js';
import { formatFile } from './format.js';
import { languageOf } from './language.js';
import { readNamespace } from './declaration.js';

/** Context lines repeated before a run that starts a new part, as `git diff` would show them. */
const CONTEXT = 3;

export function toChunks(files: DiffFile[], chunkLines: number): Chunk[] {
  const max = Math.max(1, Math.floor(chunkLines) || 1);
  const chunks: Chunk[] = [];
  for (const file of files) {
    const path = filePath(file);
    const language = languageOf(path);
    // Plain loops, not flatMap/filter/map: a large review makes these for tens of thousands of lines.
    const visible: string[] = [];
    for (const h of file.hunks) for (const l of h.lines) if (l.kind !== 'del') visible.push(l.text);
    const namespace = readNamespace(language, visible);
    const pieces = groupPieces(
      file.hunks.flatMap((h) => splitHunk(h, max)),
      max,
    );
    if (pieces.length === 0) pieces.push([]);
    pieces.forEach((hunks, index) => {
      const added: Chunk['added'] = [];
      const changedLines = new Set<number>();
      for (const h of hunks)
        for (const l of h.lines)
          if (l.kind === 'add') {
            added.push({ line: l.newLine!, text: l.text });
            changedLines.add(l.newLine!);
          }
      let diff: string | undefined;
      chunks.push({
        path,
        oldPath: file.oldPath,
        piece: index + 1,
        language,
        namespace,
        file,
        hunks,
        added,
        changedLines,
        // Only a reviewer program reads the piece's diff text: built on first use.
        get diff() {
          return (diff ??= formatFile(file, hunks));
        },
      });
    });
  }
  return chunks;
}

function changedCount(lines: readonly DiffLine[]): number {
  let n = 0;
  for (const line of lines) if (line.kind !== 'context') n++;
  return n;
}

function groupPieces(parts: Hunk[], max: number): Hunk[][] {
  const pieces: Hunk[][] = [];
  let current: Hunk[] = [];
  let count = 0;
  for (const part of parts) {
    const n = changedCount(part.lines);
    if (current.length && count + n > max) {
      pieces.push(current);
      current = [];
      count = 0;
    }
    current.push(part);
    count += n;
  }
  if (current.length) pieces.push(current);
  return pieces;
}

/** Cuts a hunk into parts of at most `max` changed lines (the hunk itself when it fits). */
export function splitHunk(hunk: Hunk, max: number): Hunk[] {
  if (changedCount(hunk.lines) <= max) return [hunk];
  const positioned = positions(hunk);
  const parts: Hunk[] = [];
  let cur: number[] = []; // indexes into hunk.lines
  let curChanged = 0;
  let runStart = -1; // index in `cur` where the current run of changes begins
  for (let i = 0; i < hunk.lines.length; i++) {
    const line = hunk.lines[i]!;
    if (line.kind === 'context') {
      cur.push(i);
      runStart = -1;
      continue;
    }
    if (curChanged === max) {
      const inRun = runStart === -1 ? 0 : cur.length - runStart;
      if (runStart > 0 && curChanged - inRun > 0) {
        // Cut before the run, so the run stays whole; repeat a little context before it.
        let from = runStart;
        while (from > 0 && runStart - from < CONTEXT && hunk.lines[cur[from - 1]!]!.kind === 'context') from--;
        parts.push(makePart(hunk, positioned, cur.slice(0, runStart)));
        cur = cur.slice(from);
        curChanged = inRun;
        runStart = runStart - from;
      } else {
        parts.push(makePart(hunk, positioned, cur));
        cur = [];
        curChanged = 0;
        runStart = -1;
      }
    }
    if (runStart === -1) runStart = cur.length;
    cur.push(i);
    curChanged++;
  }
  if (cur.length) parts.push(makePart(hunk, positioned, cur));
  return parts;
}

/** Old and new positions of every line (where a line sits even when it is not on that side). */
function positions(hunk: Hunk): Array<{ old: number; new: number }> {
  let o = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
  let n = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
  return hunk.lines.map((line) => {
    const at = { old: o, new: n };
    if (line.kind !== 'add') o++;
    if (line.kind !== 'del') n++;
    return at;
  });
}

function makePart(hunk: Hunk, at: Array<{ old: number; new: number }>, indexes: number[]): Hunk {
  const lines = indexes.map((i) => hunk.lines[i]!);
  const oldLines = lines.filter((l) => l.kind !== 'add').length;
  const newLines = lines.filter((l) => l.kind !== 'del').length;
  const first = at[indexes[0]!]!;
  return {
    oldStart: oldLines === 0 ? first.old - 1 : first.old,
    oldLines,
    newStart: newLines === 0 ? first.new - 1 : first.new,
    newLines,
    section: hunk.section,
    lines,
  };
}
