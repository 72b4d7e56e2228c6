/**
 * `DiffFile`s made from other things than diff text (docs/architecture.md "The diff model"): a
 * pushed message, a push's path list or a commit's metadata read as a file the push adds, so the
 * credential rules read them as they read any added file. The text is then written by the one
 * writer (./format.ts), never by hand.
 */
import type { DiffFile } from './types.js';

/**
 * `text` as a file `path` adds (its trailing newlines dropped), numbered from line 1; null for
 * blank text.
 */
export function addedFile(path: string, text: string): DiffFile | null {
  const body = text.replace(/\n+$/, '');
  if (!body.trim()) return null;
  const lines = body.split('\n');
  return {
    oldPath: null,
    newPath: path,
    status: 'added',
    binary: false,
    oldMode: null,
    newMode: '100644',
    hunks: [
      {
        oldStart: 0,
        oldLines: 0,
        newStart: 1,
        newLines: lines.length,
        section: '',
        lines: lines.map((line, i) => ({ kind: 'add', text: line, oldLine: null, newLine: i + 1 })),
      },
    ],
  };
}
