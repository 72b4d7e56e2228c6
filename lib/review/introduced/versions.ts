/**
 * Both versions of each changed file, read and parsed once per review for every rule kind that
 * compares them (docs/review.md "What a change introduces"): the text (through the review's one
 * reader of file versions, ../structural/io.ts), its syntax tree where revtrail parses the
 * language (one parse per text in the process: ../structural/parsed.ts), and what each character
 * is (../structural/view.ts).
 */
import type { DiffFile } from '../../diff/types.js';
import type { AstRule, StructuralLanguage } from '../../bundle/structural.js';
import type { FileVersion, StructuralIO } from '../structural/index.js';
import { languageOfPath } from '../structural/languages.js';
import { findMatches, type AstMatch, type Root } from '../structural/match.js';
import { importsOf, type ImportRef } from '../structural/imports.js';
import { factName, versionFact } from '../structural/facts.js';
import { parsedVersion, versionKey, type Parsed } from '../structural/parsed.js';
import { CODE, errorLines, textView, type TextView } from '../structural/view.js';
import { isScript, scriptView } from './script-view.js';
import { violationKey } from './match.js';

export interface Version {
  text: string;
  /** The tree (with ERROR nodes where parts do not parse), or null where the language has no parser. */
  root: Root | null;
  /** Why it does not parse, or not all of it (a thrown parser error, or "not valid <language>"), else null. */
  unparsed: string | null;
  /** Whether there is a tree (the parser did not throw). */
  parsable: boolean;
  /** The 1-based line ranges the parser could not read (empty where it read all). */
  errors(): Array<{ start: number; end: number }>;
  /** An `ast` rule's matches (throws where the rule names a kind the grammar lacks). */
  matches(rule: AstRule): AstMatch[];
  /** The version's imports. */
  imports(): ImportRef[];
  view(): TextView | null;
}

export type Side = 'old' | 'new';

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isRanges = (v: unknown): v is Array<[number, number]> =>
  Array.isArray(v) && v.every((r) => Array.isArray(r) && r.length === 2 && isInt(r[0]) && isInt(r[1]));
const isParse = (v: unknown): v is [boolean, string | null] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'boolean' && (v[1] === null || typeof v[1] === 'string');
const isMatches = (v: unknown): v is Array<[number, number, string]> =>
  Array.isArray(v) &&
  v.every((m) => Array.isArray(m) && m.length === 3 && isInt(m[0]) && isInt(m[1]) && typeof m[2] === 'string');
const isImports = (v: unknown): v is ImportRef[] =>
  Array.isArray(v) &&
  v.every(
    (r) =>
      r &&
      typeof r === 'object' &&
      typeof r.specifier === 'string' &&
      isInt(r.line) &&
      (r.typeOnly === undefined || typeof r.typeOnly === 'boolean'),
  );
/** A view as kept: its length, the runs that are not code (start, end, class), the declarations' line runs, the errors. */
type StoredView = { n: number; c: number[]; d: Array<[number, number, string]>; e: Array<[number, number]> } | null;
const isView = (v: unknown): v is StoredView =>
  v === null ||
  (typeof v === 'object' &&
    isInt((v as { n?: unknown }).n) &&
    Array.isArray((v as { c?: unknown }).c) &&
    (v as { c: unknown[] }).c.length % 3 === 0 &&
    (v as { c: unknown[] }).c.every(isInt) &&
    Array.isArray((v as { d?: unknown }).d) &&
    (v as { d: unknown[] }).d.every(
      (r) => Array.isArray(r) && r.length === 3 && isInt(r[0]) && isInt(r[1]) && typeof r[2] === 'string',
    ) &&
    isRanges((v as { e?: unknown }).e));

