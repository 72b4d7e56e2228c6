/**
 * The one reader of unified diff text (docs/architecture.md "The diff model"): lines in, file and
 * hunk events out. It knows the grammar — git's `diff --git` files and plain `diff -u` ones (a
 * `---`/`+++` pair), the extended header lines between, combined diffs and unmerged paths
 * (skipped), `GIT binary patch` payloads (skipped), hunks read by the counts in their `@@`
 * header (so a deleted line that reads `-- x` is never taken for a `---` file header) and
 * `\ No newline at end of file` — and hands each piece to a sink. What the pieces become is the
 * sink's: `DiffFile`s (./parse.ts), the gate's changed line ranges (gate/facts.ts).
 *
 * Lines are pushed one at a time, so a reader of git's output as it streams holds one line.
 */
import { InputError } from '../core/errors.js';
import { diffMessages as m } from '../messages/diff.js';
import { parseHunkHeader, type HunkHeader } from './hunk-header.js';
import type { DiffLine } from './types.js';

/** What the reader hands on. Every method but the line events is optional. */
export interface DiffEvents {
  /** A `diff --git` line starts a file (`rest`: what follows `diff --git `). */
  gitFile?(rest: string): void;
  /** A `---`/`+++` pair that starts a file of its own (no git header before it: `diff -u`). */
  plainFile?(oldField: string, newField: string): void;
  /** The `---`/`+++` pair of the git file being read (fields after `--- ` and `+++ `). */
  names?(oldField: string, newField: string): void;
  /** A combined diff's file or an unmerged path: the file being read ends, none starts. */
  endFile?(): void;
  /** A line of a git file's extended header (`index`, `rename from`, `Binary files … differ`, …). */
  header?(line: string): void;
  /** A line outside any file's header and hunks (a commit message's, `diff-tree --stdin`'s commit). */
  other?(line: string): void;
  /** A hunk starts (`line`: its 1-based line number in the input). */
  hunk(header: HunkHeader, line: number): void;
  /** A line of the current hunk, numbered on its sides. */
  line(kind: DiffLine['kind'], text: string, oldLine: number | null, newLine: number | null): void;
  /** `\ No newline at end of file` after the current hunk's last line so far. */
  noNewline(): void;
}

const SKIP_COMBINED = /^diff (--git|--cc|--combined) /;

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * Reads diff text pushed line by line (`line` without its `\n`; a CR before it is the reader's
 * to strip). Throws InputError naming `name` and the line for a hunk that is not whole.
 */
export class DiffReader {
  /** Lines read so far. */
  private at = 0;
  /** Some file header was recognized (text without one is not a diff). */
  recognized = false;
  /** The file being read: none, a git one, or a plain one. */
  private file: 'none' | 'git' | 'plain' = 'none';
  private sawNames = false;
  private hunks = 0;
  /** A `--- ` line held until the next line shows whether it starts a name pair. */
  private held: string | null = null;
  /** Skipping a combined diff's file or a binary patch's payload. */
  private skip: 'combined' | 'binary' | null = null;
  /** Inside a hunk: lines left on each side and the numbers of the next line. */
  private oldLeft = 0;
  private newLeft = 0;
  private oldLine = 0;
  private newLine = 0;
  /** A hunk's counts ran out: `\` lines still belong to it. */
  private afterHunk = false;

  constructor(
    private readonly sink: DiffEvents,
    private readonly name = 'diff',
  ) {}

  line(raw: string): void {
    this.at++;
    if (this.oldLeft > 0 || this.newLeft > 0) {
      this.hunkLine(raw);
      return;
    }
    if (this.afterHunk) {
      if (raw.startsWith('\\')) {
        this.sink.noNewline();
        return;
      }
      this.afterHunk = false;
    }
    const line = stripCr(raw);
    if (this.held !== null) {
      const held = this.held;
      this.held = null;
      if (line.startsWith('+++ ')) {
        this.namePair(held.slice(4), line.slice(4));
        return;
      }
      this.top(held, this.at - 1);
    }
    if (this.skip === 'combined') {
      if (!SKIP_COMBINED.test(line)) return;
      this.skip = null;
    } else if (this.skip === 'binary') {
      if (!line.startsWith('diff ')) return;
      this.skip = null;
    }
    if (line.startsWith('--- ')) {
      this.held = line;
      return;
    }
    this.top(line, this.at);
  }

