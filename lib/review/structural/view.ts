/**
 * What a parsed file's text is, character by character: code, comment or string literal, and the
 * declaration each line belongs to (docs/review.md "Code, not prose"). Read from ast-grep's tree,
 * so a `console.log` in a JSDoc example, a `@ts-ignore` in a string a generator emits or a `print(`
 * in a docstring is known as prose, while what a template's `${…}` or an f-string's `{…}` holds is
 * code again, and a module specifier (`from 'lodash'`, `require('x')`, Go's `import "x"`) stays
 * code: it names code.
 */
import type { StructuralLanguage } from '../../bundle/structural.js';
import { emptyRoot, type Root } from './match.js';

export const CODE = 0;
export const COMMENT = 1;
export const STRING = 2;

export interface TextView {
  /** Per UTF-16 unit of the text: CODE, COMMENT or STRING. */
  classes: Uint8Array;
  /** Per line (0-based): the innermost declaration's name holding it, or null. */
  declarations: Array<string | null>;
  /** 1-based line ranges the parser could not read (ERROR nodes). */
  errors: Array<{ start: number; end: number }>;
}

type Kinds = { comments: string[]; strings: string[]; holes: string[]; declarations: string[] };

const SCRIPT: Kinds = {
  comments: ['comment', 'html_comment'],
  strings: ['string', 'template_string', 'regex', 'jsx_text'],
  holes: ['template_substitution'],
  declarations: [
    'function_declaration',
    'generator_function_declaration',
    'method_definition',
    'class_declaration',
    'abstract_class_declaration',
    'interface_declaration',
    'type_alias_declaration',
    'enum_declaration',
    'internal_module',
  ],
};

const KINDS: Record<StructuralLanguage, Kinds> = {
  typescript: SCRIPT,
  tsx: SCRIPT,
  javascript: SCRIPT,
  python: {
    comments: ['comment'],
    strings: ['string'],
    holes: ['interpolation'],
    declarations: ['function_definition', 'class_definition'],
  },
  go: {
    comments: ['comment'],
    strings: ['interpreted_string_literal', 'raw_string_literal', 'rune_literal'],
    holes: [],
    declarations: ['function_declaration', 'method_declaration', 'type_spec'],
  },
  java: {
    comments: ['line_comment', 'block_comment'],
    strings: ['string_literal', 'character_literal', 'text_block'],
    holes: [],
    declarations: [
      'class_declaration',
      'interface_declaration',
      'enum_declaration',
      'record_declaration',
      'method_declaration',
      'constructor_declaration',
    ],
  },
};

/** The strings that name a module: code, not prose. */
const SPECIFIERS: Record<StructuralLanguage, Array<Record<string, unknown>>> = {
  typescript: [],
  tsx: [],
  javascript: [],
  python: [],
  go: [{ kind: 'interpreted_string_literal', inside: { kind: 'import_spec' } }],
  java: [],
};
const SCRIPT_SPECIFIERS = [
  { kind: 'string', inside: { kind: 'import_statement' } },
  { kind: 'string', inside: { kind: 'export_statement' } },
  {
    kind: 'string',
    inside: {
      kind: 'arguments',
      inside: { kind: 'call_expression', has: { field: 'function', regex: '^(?:require|import)$' } },
    },
  },
];
SPECIFIERS.typescript = SPECIFIERS.tsx = SPECIFIERS.javascript = SCRIPT_SPECIFIERS;

type Node = ReturnType<ReturnType<Root['root']>['findAll']>[number];