function storeView(view: TextView | null): StoredView {
  if (!view) return null;
  const c: number[] = [];
  const { classes } = view;
  for (let i = 0; i < classes.length; ) {
    let j = i + 1;
    while (j < classes.length && classes[j] === classes[i]) j++;
    if (classes[i] !== CODE) c.push(i, j, classes[i]!);
    i = j;
  }
  const d: Array<[number, number, string]> = [];
  const decls = view.declarations;
  for (let i = 0; i < decls.length; ) {
    let j = i + 1;
    while (j < decls.length && decls[j] === decls[i]) j++;
    if (decls[i] !== null) d.push([i, j, decls[i]!]);
    i = j;
  }
  return { n: classes.length, c, d, e: view.errors.map((r) => [r.start, r.end]) };
}

function viewOf(stored: StoredView, lines: number): TextView | null {
  if (!stored) return null;
  const classes = new Uint8Array(stored.n);
  for (let k = 0; k < stored.c.length; k += 3) classes.fill(stored.c[k + 2]!, stored.c[k]!, stored.c[k + 1]!);
  const declarations = new Array<string | null>(lines).fill(null);
  for (const [from, to, name] of stored.d) declarations.fill(name, from, to);
  return { classes, declarations, errors: stored.e.map(([start, end]) => ({ start, end })) };
}

function versionOf(path: string, language: StructuralLanguage | null, text: string): Version {
  // Parsed only when a syntax-tree rule, or the view of a language without a lexer here, asks;
  // through the process's one parse of this text (../structural/parsed.ts), which keeps the
  // tree, and what the rules read of it is kept between hooks (../structural/facts.ts).
  let key: string | undefined;
  const keyOf = () => (key ??= versionKey(language!, text));
  const parse = (): Parsed => (language ? parsedVersion(language, text, keyOf()) : { root: null, unparsed: null });
  const fact = <T>(name: string, valid: (v: unknown) => v is T, compute: () => T): T =>
    language ? versionFact(keyOf(), name, valid, compute) : compute();
  let parsed: [boolean, string | null] | undefined;
  const parseFact = () =>
    (parsed ??= fact('parse', isParse, () => {
      const p = parse();
      return [p.root !== null, p.unparsed];
    }));
  let errors: Array<{ start: number; end: number }> | undefined;
  let imports: ImportRef[] | undefined;
  const matches = new Map<AstRule, AstMatch[]>();
  let view: TextView | null | undefined;
  return {
    text,
    get root() {
      return parse().root;
    },
    get unparsed() {
      return parseFact()[1];
    },
    get parsable() {
      return parseFact()[0];
    },
    errors: () =>
      (errors ??=
        parseFact()[1] === null
          ? []
          : fact('errors', isRanges, () => {
              const root = parse().root;
              return root ? errorLines(root).map((r): [number, number] => [r.start, r.end]) : [];
            }).map(([start, end]) => ({ start, end }))),
    matches: (rule) => {
      let found = matches.get(rule);
      if (!found) {
        const of = `${rule.language}\0${typeof rule.ast === 'string' ? rule.ast : JSON.stringify(rule.ast)}`;
        found = fact(factName('m', of), isMatches, () =>
          findMatches(parse().root!, rule).map((m): [number, number, string] => [m.start, m.end, m.text]),
        ).map(([start, end, text]) => ({ start, end, text }));
        matches.set(rule, found);
      }
      return found;
    },
    imports: () => (imports ??= fact('imports', isImports, () => importsOf(parse().root!, language!))),
    view: () => {
      if (view !== undefined) return view;
      // JavaScript and TypeScript by the review's own lexer (no parser to load on a commit).
      if (isScript(path)) return (view = scriptView(text));
      if (!language) return (view = null);
      return (view = viewOf(
        // A kept view of another length is not this text's (and is not allocated).
        fact(
          'view',
          (v): v is StoredView => isView(v) && (v === null || v.n === text.length),
          () => {
            const root = parse().root;
            return storeView(root ? textView(language, text, root) : null);
          },
        ),
        lineCount(text),
      ));
    },
  };
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
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
