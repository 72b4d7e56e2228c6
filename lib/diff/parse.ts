/**
 * Unified diff reader (docs/architecture.md "Stages and the one-way order"): git's extended headers (renames, copies, modes, new
 * and deleted files, binary files), C-quoted paths, CRLF, `\ No newline at end of file`, and
 * plain `diff -u` output. Hunk bodies are read by the counts in their `@@` header, so a deleted
 * line that reads `-- x` is never taken for a `---` file header.
 */
import { parseHunkHeader } from './hunk-header.js';
import { InputError } from '../core/errors.js';
import { diffMessages as m } from '../messages/diff.js';
import type { DiffFile, DiffLine, FileStatus, Hunk } from './types.js';
import { readQuoted } from './quote.js';

// Prefix pairs git writes: a/ b/ by default, c/ i/ w/ o/ with diff.mnemonicPrefix.
const OLD_PREFIXES = ['a/', 'c/', 'i/', 'o/', 'w/'];
const NEW_PREFIXES = ['b/', 'w/', 'i/', 'o/', 'c/'];

interface Builder {
  file: DiffFile;
  /** Started by `diff --git` (its `---`/`+++` lines belong to it). */
  git: boolean;
  /** Its `---`/`+++` lines have been read. */
  sawNames: boolean;
  /** Whether a/ b/ style prefixes are stripped in this file's header names. */
  prefixed: boolean;
  sawRename: boolean;
  sawCopy: boolean;
  added: boolean;
  deleted: boolean;
}

