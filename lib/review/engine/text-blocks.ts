/**
 * Lines of a changed file that are quoted text rather than the file's own content: inside a
 * fenced or listing block of documentation, a shell or Ruby heredoc, a triple-quoted string or
 * a Go raw string. A conflict marker there is an example (tests and documentation of merge tools
 * show them), not a conflict left behind.
 *
 * Each hunk is read from its first line, assumed outside any block (exact for a new file or a
 * hunk at line 1; a hunk that starts inside a block is read as if it did not).
 */
import type { DiffFile, Hunk } from '../../diff/types.js';

type Scanner = (text: string) => boolean;

function extension(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? base.toLowerCase() : base.slice(dot + 1).toLowerCase();
}

const DOCS = new Set(['md', 'markdown', 'mdx', 'adoc', 'asciidoc', 'asc', 'txt', 'rst']);
const HEREDOCS = new Set([
  'sh',
  'bash',
  'zsh',
  'ksh',
  'bats',
  't',
  'rb',
  'pl',
  'pm',
  'php',
  'dockerfile',
  'mk',
  'makefile',
]);
const TRIPLE_QUOTES = new Set(['py', 'kt', 'kts', 'java', 'scala', 'groovy', 'swift', 'dart', 'jl']);
const RAW_BACKTICKS = new Set(['go']);

const cache = new WeakMap<DiffFile, Set<number>>();

/** New-file line numbers of `file` that sit inside quoted text (the opening and closing lines excluded). */
export function quotedTextLines(path: string, file: DiffFile): ReadonlySet<number> {
  let lines = cache.get(file);
  if (lines) return lines;
  lines = new Set();
  const ext = extension(path);
  const make: (() => Scanner) | null = DOCS.has(ext)
    ? () => fences(ext !== 'md' && ext !== 'markdown' && ext !== 'mdx')
    : HEREDOCS.has(ext)
      ? () => heredocs(ext === 'php')
      : TRIPLE_QUOTES.has(ext)
        ? tripleQuotes
        : RAW_BACKTICKS.has(ext)
          ? rawBackticks
          : null;
  if (make) for (const hunk of file.hunks) scan(hunk, make(), lines);
  cache.set(file, lines);
  return lines;
}

function scan(hunk: Hunk, inside: Scanner, into: Set<number>): void {
  for (const line of hunk.lines) {
    if (line.kind === 'del' || line.newLine === null) continue;
    if (inside(line.text)) into.add(line.newLine);
  }
}

/** Markdown fences (``` or ~~~, closed by a bare fence of the same character, at least as long); AsciiDoc listing and literal blocks. */
function fences(asciidoc: boolean): Scanner {
  let open: string | null = null;
  return (text) => {
    const md = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
    const listing = asciidoc ? /^(-{4,}|\.{4,})\s*$/.exec(text) : null;
    if (open === null) {
      open = md?.[1] ?? listing?.[1] ?? null;
      return false;
    }
    const closes =
      open[0] === '`' || open[0] === '~'
        ? md !== null && md[1]![0] === open[0] && md[1]!.length >= open.length && md[2]!.trim() === ''
        : listing !== null && listing[1] === open;
    if (closes) open = null;
    return !closes;
  };
}

/** `<<EOF`, `<<-\EOF`, `<<-'EOF'`, Ruby's `<<~EOS`, PHP's `<<<EOT` … until the line that is only the word. */
function heredocs(php: boolean): Scanner {
  let word: string | null = null;
  let indented = false;
  return (text) => {
    if (word !== null) {
      const end = indented ? text.trim() : text.trimEnd();
      if (end === word || end === `${word};` || end === `${word},` || end === `${word})`) {
        word = null;
        return false;
      }
      return true;
    }
    const open = /<<(<)?([-~]?)\s*\\?(["']?)([A-Za-z_][A-Za-z0-9_]*)\3/.exec(text);
    if (!open) return false;
    const [, triple, dash, quote, name] = open;
    // `<<<` is PHP's heredoc (a one-line here-string in bash). An unquoted word in capitals
    // (EOF, END_SQL), so that a shift such as `x << y` stays a shift.
    if ((triple === undefined || php) && (quote !== '' || /^[A-Z_][A-Z0-9_]*$/.test(name!))) {
      word = name!;
      indented = dash !== '' || php;
    }
    return false;
  };
}

/** `"""…"""` and `'''…'''`: a line inside an open triple-quoted string. */
function tripleQuotes(): Scanner {
  let open: string | null = null;
  return (text) => {
    const startedInside = open !== null;
    for (const m of text.matchAll(/"""|'''/g)) {
      if (open === null) open = m[0];
      else if (m[0] === open) open = null;
    }
    return startedInside && open !== null;
  };
}

/** Go's raw strings: a line between an odd backtick and its closing one. */
function rawBackticks(): Scanner {
  let open = false;
  return (text) => {
    const startedInside = open;
    const ticks = text.split('`').length - 1;
    if (ticks % 2 === 1) open = !open;
    return startedInside && open;
  };
}
