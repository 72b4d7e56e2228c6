/**
 * Line-level views of source text for the built-in baseline. Rules see one added line at a
 * time, so these are heuristics on a single line: good enough to keep the baseline quiet on
 * comments, documentation and strings that only mention what a rule looks for.
 */

const C_LIKE = new Set([
  'js',
  'jsx',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'mts',
  'cts',
  'vue',
  'svelte',
  'java',
  'kt',
  'kts',
  'scala',
  'groovy',
  'gradle',
  'cs',
  'go',
  'c',
  'h',
  'cc',
  'cpp',
  'cxx',
  'hpp',
  'hh',
  'swift',
  'rs',
  'dart',
  'php',
  'm',
  'mm',
]);
const HASH = new Set([
  'py',
  'rb',
  'sh',
  'bash',
  'zsh',
  'pl',
  'pm',
  'r',
  'ps1',
  'yaml',
  'yml',
  'toml',
  'cfg',
  'ini',
  'conf',
]);
const DASH = new Set(['sql', 'lua', 'hs']);

function extension(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** `/* … *\/ code`: a block comment that closes with code after it on the same line. */
function codeAfterBlockComment(t: string): boolean {
  const end = t.indexOf('*/', 2);
  if (end === -1) return false;
  const rest = t.slice(end + 2).trim();
  return rest !== '' && !rest.startsWith('//') && !rest.startsWith('/*');
}

/** Whole-line comments for the file's language (unknown languages: the common prefixes). */
export function isCommentLine(path: string, text: string): boolean {
  const t = text.trimStart();
  if (t === '') return false;
  const ext = extension(path);
  const slashes =
    t.startsWith('//') ||
    (t.startsWith('/*') && !codeAfterBlockComment(t)) ||
    t === '*' ||
    t.startsWith('* ') ||
    t.startsWith('*/');
  if (C_LIKE.has(ext)) return slashes || (ext === 'php' && t.startsWith('#'));
  if (HASH.has(ext)) return t.startsWith('#');
  if (DASH.has(ext)) return t.startsWith('--');
  return slashes || t.startsWith('#') || t.startsWith('<!--');
}

// A `/` after one of these (or at the start) opens a regex literal; after anything else it divides.
const REGEX_AFTER_CHAR = new Set('(,=:[!&|?{};+-*%<>~^'.split(''));
const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'void',
  'yield',
  'await',
  'delete',
  'throw',
  'new',
]);

function opensRegex(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
  if (k < 0) return true;
  if (REGEX_AFTER_CHAR.has(text[k]!)) return true;
  let w = k;
  while (w >= 0 && /[A-Za-z]/.test(text[w]!)) w--;
  return w < k && (w < 0 || !/[\w$.]/.test(text[w]!)) && REGEX_AFTER_WORD.has(text.slice(w + 1, k + 1));
}

export interface MaskedLine {
  /** The line with literal and comment contents blanked out (same length, delimiters kept). */
  code: string;
  /** The line starts inside a template literal that an earlier line opened. */
  inTemplate: boolean;
  /** The line starts inside a block comment that an earlier line opened. */
  inComment: boolean;
  /** Where comments are on the line, [start, end) (maskLines with `commentSpans`). */
  comments?: Array<[number, number]>;
}

type Frame = { kind: 'template' } | { kind: 'expression'; depth: number };