/** Parses unified diff text into files; '' gives []. Throws InputError naming `name` otherwise. */
export function parseDiff(text: string, name = 'diff'): DiffFile[] {
  if (text.trim() === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files: DiffFile[] = [];
  let current: Builder | null = null;
  let recognized = false;
  const finish = () => {
    if (current) files.push(settle(current));
    current = null;
  };

  let i = 0;
  while (i < lines.length) {
    const line = stripCr(lines[i]!);
    if (line.startsWith('diff --git ')) {
      finish();
      recognized = true;
      current = startGitFile(line.slice('diff --git '.length));
      i++;
      continue;
    }
    if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) {
      // A combined (merge) diff has no single old side; skip it up to the next file.
      finish();
      recognized = true;
      i++;
      while (i < lines.length && !/^diff (--git|--cc|--combined) /.test(stripCr(lines[i]!))) i++;
      continue;
    }
    if (line.startsWith('* Unmerged path ')) {
      finish();
      recognized = true;
      i++;
      continue;
    }
    if (line.startsWith('--- ') && i + 1 < lines.length && stripCr(lines[i + 1]!).startsWith('+++ ')) {
      const next = stripCr(lines[i + 1]!);
      if (!current?.git || current.sawNames || current.file.hunks.length > 0) {
        // A plain `diff -u` file: no git header before it.
        finish();
        current = startPlainFile(line.slice(4), next.slice(4));
      } else {
        applyNames(current, line.slice(4), next.slice(4));
      }
      recognized = true;
      i += 2;
      continue;
    }
    if (line.startsWith('@@ ') && current) {
      i = readHunk(lines, i, current.file, name);
      continue;
    }
    if (line.startsWith('@@')) {
      if (current && !parseHunkHeader(line))
        throw new InputError(m.badHunkHeader(name, i + 1, line), { remedy: m.damagedRemedy });
      i++;
      continue;
    }
    if (current?.git && !current.sawNames && current.file.hunks.length === 0) readExtendedHeader(current, line);
    if (line === 'GIT binary patch' && current) {
      // The base85 payload runs until the next file; nothing in it is a line of code.
      i++;
      while (i < lines.length && !stripCr(lines[i]!).startsWith('diff ')) i++;
      continue;
    }
    // Anything else outside a hunk (a commit message, `index` lines of format-patch, blank
    // lines) is not part of any file's changes.
    i++;
  }
  finish();
  if (!recognized) throw new InputError(m.notADiff(name), { remedy: m.notADiffRemedy });
  return files;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function emptyFile(): DiffFile {
  return { oldPath: null, newPath: null, status: 'modified', binary: false, oldMode: null, newMode: null, hunks: [] };
}

function newBuilder(git: boolean): Builder {
  return {
    file: emptyFile(),
    git,
    sawNames: false,
    prefixed: false,
    sawRename: false,
    sawCopy: false,
    added: false,
    deleted: false,
  };
}

function startGitFile(rest: string): Builder {
  const names = splitGitNames(rest);
  const b = newBuilder(true);
  if (names) {
    const [oldName, newName] = names;
    b.prefixed = hasPrefixPair(oldName, newName);
    b.file.oldPath = b.prefixed ? oldName.slice(2) : oldName;
    b.file.newPath = b.prefixed ? newName.slice(2) : newName;
  }
  return b;
}

function startPlainFile(oldField: string, newField: string): Builder {
  const b = newBuilder(false);
  const oldName = headerName(oldField);
  const newName = headerName(newField);
  b.prefixed = oldName !== null && newName !== null && hasPrefixPair(oldName, newName);
  applyNames(b, oldField, newField);
  return b;
}

function hasPrefixPair(oldName: string, newName: string): boolean {
  const o = OLD_PREFIXES.indexOf(oldName.slice(0, 2));
  const n = NEW_PREFIXES.indexOf(newName.slice(0, 2));
  return o !== -1 && n !== -1 && oldName.length > 2 && newName.length > 2;
}

/** The two names of a `diff --git` line, unquoted; null when they cannot be told apart. */
function splitGitNames(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const first = readQuoted(rest, 0);
    if (!first || rest[first.end] !== ' ') return null;
    const second = rest.slice(first.end + 1);
    return [first.value, second.startsWith('"') ? (readQuoted(second, 0)?.value ?? second) : second];
  }
  const quotedSecond = rest.indexOf(' "');
  if (quotedSecond !== -1 && rest.endsWith('"')) {
    const second = readQuoted(rest, quotedSecond + 1);
    if (second && second.end === rest.length) return [rest.slice(0, quotedSecond), second.value];
  }
  // Unquoted names may hold spaces. Without a rename both names are the same path, so the
  // line is `<p1>X <p2>X`: split it in the middle. Renames get their names from `rename from/to`.
  if ((rest.length - 1) % 2 === 0) {
    const half = (rest.length - 1) / 2;
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (rest[half] === ' ' && (a === b || (hasPrefixPair(a, b) && a.slice(2) === b.slice(2)))) return [a, b];
  }
  const at = rest.indexOf(' b/');
  if (at !== -1) return [rest.slice(0, at), rest.slice(at + 1)];
  const space = rest.indexOf(' ');
  return space === -1 ? null : [rest.slice(0, space), rest.slice(space + 1)];
}

/** A `---`/`+++` name: quoted, or up to a tab (git adds one after names with spaces; diff -u a date). */
function headerName(field: string): string | null {
  if (field.startsWith('"')) {
    const read = readQuoted(field, 0);
    if (read) return read.value;
  }
  const tab = field.indexOf('\t');
  const name = tab === -1 ? field : field.slice(0, tab);
  return name === '/dev/null' ? null : name;
}

function applyNames(b: Builder, oldField: string, newField: string): void {
  b.sawNames = true;
  const strip = (name: string | null) => (name !== null && b.prefixed ? name.slice(2) : name);
  const oldName = strip(headerName(oldField));
  const newName = strip(headerName(newField));
  if (oldName === null) b.added = true;
  else if (!b.sawRename && !b.sawCopy) b.file.oldPath = oldName;
  if (newName === null) b.deleted = true;
  else if (!b.sawRename && !b.sawCopy) b.file.newPath = newName;
}

