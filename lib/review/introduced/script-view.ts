/**
 * What a JavaScript-family file's text is, character by character, without loading a parser
 * (docs/review.md "Code, not prose"): the review's own lexer (../engine/mask.ts maskLines) read
 * from the top of the file tells comments and literals from code, and a declaration is the
 * nearest enclosing line that opens one, by indentation. Loading ast-grep costs a hook 70 ms
 * and its first query 40 ms more (docs/review.md "Time"), more than the whole commit-msg hook;
 * the lexer reads a file of a thousand lines in about a millisecond.
 */
import { maskLines } from '../engine/mask.js';
import { MAX_LINE_LENGTH } from '../engine/time.js';
import { CODE, COMMENT, STRING, type TextView } from '../structural/view.js';

const LEXED = new Set(['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts']);

export function isScript(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 && LEXED.has(base.slice(dot + 1).toLowerCase());
}

// A string that names a module (`from 'x'`, `import 'x'`, `require('x')`, `import('x')`) is code.
const SPECIFIER = /\b(?:from|import|require\s*\(|import\s*\()\s*(['"])[^'"\n]*\1/g;

// A line that opens a declaration: a function, class, interface, type, enum, namespace, a method,
// or a const/let bound to a function.
const DECLARATION =
  /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:(?:function\*?|class|interface|type|enum|namespace|module)\s+([\w$]+)|(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)|(?:(?:public|private|protected|static|readonly|override|get|set|async)\s+)*(?!(?:if|for|while|switch|catch|return|function)\b)([\w$]+)\s*(?:<[^>]*>)?\([^)]*\)?\s*(?::\s*[^{=]+)?\{\s*$)/;

export function scriptView(text: string): TextView {
  const lines = text.split('\n');
  const masked = maskLines(lines, { expressionsAreCode: true, commentSpans: true });
  const classes = new Uint8Array(text.length);
  const declarations = new Array<string | null>(lines.length).fill(null);
  const open: Array<{ indent: number; name: string }> = [];
  let at = 0;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    const code = masked[k]!.code;
    // What the lexer blanked is a literal's inside, or a comment where it says one stood. Spaces
    // need no class: blanking one changes nothing.
    for (let i = 0; i < line.length; i++) if (code[i] !== line[i]) classes[at + i] = STRING;
    for (const [from, to] of masked[k]!.comments ?? []) classes.fill(COMMENT, at + from, at + to);
    for (SPECIFIER.lastIndex = 0; ; ) {
      const match = SPECIFIER.exec(code === line ? line : line);
      if (!match) break;
      if (classes[at + match.index] !== CODE) continue; // the keyword itself is in a comment or string
      classes.fill(CODE, at + match.index, at + match.index + match[0].length);
    }
    // Declarations by indentation: a line belongs to the nearest open one less indented.
    if (code.trim() !== '') {
      const indent = line.length - line.trimStart().length;
      while (open.length && open[open.length - 1]!.indent >= indent && !/^\s*[})\]]/.test(code)) open.pop();
      declarations[k] = open.length ? open[open.length - 1]!.name : null;
      if (/^\s*[})\]]/.test(code)) while (open.length && open[open.length - 1]!.indent >= indent) open.pop();
      // A minified line is no declaration, and the pattern backtracks over a line's length.
      const header = code.length > MAX_LINE_LENGTH ? null : DECLARATION.exec(code);
      const name = header ? (header[1] ?? header[2] ?? header[3]) : undefined;
      if (name) {
        open.push({ indent, name });
        declarations[k] = name;
      }
    }
    at += line.length + 1;
  }
  return { classes, declarations, errors: [] };
}