// The only characters that change anything in code, and in template text: runs of the others
// are skipped in one regex step (they are copied, or blanked as one range inside a template).
const CODE_SPECIAL = /[/"'`{}]/g;
const TEMPLATE_SPECIAL = /[\\`$]/g;

/** Index of the next character `special` finds at or after `from`, or the line's end. */
function nextSpecial(special: RegExp, text: string, from: number): number {
  special.lastIndex = from;
  return special.test(text) ? special.lastIndex - 1 : text.length;
}

/**
 * JavaScript lexing of consecutive lines: the contents of string, template and regex literals
 * and of comments are blanked out, so a match on `code` is a match in code. Templates and
 * block comments carry over from line to line, so give it lines from the start of a file; a
 * lone line is read as if it started in code.
 */
export function maskLines(
  lines: readonly string[],
  options: { expressionsAreCode?: boolean; commentSpans?: boolean } = {},
): MaskedLine[] {
  const stack: Frame[] = [];
  // Template frames on the stack: "inside a template" without scanning the stack per character.
  let templates = 0;
  let inComment = false;
  // A '…' or "…" string whose line ended in a backslash continues on the next line.
  let openQuote: string | null = null;
  const result: MaskedLine[] = [];
  for (const text of lines) {
    const line: MaskedLine = { code: '', inTemplate: templates > 0, inComment };
    // The masked line is built from slices of the text and runs of spaces; blanked ranges
    // only move forward, and adjacent ones merge (no array of characters per line).
    let code = '';
    let copied = 0;
    let from = 0;
    let to = 0;
    const blank = (start: number, end: number) => {
      end = Math.min(end, text.length);
      start = Math.max(start, copied);
      if (end <= start) return;
      if (start <= to && to > from) {
        to = Math.max(to, end);
        return;
      }
      if (to > from) {
        code += text.slice(copied, from) + ' '.repeat(to - from);
        copied = to;
      }
      from = start;
      to = end;
    };
    let i = 0;
    if (openQuote !== null) {
      let j = 0;
      while (j < text.length && text[j] !== openQuote) j += text[j] === '\\' ? 2 : 1;
      blank(0, j);
      if (j > text.length)
        i = text.length; // continued once more
      else {
        openQuote = null;
        i = j + 1;
      }
    }
    while (i < text.length) {
      const c = text[i]!;
      const next = text[i + 1];
      const top = stack[stack.length - 1];
      // A template's `${…}` is blanked as part of its literal, unless the caller reads it as code
      // (a bundle rule: docs/review.md "Code, not prose"); its own strings are blanked either way.
      const insideTemplate = templates > 0 && !options.expressionsAreCode;
      if (inComment) {
        const end = text.indexOf('*/', i);
        const stop = end === -1 ? text.length : end + 2;
        if (options.commentSpans) (line.comments ??= []).push([i, stop]);
        blank(i, stop);
        inComment = end === -1;
        i = stop;
        continue;
      }
      if (top?.kind === 'template') {
        // Template text: blank up to the closing backtick or a `${`.
        const stop = nextSpecial(TEMPLATE_SPECIAL, text, i);
        if (stop > i) {
          blank(i, stop);
          i = stop;
          continue;
        }
        if (c === '\\') {
          blank(i, i + 2);
          i += 2;
        } else if (c === '`') {
          stack.pop();
          templates--;
          i++;
        } else if (c === '$' && next === '{') {
          stack.push({ kind: 'expression', depth: 0 });
          blank(i, i + 2);
          i += 2;
        } else {
          blank(i, i + 1);
          i++;
        }
        continue;
      }
      // Code, or an expression inside a template (blanked too: it is part of a literal).
      const stop = nextSpecial(CODE_SPECIAL, text, i);
      if (stop > i) {
        if (insideTemplate) blank(i, stop);
        i = stop;
        continue;
      }
      if (c === '/' && next === '/') {
        if (options.commentSpans) (line.comments ??= []).push([i, text.length]);
        blank(i, text.length);
        break;
      }
      if (c === '/' && next === '*') {
        const end = text.indexOf('*/', i + 2);
        const stop = end === -1 ? text.length : end + 2;
        if (options.commentSpans) (line.comments ??= []).push([i, stop]);
        blank(i, stop);
        inComment = end === -1;
        i = stop;
        continue;
      }
      if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
        if (insideTemplate) blank(i, j + 1);
        else blank(i + 1, j);
        // Past the end: the last backslash escaped the line break, the string goes on.
        if (j > text.length && !insideTemplate) openQuote = c;
        i = j + 1;
        continue;
      }
      if (c === '`') {
        stack.push({ kind: 'template' });
        templates++;
        if (insideTemplate) blank(i, i + 1);
        i++;
        continue;
      }
      if (top?.kind === 'expression') {
        if (c === '{') top.depth++;
        else if (c === '}') {
          if (top.depth === 0) {
            stack.pop();
            blank(i, i + 1);
            i++;
            continue;
          }
          top.depth--;
        }
      }
      if (c === '/' && opensRegex(text, i)) {
        let j = i + 1;
        let inClass = false;
        while (j < text.length && (inClass || text[j] !== '/')) {
          if (text[j] === '\\') j++;
          else if (text[j] === '[') inClass = true;
          else if (text[j] === ']') inClass = false;
          j++;
        }
        if (insideTemplate) blank(i, j + 1);
        else blank(i + 1, j);
        i = j + 1;
        continue;
      }
      if (insideTemplate) blank(i, i + 1);
      i++;
    }
    if (to > from) {
      code += text.slice(copied, from) + ' '.repeat(to - from);
      copied = to;
    }
    line.code = code + text.slice(copied);
    result.push(line);
  }
  return result;
}

/** One line read on its own (as if it started in code). */
export function maskCode(text: string): string {
  return maskLines([text])[0]!.code;
}

const JS_EXTENSIONS = new Set(['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte']);

/** Globs of the files whose code the JavaScript-specific rules understand. */
export const JS_FILES = [`**/*.{${[...JS_EXTENSIONS].join(',')}}`];

export function isJavaScript(path: string): boolean {
  return JS_EXTENSIONS.has(extension(path));
}

/** Source files of languages that build SQL in strings (documentation and data files excluded). */
export const CODE_FILES = [
  '**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts,vue,svelte,java,kt,kts,scala,groovy,cs,go,py,rb,php,rs,swift,dart,c,cc,cpp,cxx,h,hpp}',
];

export interface StringLiteral {
  quote: '"' | "'" | '`';
  /** Index of the opening quote. */
  start: number;
  /** Index of the closing quote (text.length when the literal runs past the line). */
  end: number;
}

/** String literals of one line, left to right; scanning stops at a `//` or `#` comment. */
export function findStringLiterals(text: string, hashComments = false): StringLiteral[] {
  const found: StringLiteral[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') break;
    if (hashComments && c === '#') break;
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      found.push({ quote: c, start: i, end: Math.min(j, text.length) });
      i = j;
    }
  }
  return found;
}

/** Whether the file's language uses `#` for comments (so `#` outside a string ends the code). */
export function usesHashComments(path: string): boolean {
  const ext = extension(path);
  return HASH.has(ext) || ext === 'php';
}