/** The 1-based line ranges of the tree's ERROR nodes. */
export function errorLines(root: Root): Array<{ start: number; end: number }> {
  return root
    .root()
    .findAll({ rule: { kind: 'ERROR' } } as never)
    .map((node) => {
      const range = node.range();
      return { start: range.start.line + 1, end: range.end.line + 1 };
    });
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

// A kind the grammar does not have is an error in ast-grep: each list is cut to the grammar's own, once.
const known = new Map<string, string[]>();
function kindsOf(language: StructuralLanguage, wanted: readonly string[]): string[] {
  const key = `${language}\0${wanted.join(',')}`;
  let found = known.get(key);
  if (!found) {
    const empty = emptyRoot(language).root();
    found = wanted.filter((kind) => {
      try {
        empty.findAll({ rule: { kind } } as never);
        return true;
      } catch {
        return false;
      }
    });
    known.set(key, found);
  }
  return found;
}

function findAll(root: Root, language: StructuralLanguage, wanted: readonly string[]): Node[] {
  const kinds = kindsOf(language, wanted);
  if (!kinds.length) return [];
  return root.root().findAll({ rule: { any: kinds.map((kind) => ({ kind })) } } as never);
}

/** The classes and declarations of `text`, parsed as `root` (its tree, in `language`). */
export function textView(language: StructuralLanguage, text: string, root: Root): TextView {
  const kinds = KINDS[language];
  const starts = lineStarts(text);
  const classes = new Uint8Array(text.length);
  const offset = (pos: { line: number; column: number }) =>
    Math.min(text.length, (starts[pos.line] ?? text.length) + pos.column);
  const paint = (node: Node, cls: number) => {
    const range = node.range();
    classes.fill(cls, offset(range.start), offset(range.end));
  };
  const strings = findAll(root, language, kinds.strings);
  const comments = findAll(root, language, kinds.comments);
  for (const node of strings) paint(node, STRING);
  for (const node of comments) paint(node, COMMENT);
  const holes = findAll(root, language, kinds.holes);
  if (holes.length) {
    for (const node of holes) paint(node, CODE);
    // A string or comment inside a hole (`${f('x')}`) is one again: one level of nesting. Where
    // the holes lie is marked once: asking each hole for each string was quadratic (a second of
    // a replay of flask's history went there, docs/structural.md "Parsed once").
    const inHole = new Uint8Array(text.length + 1);
    for (const h of holes) {
      const range = h.range();
      inHole.fill(1, offset(range.start), offset(range.end));
    }
    const inside = (node: Node) => inHole[offset(node.range().start)] === 1;
    for (const node of strings) if (inside(node)) paint(node, STRING);
    for (const node of comments) if (inside(node)) paint(node, COMMENT);
  }
  const specifiers = SPECIFIERS[language];
  if (specifiers.length)
    for (const node of root.root().findAll({ rule: { any: specifiers } } as never)) paint(node, CODE);

  const declarations = new Array<string | null>(starts.length).fill(null);
  // Outer declarations first, so an inner one paints over the lines it holds.
  const found = findAll(root, language, kinds.declarations)
    .map((node) => {
      const range = node.range();
      return { start: range.start.line, end: range.end.line, name: node.field('name')?.text() ?? String(node.kind()) };
    })
    .sort((a, b) => a.start - b.start || b.end - a.end);
  for (const d of found) declarations.fill(d.name, d.start, d.end + 1);

  const errors = errorLines(root);
  // Where the parser could not read the code, the text is read as it is (as for a file it does
  // not parse at all): what it took for a comment or a string there may be neither.
  for (const e of errors) classes.fill(CODE, starts[e.start - 1] ?? text.length, starts[e.end] ?? text.length);
  return { classes, declarations, errors };
}

/** What of a file a `pattern` rule reads (the rule's `in`), as the lines it matches on: the rest blanked. */
export type ReadMode = 'code' | 'code+strings' | 'comments' | 'strings' | 'any';

/** `text`'s lines with what `mode` does not read blanked to spaces (same lengths, so columns stay). */
export function maskedLines(text: string, view: TextView, mode: ReadMode): string[] {
  const lines = text.split('\n');
  if (mode === 'any') return lines;
  const keep = (cls: number) =>
    mode === 'code'
      ? cls === CODE
      : mode === 'code+strings'
        ? cls !== COMMENT
        : mode === 'comments'
          ? cls === COMMENT
          : cls === STRING;
  const out: string[] = [];
  let at = 0;
  for (const line of lines) {
    let masked = '';
    let copied = 0;
    for (let i = 0; i < line.length; i++) {
      if (keep(view.classes[at + i]!)) continue;
      // A run of characters not read: blanked in one step.
      let j = i;
      while (j < line.length && !keep(view.classes[at + j]!)) j++;
      masked += line.slice(copied, i) + ' '.repeat(j - i);
      copied = j;
      i = j - 1;
    }
    out.push(copied === 0 ? line : masked + line.slice(copied));
    at += line.length + 1;
  }
  return out;
}
