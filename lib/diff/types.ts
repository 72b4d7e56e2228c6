/** A parsed unified diff (docs/architecture.md "Stages and the one-way order"). Lines are numbered in the new file. */
export type FileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

export interface DiffLine {
  kind: 'add' | 'del' | 'context';
  /** Text without the leading marker and without a trailing CR of a CRLF file. */
  text: string;
  /** Line number in the old file (del and context). */
  oldLine: number | null;
  /** Line number in the new file (add and context). */
  newLine: number | null;
  /** True when followed by `\ No newline at end of file`. */
  noNewlineAtEnd?: boolean;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The text after the second `@@` (a function name, often). */
  section: string;
  lines: DiffLine[];
}

/** How a file git shows as binary was decoded for the credential rules (./blob-text.ts). */
export type TextView = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'latin1';

export interface DiffFile {
  /** Repo-relative POSIX path before the change; null for an added file. */
  oldPath: string | null;
  /** Repo-relative POSIX path after the change; null for a deleted file. */
  newPath: string | null;
  status: FileStatus;
  binary: boolean;
  /** The objects of both sides from the `index` line (abbreviated unless --full-index); absent without one. */
  blobs?: { old: string | null; new: string | null };
  /**
   * Set on a binary file whose content was read and decoded: its hunks are the lines it adds,
   * for the credential rules only (docs/review.md "Git's attributes").
   */
  textView?: TextView;
  oldMode: string | null;
  newMode: string | null;
  hunks: Hunk[];
}

/** The path a finding and selection use: the new path, else the old one (deletions). */
export function filePath(file: DiffFile): string {
  return (file.newPath ?? file.oldPath)!;
}

/**
 * One file's changes, split into pieces of at most `chunkLines` changed lines (docs/bundle.md).
 * The unit of selection and of a reviewer program call.
 */
export interface Chunk {
  path: string;
  oldPath: string | null;
  /** 1-based index of this piece within its file. */
  piece: number;
  /** Language id from the extension (go, java, kotlin, ..., or null). */
  language: string | null;
  /** Declared package/namespace read from the file's hunks, or null. */
  namespace: string | null;
  file: DiffFile;
  /** The hunks (or hunk parts) of this piece. */
  hunks: Hunk[];
  /** Added lines of this piece with their new line numbers: what rules run on. */
  added: Array<{ line: number; text: string }>;
  /** New-file line numbers a finding may point at (added lines of this piece). */
  changedLines: ReadonlySet<number>;
  /** The unified diff text of this piece (headers plus its hunks), for reviewer programs. */
  diff: string;
}

/** Where the diff comes from. Default: all uncommitted changes against HEAD. */
export type DiffSource =
  | { kind: 'worktree' }
  /** `text`: the staged diff already being read (the commit-msg hook starts it beside its other git calls). */
  | { kind: 'staged'; text?: Promise<{ text: string; capped: string[] }> }
  /** `text`: the range's diff already read (pre-push's clean check read it first). */
  | { kind: 'range'; range: string; text?: Promise<{ text: string; capped: string[] }> }
  /** `capped`: files the text was cut short in, to the per-file cap (docs/review.md "Big files"). */
  | { kind: 'text'; text: string; name: string; capped?: string[] };
