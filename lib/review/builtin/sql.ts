/**
 * Whether an SQL statement on an added line is built from data. The statement is read from
 * its string literal, across lines when the literal spans them (a template literal, a Python
 * or Kotlin triple-quoted string, a Go raw string, literals joined by `+` at line ends). It is
 * built when the literal interpolates (`${…}` in an untagged template, an f-string's `{…}`,
 * Kotlin/Groovy/Dart/PHP `$name`, Ruby `#{…}`, C# `$"…{…}"`, Swift `\(…)`) or is joined with a
 * non-literal (`+`, Python `%` and `.format`, PHP `.`, Sprintf/String.format with `%s`).
 * Parameterized statements, tagged templates, and SQL words inside log and error messages
 * (which are never executed) stay quiet.
 */
import type { LineContext } from '../engine/rules.js';
import { findStringLiterals, isJavaScript, usesHashComments, type StringLiteral } from '../engine/mask.js';
import { quotedTextLines } from '../engine/text-blocks.js';
import { linesAround } from '../engine/file-lines.js';

/** Statement keywords: where the rule's pattern matches; the statement's shape is checked on its whole text. */
export const SQL_KEYWORD =
  /\b(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|select|insert\s+into|update|delete\s+from)\b/g;

const ANY_KEYWORD = new RegExp(SQL_KEYWORD.source);

// Upper-case keywords in any shape; lower-case only in a strictly SQL shape, so UI text such
// as "Select a file from the list" or "Delete from cart" does not count.
const STATEMENT = new RegExp(
  [
    '^SELECT\\s[^;]*?\\bFROM\\s',
    '^INSERT\\s+INTO\\s',
    '^UPDATE\\s+(?:[\\w."`\\[\\]]+|\\$\\{[^}]*\\}|\\{\\w+\\})\\s+SET\\s',
    '^DELETE\\s+FROM\\s',
    '^select\\s+(?:distinct\\s+)?(?:\\*|[\\w.]+(?:\\s*,\\s*[\\w.]+)*)\\s+from\\s+[\\w."\\[$]',
    '^insert\\s+into\\s+[\\w."\\[\\]$]+\\s*(?:\\(|values\\b|select\\b)',
    '^update\\s+[\\w."\\[\\]$]+\\s+set\\s+[\\w."\\[\\]]+\\s*=',
    '^delete\\s+from\\s+[\\w."\\[\\]$]+\\s+where\\b',
  ].join('|'),
);

