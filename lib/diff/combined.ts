/**
 * A merge's dense combined diff (`git log --cc`) as the unified diff of what the merge itself
 * adds (docs/hooks.md "Merges in the credential pass"): a line of the merge's tree that is in no
 * parent is added (`+`); a line some parent has is context (it came from that side, whose own
 * commits are pushed and checked, or are the other side's already); a line only parents have is
 * gone. Hunks that add nothing are left out. Numbers on the new side are the merge's own.
 *
 * Streamed: bytes in, bytes out, one line held; a hunk is held until it ends (git's per-file cap,
 * ./source.ts DIFF_CONFIG, bounds it). Bytes go through latin1, which keeps every byte as it is.
 *
 * A reader of its own: the combined format (`@@@`, a column of marks per parent) is not the
 * unified grammar ./read.ts reads. What it writes goes through the one writer (./format.ts).
 */
import { formatHunkHeader, formatHunkLine } from './format.js';

export class CombinedToUnified {
  private partial = '';
  /** The current file's path as git wrote it (quoted or not), and whether `---`/`+++` were seen. */
  private file: { path: string; created: boolean; named: boolean } | null = null;
  private hunk: { width: number; start: number; tail: string; lines: string[]; added: number; kept: number } | null =
    null;

  write(bytes: Buffer): Buffer {
    const text = this.partial + bytes.toString('latin1');
    const last = text.lastIndexOf('\n');
    if (last === -1) {
      this.partial = text;
      return EMPTY;
    }
    this.partial = text.slice(last + 1);
    const out: string[] = [];
    for (const line of text.slice(0, last).split('\n')) this.line(line, out);
    return Buffer.from(out.join(''), 'latin1');
  }

  end(): Buffer {
    const out: string[] = [];
    if (this.partial) this.line(this.partial, out);
    this.partial = '';
    this.flush(out);
    this.file = null;
    return Buffer.from(out.join(''), 'latin1');
  }

  private line(line: string, out: string[]): void {
    const hunk = this.hunk;
    if (hunk) {
      const first = line.charCodeAt(0);
      // ' ', '+', '-', '\': a line of the hunk (an empty one is an empty context line).
      if (line === '' || first === 0x20 || first === 0x2b || first === 0x2d || first === 0x5c) {
        if (first === 0x5c) return; // "\ No newline at end of file"
        const marks = line.slice(0, hunk.width);
        if (marks.includes('-')) return;
        const content = line.slice(hunk.width);
        if (marks.length === hunk.width && !marks.includes(' ')) {
          hunk.lines.push(formatHunkLine('add', content));
          hunk.added += 1;
        } else {
          hunk.lines.push(formatHunkLine('context', content));
          hunk.kept += 1;
        }
        return;
      }
      this.flush(out);
    }
    if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) {
      const path = line.slice(line.indexOf(' ', 5) + 1);
      this.file = { path, created: false, named: false };
      out.push(`diff --git ${prefixed('a/', path)} ${prefixed('b/', path)}\n`);
    } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      if (this.file) this.file.named = true;
      out.push(`${line}\n`);
    } else if (line.startsWith('new file mode ')) {
      if (this.file) this.file.created = true;
      out.push(`${line}\n`);
    } else if (line.startsWith('Binary files ')) {
      out.push(`${line}\n`);
    } else if (line.startsWith('@@@')) {
      this.startHunk(line, out);
    }
    // Anything else (`index a,b..c`, `mode a,b..c`, `deleted file mode a,b`) has no two-way form
    // and nothing the review reads.
  }

  private startHunk(line: string, out: string[]): void {
    let width = 0;
    while (line.charCodeAt(width) === 0x40) width += 1;
    width -= 1;
    const header = /^@+ (?:-\d+(?:,\d+)? )+\+(\d+)(?:,\d+)? @+(.*)$/.exec(line);
    if (!header || width < 2) return;
    const file = this.file;
    if (file && !file.named) {
      out.push(`--- ${file.created ? '/dev/null' : prefixed('a/', file.path)}\n+++ ${prefixed('b/', file.path)}\n`);
      file.named = true;
    }
    this.hunk = { width, start: Number(header[1]), tail: header[2] ?? '', lines: [], added: 0, kept: 0 };
  }

  private flush(out: string[]): void {
    const hunk = this.hunk;
    this.hunk = null;
    if (!hunk || hunk.added === 0) return;
    const counts = {
      oldStart: hunk.start,
      oldLines: hunk.kept,
      newStart: hunk.start,
      newLines: hunk.kept + hunk.added,
    };
    out.push(formatHunkHeader(counts, hunk.tail), ...hunk.lines);
  }
}

const EMPTY = Buffer.alloc(0);

/** `path` as git writes it with a prefix: inside the quotes when git quoted it. */
function prefixed(prefix: string, path: string): string {
  return path.startsWith('"') ? `"${prefix}${path.slice(1)}` : `${prefix}${path}`;
}
