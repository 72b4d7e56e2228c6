/**
 * Diff text to `DiffFile`s (docs/architecture.md "The diff model"): the files and hunks the one
 * reader (./read.ts) hands on, built up with their names, modes and statuses: git's extended
 * headers (renames, copies, modes, new and deleted files, binary files), C-quoted paths, CRLF,
 * `\ No newline at end of file`, and plain `diff -u` output.
 */
import { InputError } from '../core/errors.js';
import { diffMessages as m } from '../messages/diff.js';
import type { DiffFile, FileStatus, Hunk } from './types.js';
import { readEvents } from './read.js';
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
  const files: DiffFile[] = [];
  let current: Builder | null = null;
  let hunk: Hunk | null = null;
  const finish = () => {
    if (current) files.push(settle(current));
    current = null;
    hunk = null;
  };
  const recognized = readEvents(
    text,
    {
      gitFile(rest) {
        finish();
        current = startGitFile(rest);
      },
      plainFile(oldField, newField) {
        finish();
        current = startPlainFile(oldField, newField);
      },
      names(oldField, newField) {
        applyNames(current!, oldField, newField);
      },
      endFile: finish,
      header(line) {
        readExtendedHeader(current!, line);
      },
      hunk({ tail, ...counts }) {
        // The section is what follows git's one space after the closing `@@`.
        hunk = { ...counts, section: tail.startsWith(' ') ? tail.slice(1) : tail, lines: [] };
        current!.file.hunks.push(hunk);
      },
      line(kind, text, oldLine, newLine) {
        hunk!.lines.push({ kind, text, oldLine, newLine });
      },
      noNewline() {
        const last = hunk?.lines[hunk.lines.length - 1];
        if (last) last.noNewlineAtEnd = true;
      },
    },
    name,
  );
  finish();
  if (!recognized) throw new InputError(m.notADiff(name), { remedy: m.notADiffRemedy });
  return files;
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