function readExtendedHeader(b: Builder, line: string): void {
  const f = b.file;
  const value = (prefix: string) => {
    const raw = line.slice(prefix.length);
    return raw.startsWith('"') ? (readQuoted(raw, 0)?.value ?? raw) : raw;
  };
  if (line.startsWith('old mode ')) f.oldMode = line.slice(9).trim();
  else if (line.startsWith('new mode ')) f.newMode = line.slice(9).trim();
  else if (line.startsWith('new file mode ')) {
    b.added = true;
    f.newMode = line.slice(14).trim();
  } else if (line.startsWith('deleted file mode ')) {
    b.deleted = true;
    f.oldMode = line.slice(18).trim();
  } else if (line.startsWith('rename from ')) {
    b.sawRename = true;
    f.oldPath = value('rename from ');
  } else if (line.startsWith('rename to ')) {
    b.sawRename = true;
    f.newPath = value('rename to ');
  } else if (line.startsWith('copy from ')) {
    b.sawCopy = true;
    f.oldPath = value('copy from ');
  } else if (line.startsWith('copy to ')) {
    b.sawCopy = true;
    f.newPath = value('copy to ');
  } else if (line.startsWith('index ')) {
    const index = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d{6}))?$/.exec(line);
    if (index) {
      f.blobs = { old: index[1]!, new: index[2]! };
      if (index[3]) {
        f.oldMode ??= index[3];
        f.newMode ??= index[3];
      }
    }
  } else if (line === 'GIT binary patch' || (line.startsWith('Binary files ') && line.endsWith(' differ'))) {
    f.binary = true;
  }
}

function settle(b: Builder): DiffFile {
  const f = b.file;
  let status: FileStatus = 'modified';
  if (b.added) {
    status = 'added';
    f.oldPath = null;
    f.oldMode = null;
  } else if (b.deleted) {
    status = 'deleted';
    f.newPath = null;
    f.newMode = null;
  } else if (b.sawRename) status = 'renamed';
  else if (b.sawCopy) status = 'copied';
  f.status = status;
  return f;
}

/** Reads one hunk starting at its `@@` line; returns the index of the line after it. */
function readHunk(lines: string[], start: number, file: DiffFile, name: string): number {
  const header = stripCr(lines[start]!);
  const read = parseHunkHeader(header);
  if (!read) throw new InputError(m.badHunkHeader(name, start + 1, header), { remedy: m.damagedRemedy });
  const { tail, ...counts } = read;
  // The section is what follows git's one space after the closing `@@`.
  const hunk: Hunk = { ...counts, section: tail.startsWith(' ') ? tail.slice(1) : tail, lines: [] };
  let oldLeft = hunk.oldLines;
  let newLeft = hunk.newLines;
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  let i = start + 1;
  const push = (line: DiffLine) => hunk.lines.push(line);
  while (oldLeft > 0 || newLeft > 0) {
    if (i >= lines.length) throw new InputError(m.hunkEndsEarly(name, i), { remedy: m.damagedRemedy });
    const raw = lines[i]!;
    const marker = raw[0];
    const text = stripCr(raw.slice(1));
    if (marker === '\\') {
      markNoNewline(hunk);
    } else if (marker === ' ' || raw === '' || raw === '\r') {
      // An empty line is a context line whose space was stripped (diff.suppressBlankEmpty, editors).
      if (oldLeft === 0 || newLeft === 0)
        throw new InputError(m.badHunkLine(name, i + 1, raw), { remedy: m.damagedRemedy });
      push({ kind: 'context', text: marker === ' ' ? text : '', oldLine: oldLine++, newLine: newLine++ });
      oldLeft--;
      newLeft--;
    } else if (marker === '-' && oldLeft > 0) {
      push({ kind: 'del', text, oldLine: oldLine++, newLine: null });
      oldLeft--;
    } else if (marker === '+' && newLeft > 0) {
      push({ kind: 'add', text, oldLine: null, newLine: newLine++ });
      newLeft--;
    } else {
      throw new InputError(m.badHunkLine(name, i + 1, raw), { remedy: m.damagedRemedy });
    }
    i++;
  }
  // The marker for the hunk's last line comes after the counts run out.
  while (i < lines.length && lines[i]!.startsWith('\\')) {
    markNoNewline(hunk);
    i++;
  }
  file.hunks.push(hunk);
  return i;
}

function markNoNewline(hunk: Hunk): void {
  const last = hunk.lines[hunk.lines.length - 1];
  if (last) last.noNewlineAtEnd = true;
}
