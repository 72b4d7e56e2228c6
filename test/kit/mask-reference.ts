/**
 * maskLines as it was before runs of plain characters were skipped in one step (lib/review/engine/mask.ts):
 * the character-by-character lexer, kept as the reference the property test compares against.
 */

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

interface MaskedLine {
  /** The line with literal and comment contents blanked out (same length, delimiters kept). */
  code: string;
  /** The line starts inside a template literal that an earlier line opened. */
  inTemplate: boolean;
  /** The line starts inside a block comment that an earlier line opened. */
  inComment: boolean;
}

type Frame = { kind: 'template' } | { kind: 'expression'; depth: number };

/**
 * JavaScript lexing of consecutive lines: the contents of string, template and regex literals
 * and of comments are blanked out, so a match on `code` is a match in code. Templates and
 * block comments carry over from line to line, so give it lines from the start of a file; a
 * lone line is read as if it started in code.
 */
export function referenceMaskLines(lines: readonly string[]): MaskedLine[] {
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
      const insideTemplate = templates > 0;
      if (inComment) {
        const end = text.indexOf('*/', i);
        const stop = end === -1 ? text.length : end + 2;
        blank(i, stop);
        inComment = end === -1;
        i = stop;
        continue;
      }
      if (top?.kind === 'template') {
        // Template text: blank up to the closing backtick or a `${`.
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
      if (c === '/' && next === '/') {
        blank(i, text.length);
        break;
      }
      if (c === '/' && next === '*') {
        const end = text.indexOf('*/', i + 2);
        const stop = end === -1 ? text.length : end + 2;
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
