/**
 * A unified diff's hunk header (`@@ -OLD[,N] +NEW[,M] @@ SECTION`), read in one place for every
 * reader of diff text: the one reader (./read.ts, behind parseDiff and the gate's changed lines),
 * the per-file cap and the screen past it (./cap.ts, ./past-cap.ts, which read bytes before any
 * decoding) and the model prompt's numbering (review/model/prompt.ts). A count left out is 1, as
 * in GNU diff and git. The one writer of it is ./format.ts `formatHunkHeader`.
 */
export interface HunkHeader {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** What follows the closing `@@` (git's function context, after one space), as written. */
  tail: string;
}

// No `$`: the section may hold any character (a CR or U+2028 of a CRLF or Unicode file).
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The header on `line` (no line end), or null when the line is not one. */
export function parseHunkHeader(line: string): HunkHeader | null {
  const match = HUNK_HEADER.exec(line);
  if (!match) return null;
  return {
    oldStart: Number(match[1]),
    oldLines: match[2] === undefined ? 1 : Number(match[2]),
    newStart: Number(match[3]),
    newLines: match[4] === undefined ? 1 : Number(match[4]),
    tail: line.slice(match[0].length),
  };
}