  /** The input ended: a hunk still short of its counts throws. */
  end(): void {
    if (this.oldLeft > 0 || this.newLeft > 0)
      throw new InputError(m.hunkEndsEarly(this.name, this.at), { remedy: m.damagedRemedy });
    if (this.held !== null) {
      const held = this.held;
      this.held = null;
      this.top(held, this.at);
    }
  }

  /** A line outside any hunk (CR stripped); `at`: its 1-based number. */
  private top(line: string, at: number): void {
    const sink = this.sink;
    if (line.startsWith('diff --git ')) {
      this.open('git');
      sink.gitFile?.(line.slice('diff --git '.length));
      return;
    }
    if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) {
      // A combined (merge) diff has no single old side; skip it up to the next file.
      this.close();
      this.skip = 'combined';
      return;
    }
    if (line.startsWith('* Unmerged path ')) {
      this.close();
      return;
    }
    if (line.startsWith('@@ ') && this.file !== 'none') {
      const header = parseHunkHeader(line);
      if (!header) throw new InputError(m.badHunkHeader(this.name, at, line), { remedy: m.damagedRemedy });
      this.startHunk(header, at);
      return;
    }
    if (line.startsWith('@@')) {
      if (this.file !== 'none' && !parseHunkHeader(line))
        throw new InputError(m.badHunkHeader(this.name, at, line), { remedy: m.damagedRemedy });
      sink.other?.(line);
      return;
    }
    if (this.file === 'git' && !this.sawNames && this.hunks === 0) sink.header?.(line);
    else sink.other?.(line);
    // The base85 payload runs until the next file; nothing in it is a line of code.
    if (line === 'GIT binary patch' && this.file !== 'none') this.skip = 'binary';
  }

  private namePair(oldField: string, newField: string): void {
    if (this.file !== 'git' || this.sawNames || this.hunks > 0) {
      // A plain `diff -u` file: no git header before it.
      this.open('plain');
      this.sawNames = true;
      this.sink.plainFile?.(oldField, newField);
    } else {
      this.sawNames = true;
      this.sink.names?.(oldField, newField);
    }
  }

  private open(kind: 'git' | 'plain'): void {
    this.recognized = true;
    this.file = kind;
    this.sawNames = false;
    this.hunks = 0;
  }

  private close(): void {
    this.recognized = true;
    if (this.file !== 'none') this.sink.endFile?.();
    this.file = 'none';
  }

  private startHunk(header: HunkHeader, at: number): void {
    this.hunks++;
    this.oldLeft = header.oldLines;
    this.newLeft = header.newLines;
    this.oldLine = header.oldStart;
    this.newLine = header.newStart;
    this.afterHunk = this.oldLeft === 0 && this.newLeft === 0;
    this.sink.hunk(header, at);
  }

  private hunkLine(raw: string): void {
    const marker = raw[0];
    const text = stripCr(raw.slice(1));
    const sink = this.sink;
    if (marker === '\\') {
      sink.noNewline();
    } else if (marker === ' ' || raw === '' || raw === '\r') {
      // An empty line is a context line whose space was stripped (diff.suppressBlankEmpty, editors).
      if (this.oldLeft === 0 || this.newLeft === 0)
        throw new InputError(m.badHunkLine(this.name, this.at, raw), { remedy: m.damagedRemedy });
      sink.line('context', marker === ' ' ? text : '', this.oldLine++, this.newLine++);
      this.oldLeft--;
      this.newLeft--;
    } else if (marker === '-' && this.oldLeft > 0) {
      sink.line('del', text, this.oldLine++, null);
      this.oldLeft--;
    } else if (marker === '+' && this.newLeft > 0) {
      sink.line('add', text, null, this.newLine++);
      this.newLeft--;
    } else {
      throw new InputError(m.badHunkLine(this.name, this.at, raw), { remedy: m.damagedRemedy });
    }
    if (this.oldLeft === 0 && this.newLeft === 0) this.afterHunk = true;
  }
}

/** Pushes every line of `text` through a reader into `sink`; returns whether any file header was seen. */
export function readEvents(text: string, sink: DiffEvents, name = 'diff'): boolean {
  const reader = new DiffReader(sink, name);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) reader.line(line);
  reader.end();
  return reader.recognized;
}
