/**
 * Both versions of each changed file, read and parsed once per review for every rule kind that
 * compares them (docs/review.md "What a change introduces"): the text (through the review's one
 * reader of file versions, ../structural/io.ts), its syntax tree where revtrail parses the
 * language (one parse per text in the process: ../structural/parsed.ts), and what each character
 * is (../structural/view.ts).
 */
import type { DiffFile } from '../../diff/types.js';
import type { StructuralLanguage } from '../../bundle/structural.js';
import type { FileVersion, StructuralIO } from '../structural/index.js';
import { languageOfPath } from '../structural/languages.js';
import type { Root } from '../structural/match.js';
import { parsedVersion, versionKey, type Parsed } from '../structural/parsed.js';
import { textView, type TextView } from '../structural/view.js';
import { isScript, scriptView } from './script-view.js';
import { violationKey } from './match.js';

export interface Version {
  text: string;
  /** The tree (with ERROR nodes where parts do not parse), or null where the language has no parser. */
  root: Root | null;
  /** Why it does not parse, or not all of it (a thrown parser error, or "not valid <language>"), else null. */
  unparsed: string | null;
  view(): TextView | null;
}

export type Side = 'old' | 'new';

function versionOf(path: string, language: StructuralLanguage | null, text: string): Version {
  // Parsed only when a syntax-tree rule, or the view of a language without a lexer here, asks;
  // through the process's one parse of this text (../structural/parsed.ts), which keeps the tree.
  let key: string | undefined;
  const parse = (): Parsed =>
    language ? parsedVersion(language, text, (key ??= versionKey(language, text))) : { root: null, unparsed: null };
  let unparsed: string | null | undefined;
  let view: TextView | null | undefined;
  return {
    text,
    get root() {
      return parse().root;
    },
    get unparsed() {
      if (unparsed === undefined) unparsed = parse().unparsed;
      return unparsed;
    },
    view: () => {
      if (view !== undefined) return view;
      // JavaScript and TypeScript by the review's own lexer (no parser to load on a commit).
      if (isScript(path)) return (view = scriptView(text));
      const root = language ? parse().root : null;
      return (view = root && language ? textView(language, text, root) : null);
    },
  };
}

export class VersionBook {
  private readonly read = new Map<string, Promise<Version | typeof TOO_LARGE_VERSION | null>>();
  /** Files the diff moved away from a path (renamed, deleted): what a file added at that path replaces. */
  private readonly movedFrom = new Map<string, DiffFile>();
  /** The lines the diff removed, by their text without white space: the paths they left. */
  private readonly removed = new Map<string, string[]>();

  /**
   * `files`: the diff's files. git may pair a file with a renamed copy elsewhere and call the
   * file now at its old path added (`app.py` moved to `sansio/app.py`, a new `app.py`): the old
   * version of that added file is the one that stood at its path.
   */
  constructor(
    private readonly io: StructuralIO,
    files: readonly DiffFile[] = [],
  ) {
    for (const f of files) {
      if (f.oldPath !== null && f.oldPath !== f.newPath && (f.status === 'renamed' || f.status === 'deleted')) {
        this.movedFrom.set(f.oldPath, f);
        // A file deleted where one of its name in another language is added (index.js become
        // index.ts, a migration git pairs as no rename: it rewrote most lines) is that file's old version.
        if (f.status === 'deleted') this.movedFrom.set(stem(f.oldPath), f);
      }
      const from = f.oldPath ?? f.newPath;
      if (from === null) continue;
      for (const hunk of f.hunks)
        for (const line of hunk.lines) {
          if (line.kind !== 'del') continue;
          const key = violationKey(line.text);
          const list = this.removed.get(key);
          if (list) list.push(from);
          else this.removed.set(key, [from]);
        }
    }
  }

  /**
   * Takes a line the diff removed from a file other than `path`, whose text (white space aside)
   * is `lineKey`, from one that `governs` (the rule ran there): the line was moved, not written.
   */
  takeMoved(lineKey: string, path: string, governs: (from: string) => boolean): boolean {
    const list = this.removed.get(lineKey);
    const at = list ? list.findIndex((from) => from !== path && governs(from)) : -1;
    if (at === -1) return false;
    list!.splice(at, 1);
    return true;
  }

  /** Starts reading the old and new versions of these files (one git process). */
  prefetch(files: readonly DiffFile[]): void {
    const moved = files.flatMap((f) => {
      const before =
        f.status === 'added' && f.newPath !== null
          ? (this.movedFrom.get(f.newPath) ?? this.movedFrom.get(stem(f.newPath)))
          : undefined;
      return before ? [before] : [];
    });
    this.io.prefetchVersions?.([...files, ...moved]);
  }

  /**
   * One side of a changed file: its version, TOO_LARGE_VERSION past the parse cap, or null where
   * there is none (an added file's old side) or it cannot be read.
   */
  version(file: DiffFile, side: Side): Promise<Version | typeof TOO_LARGE_VERSION | null> {
    if (side === 'old' && file.status === 'added') {
      const before =
        file.newPath === null
          ? undefined
          : (this.movedFrom.get(file.newPath) ?? this.movedFrom.get(stem(file.newPath)));
      return before ? this.version(before, 'old') : Promise.resolve(null);
    }
    const path = side === 'new' ? file.newPath : file.oldPath;
    if (path === null) return Promise.resolve(null);
    const key = `${side}\0${path}`;
    let found = this.read.get(key);
    if (!found) {
      const text: Promise<FileVersion> =
        side === 'new' ? this.io.fileText(path, file) : (this.io.oldText?.(file) ?? Promise.resolve(null));
      // The language is the new path's: a rename keeps comparing like with like.
      const language = languageOfPath(file.newPath ?? path);
      found = text.then((t) =>
        t === null ? null : typeof t === 'string' ? versionOf(file.newPath ?? path, language, t) : TOO_LARGE_VERSION,
      );
      this.read.set(key, found);
    }
    return found;
  }
}

/** A path without its extension, marked apart from every path (`src/index` of `src/index.ts`). */
function stem(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return `\0${dot > slash + 1 ? path.slice(0, dot) : path}`;
}

export const TOO_LARGE_VERSION = 'too-large' as const;