/** Code just before a literal that hands it to a logger, a printer or an error: a message, never executed. */
const MESSAGE_CALL =
  /(?:\b(?:log|logger|logging|console|print|println|printf|eprintln|puts|warn|warning|info|debug|trace|fatal|notice|Errorf|panic)\w*|\b\w*(?:Error|Exception|Warning)|\braise\s+\w+|\bthrow\s+new\s+\w+)\s*\(\s*(?:[\w.]+\s*,\s*)?[fFrRbBs$@]*$/;

const TRIPLE = /"""|'''/;

interface Literal {
  /** The literal's text from its opening delimiter to its close (or the window's end), lines joined by '\n'. */
  body: string;
  /** Code before the opening delimiter on the line that opens it. */
  prefix: string;
  /** Code after the closing delimiter, and the lines after it that continue the expression. */
  after: string;
  quote: string;
  /** The literal began on an earlier line. */
  openedAbove: boolean;
  /** Where it opens: the window line and the column of the delimiter. */
  openLine: number;
  openCol: number;
}

/** The lines the diff shows around the current line, within its hunk. */
function windowOf(context: LineContext, before: number, after: number): { lines: string[]; at: number } {
  const a = context.added[context.index]!;
  return linesAround(context.chunk.file, a.line, before, after, a.text);
}

/** The multi-line literal the line is inside (opened above), or null. */
function enclosing(context: LineContext, lines: readonly string[], at: number): Literal | null {
  const js = isJavaScript(context.path);
  const line = context.added[context.index]!.line;
  const inside = js
    ? context.view().inTemplate || guessInsideTemplate(lines, at)
    : quotedTextLines(context.path, context.chunk.file).has(line);
  if (!inside) return null;
  for (let k = at - 1; k >= 0; k--) {
    const delimiter = js
      ? lines[k]!.includes('`')
        ? '`'
        : null
      : (TRIPLE.exec(lines[k]!)?.[0] ?? (lines[k]!.includes('`') ? '`' : null));
    if (delimiter === null) continue;
    const open = lines[k]!.lastIndexOf(delimiter);
    return spanFrom(lines, k, open, delimiter, true);
  }
  return null;
}

/** Without the file's top: inside a template when the nearest line above with backticks leaves one open. */
function guessInsideTemplate(lines: readonly string[], at: number): boolean {
  for (let k = at - 1; k >= 0; k--) {
    const ticks = lines[k]!.split('`').length - 1;
    if (ticks > 0) return ticks % 2 === 1;
  }
  return false;
}

/** The literal opening at `lines[k][open]` with `delimiter`, read until it closes (at most 20 lines on). */
function spanFrom(lines: readonly string[], k: number, open: number, delimiter: string, openedAbove: boolean): Literal {
  const parts: string[] = [lines[k]!.slice(open)];
  let after = '';
  let rest = lines[k]!.slice(open + delimiter.length);
  for (let j = k, guard = 0; guard < 20; guard++) {
    const close = rest.indexOf(delimiter);
    if (close !== -1) {
      parts[parts.length - 1] = parts[parts.length - 1]!.slice(
        0,
        parts[parts.length - 1]!.length - rest.length + close + delimiter.length,
      );
      after = [rest.slice(close + delimiter.length), ...lines.slice(j + 1, j + 4)].join('\n');
      break;
    }
    if (++j >= lines.length) break;
    rest = lines[j]!;
    parts.push(rest);
  }
  return {
    body: parts.join('\n'),
    prefix: lines[k]!.slice(0, open),
    after,
    quote: delimiter,
    openedAbove,
    openLine: k,
    openCol: open,
  };
}

/** The literal holding the keyword at `index` of the current line, or null (the keyword is code, not text). */
function literalOf(context: LineContext, index: number, lines: readonly string[], at: number): Literal | null {
  const outer = enclosing(context, lines, at);
  const text = lines[at]!;
  const literals = findStringLiterals(text, usesHashComments(context.path));
  const own = literals.find((l) => l.start < index && index < l.end);
  // Inside a literal that opened above, text is text (quotes in it included) until it closes.
  if (outer && !closesBefore(text, outer.quote, index)) return outer;
  if (!own) return null;
  const from = Math.max(0, own.start - 2);
  const triple = TRIPLE.exec(text.slice(from, own.start + 3));
  if (triple && !isJavaScript(context.path)) {
    const start = text.indexOf(triple[0], from);
    return spanFrom(lines, at, start, triple[0], false);
  }
  if (own.end >= text.length && own.quote === '`') return spanFrom(lines, at, own.start, '`', false);
  return single(text, own, lines.slice(at + 1, at + 6), at);
}

/** The delimiter that opened above closes on this line before `index`: the keyword is in a new literal. */
function closesBefore(text: string, delimiter: string, index: number): boolean {
  const close = text.indexOf(delimiter);
  return close !== -1 && close < index;
}

function single(text: string, literal: StringLiteral, next: readonly string[], at: number): Literal {
  const body = text.slice(literal.start, literal.end + 1);
  const after = [text.slice(literal.end + 1), ...next].join('\n');
  return {
    body,
    prefix: text.slice(0, literal.start),
    after,
    quote: literal.quote,
    openedAbove: false,
    openLine: at,
    openCol: literal.start,
  };
}

/** Interpolation inside the literal, in the syntax of the file's language. */
function interpolates(literal: Literal, path: string): boolean {
  const { body, prefix, quote } = literal;
  if (isJavaScript(path)) return quote === '`' && !/[\w$.)\]]\s*$/.test(prefix) && body.includes('${');
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'py') return /(?:^|[^\w])[rRbB]?[fF][rRbB]?$/.test(prefix) && /\{(?!\{)[^{}]+\}/.test(body);
  if (ext === 'rb') return quote !== "'" && body.includes('#{');
  if (ext === 'cs') return /\$@?$|@\$$/.test(prefix) && /\{[^{}]+\}/.test(body);
  if (ext === 'swift') return /\\\(/.test(body);
  if (ext === 'scala') return /\bs$/.test(prefix) && /\$\{|\$[A-Za-z_]/.test(body);
  if (['kt', 'kts', 'groovy', 'gradle', 'dart', 'php', 'pl', 'pm'].includes(ext))
    return quote !== "'" || ext === 'dart' ? /\$\{|\$[A-Za-z_]/.test(body) : false;
  return false;
}

/** A constant (`USERS_TABLE`) or a placeholder list (`ids.map(() => '?').join(',')`): not data. */
const NOT_DATA =
  /^(?:[A-Z][A-Z0-9_]*|[\w$.]+\.map\(\s*\(\s*\)\s*=>\s*(['"])\?\1\s*\)\.join\([^)]*\)|(['"])\?(?:,\s*)?\2\.repeat\([^)]*\)|Array\([^)]*\)\.fill\((['"])\?\3\)\.join\([^)]*\))$/;

/** Whether the `+` chain after a literal (to the end of its expression on the line) joins in an operand that is data. */
function dataJoined(rest: string): boolean {
  const operands: string[] = [];
  let depth = 0;
  let from = 0;
  let end = rest.length;
  for (let i = 0; i < rest.length && end === rest.length; i++) {
    const c = rest[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const close = rest.indexOf(c, i + 1);
      i = close === -1 ? rest.length : close;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}' || c === ',' || c === ';') {
      if (depth === 0) end = i;
      else if (c !== ',' && c !== ';') depth--;
    } else if (c === '+' && depth === 0) {
      operands.push(rest.slice(from, i));
      from = i + 1;
    }
  }
  operands.push(rest.slice(from, end));
  return operands.map((o) => o.trim()).some((o) => o !== '' && !/^(["'`]).*\1$/.test(o) && !NOT_DATA.test(o));
}

/** Joined with a non-literal: `+ id`, `id +`, Python `%`/`.format(`, PHP `.`, a format call with `%s`/`{}`. */
function concatenated(literal: Literal, path: string): boolean {
  const php = path.endsWith('.php');
  const { prefix, after } = literal;
  if (
    (/^\s*\+\s*[^\s'"`+]/.test(after) && dataJoined(after.split('\n')[0]!)) ||
    /^\s*%\s*[\w(]/.test(after) ||
    /^\.format\(/.test(after)
  )
    return true;
  if (/[^\s'"`+(,]\s*\+\s*$/.test(prefix) && !/(?:^|[^\w$.])[A-Z][A-Z0-9_]*\s*\+\s*$/.test(prefix)) return true;
  if (php && (/^\s*\.\s*\$/.test(after) || /\$\w+\s*\.\s*$/.test(prefix))) return true;
  if (/(?:Sprintf|format|formatted|printf|format!)\s*\(\s*$/.test(prefix) && /%[sdvq]|\{\}/.test(literal.body))
    return true;
  if (/^\.formatted\(/.test(after)) return true;
  // "SELECT … " +   then, on the next lines, more literals and a non-literal operand.
  if (/^\s*\+\s*\n/.test(after)) {
    for (const t of after.split('\n').slice(1)) {
      if (/[^\s'"`+]\s*\+\s*['"`]|['"`]\s*\+\s*[^\s'"`+]|^\s*\+?\s*[A-Za-z_$][\w$.]*\s*(?:\+|[;,)]|$)/.test(t))
        return true;
      if (!/\+\s*$/.test(t)) return false;
    }
  }
  return false;
}

/** The literal's lines before the keyword (the opening line from its delimiter), and its text from the keyword on. */
function split(literal: Literal, at: number, index: number): { before: string; from: string } {
  const bodyLines = literal.body.split('\n');
  const row = at - literal.openLine;
  const col = row === 0 ? index - literal.openCol : index;
  const current = bodyLines[row] ?? '';
  return {
    before: [...bodyLines.slice(0, row), current.slice(0, col)].join('\n'),
    from: [current.slice(col), ...bodyLines.slice(row + 1)].join('\n'),
  };
}

/** The statement text from the keyword on, across the lines joined by `+` (for its shape). */
function statementText(literal: Literal, from: string): string {
  let text = from;
  if (/^\s*\+\s*\n/.test(literal.after)) {
    for (const t of literal.after.split('\n').slice(1, 4)) text += ` ${t.replace(/['"`+]/g, ' ')}`;
  }
  return text.replace(/\s+/g, ' ');
}

export function notBuiltSql(match: RegExpExecArray, _text: string, context: LineContext): boolean {
  const { lines, at } = windowOf(context, 30, 20);
  const literal = literalOf(context, match.index, lines, at);
  if (!literal) return true;
  if (MESSAGE_CALL.test(literal.prefix)) return true;
  const { before, from } = split(literal, at, match.index);
  if (!STATEMENT.test(statementText(literal, from))) return true;
  // One finding per statement: a keyword further down the same literal is part of the first one.
  if (ANY_KEYWORD.test(before)) return true;
  return !interpolates(literal, context.path) && !concatenated(literal, context.path);
}
