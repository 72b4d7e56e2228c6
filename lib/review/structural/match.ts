/**
 * `ast` rules (docs/structural.md "Syntax-tree rules"): an ast-grep pattern or rule object,
 * matched on the parsed new version of a file. A match counts where its lines overlap an added
 * line of the chunk and is reported at its first added line. Comments and strings are nodes of
 * their own, so a code pattern never matches inside one.
 */
import type { AstRule, StructuralLanguage } from '../../bundle/structural.js';
import { derived } from '../../core/derived-cache.js';
import { expando, napiLanguage, parser } from './languages.js';

type NapiConfig = Record<string, unknown>;

/**
 * The ast-grep rule of an `ast` rule. Go parses a bare expression ambiguously, so a string
 * pattern there is parsed where the code would stand: inside a function body (a call pattern
 * selects the call).
 */
export function ruleConfig(rule: AstRule): NapiConfig {
  if (typeof rule.ast !== 'string') return { rule: rule.ast };
  if (rule.language === 'go' && !/^\s*(?:func|package|import|type|var|const)\b/.test(rule.ast)) {
    const call = /\)\s*$/.test(rule.ast);
    return {
      rule: {
        pattern: { context: `func _() { ${rule.ast} }`, selector: call ? 'call_expression' : 'expression_statement' },
      },
    };
  }
  return { rule: { pattern: rule.ast } };
}

const checked = new Map<string, string | null>();
const isReason = (v: unknown): v is string | null => v === null || typeof v === 'string';

/**
 * Why a rule cannot be used (its pattern does not parse in its language, a bad rule object), or
 * null. Known once for a pattern and language, in a process (a push reviews several ranges, the
 * editor many buffers) and between runs of one build (core/derived-cache.ts).
 */
export function checkAstRule(rule: AstRule): string | null {
  const key = `${rule.language}\0${typeof rule.ast === 'string' ? rule.ast : JSON.stringify(rule.ast)}`;
  let why = checked.get(key);
  if (why === undefined) {
    // Kept between runs too: a hook whose versions' facts are kept (./facts.ts) loads no parser.
    why = derived('ast-rule-check', key, () => checkOnce(rule), isReason);
    // Rules are few; a process that loads bundle after bundle starts over.
    if (checked.size >= 1000) checked.clear();
    checked.set(key, why);
  }
  return why;
}

function checkOnce(rule: AstRule): string | null {
  const napi = parser();
  const lang = napiLanguage(rule.language);
  if (typeof rule.ast === 'string') {
    const code =
      rule.language === 'go' && !/^\s*(?:func|package|import|type|var|const)\b/.test(rule.ast)
        ? `func _() { ${rule.ast} }`
        : rule.ast;
    const parsed = napi.parse(lang as never, code.replace(/\$/g, expando(rule.language)));
    const errors = parsed.root().findAll({ rule: { kind: 'ERROR' } } as never);
    if (errors.length) return `the pattern does not parse as ${rule.language} (at "${errors[0]!.text().slice(0, 40)}")`;
  }
  try {
    emptyRoot(rule.language)
      .root()
      .findAll(ruleConfig(rule) as never);
  } catch (error) {
    return (error as Error).message
      .split('\n')
      .slice(0, 3)
      .join(' ')
      .replace(/\s*\|->/g, ': ');
  }
  return null;
}

export interface AstMatch {
  /** 1-based first and last line of the match. */
  start: number;
  end: number;
  /** The matched code: what a violation is known by (docs/review.md "What a change introduces"). */
  text: string;
}

export type Root = ReturnType<ReturnType<typeof parser>['parse']>;

/**
 * `text` parsed in `language`. A file version is parsed through ./parsed.ts, which keeps its tree
 * for every rule kind (docs/structural.md "Parsed once").
 */
export function parseFile(language: StructuralLanguage, text: string): Root {
  const source = language === 'typescript' || language === 'tsx' ? aroundGrammarGaps(text) : text;
  return parser().parse(napiLanguage(language) as never, source);
}

const empties = new Map<StructuralLanguage, Root>();

/** An empty file's tree in `language`, parsed once: what a rule object or a kind is tried on. */
export function emptyRoot(language: StructuralLanguage): Root {
  let root = empties.get(language);
  if (!root) empties.set(language, (root = parseFile(language, '')));
  return root;
}

// A member named `in` then no letter (`in?: string`, `in2?: X`) on the line after one with no
// semicolon: the grammar's scanner takes `in` for the operator and inserts none. (`inner`,
// `invoke(` are read right: only a letter after `in` tells the scanner it is a name.)
const IN_MEMBER = /^\s*in(?![A-Za-z])\w*\??\s*[:(]/;
// `import('x').T` in a type (after `:`, `<`, `|`, `&`, `,`): the grammar reads it as a call, so
// `[]` or `<…>` after it does not parse.
const IMPORT_TYPE = /([:<|&,]\s*)import\(\s*(['"])[^'"\n]*\2\s*\)(?=\.)/g;

/**
 * Valid TypeScript that tree-sitter-typescript refuses, written so it parses, with every line and
 * column of the text kept (docs/structural.md "Measured"): a semicolon appended at the end of a
 * line before an `in…` member, and an `import('x')` in a type replaced by an identifier of its
 * length. Both are grammar gaps still open upstream; the rules see the same places.
 */
export function aroundGrammarGaps(text: string): string {
  let out = text.includes('import(')
    ? text.replace(IMPORT_TYPE, (all, before: string) => `${before}$${'_'.repeat(all.length - before.length - 1)}`)
    : text;
  if (/^\s*in(?![A-Za-z])\w*\??\s*[:(]/m.test(out)) {
    const lines = out.split('\n');
    for (let k = 1; k < lines.length; k++) {
      if (!IN_MEMBER.test(lines[k]!)) continue;
      const before = lines[k - 1]!.replace(/\s+$/, '');
      // After an operator or an opening bracket the next line continues an expression: left as it is.
      if (before !== '' && !/[;,{([=&|+\-*/<>?:!~^%]$/.test(before)) lines[k - 1] = `${lines[k - 1]};`;
    }
    out = lines.join('\n');
  }
  return out;
}

/** Whether a parsed file has syntax errors (a file that does not parse keeps only its regex rules). */
export function hasErrors(root: Root): boolean {
  return root.root().find({ rule: { kind: 'ERROR' } } as never) !== null;
}

export function findMatches(root: Root, rule: AstRule): AstMatch[] {
  return root
    .root()
    .findAll(ruleConfig(rule) as never)
    .map((node) => {
      const range = node.range();
      return { start: range.start.line + 1, end: range.end.line + 1, text: node.text() };
    });
}
