/**
 * The syntax-tree parser (docs/structural.md): @ast-grep/napi, its native binary shipped inside
 * the npm package, with Python, Go and Java from ast-grep's language packages (prebuilt parsers
 * inside them too). Loaded on the first structural rule that applies: a review whose selected
 * documents carry none never loads it (test/hooks/hot-path.test.ts).
 */
import { createRequire } from 'node:module';
import type { StructuralLanguage } from '../../bundle/structural.js';

type Napi = typeof import('@ast-grep/napi');

const BY_EXTENSION: Record<string, StructuralLanguage> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  java: 'java',
};

/** The language a path's new version is parsed in, or null (structural rules skip the file). */
export function languageOfPath(path: string): StructuralLanguage | null {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? null : (BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? null);
}

const SCRIPT: readonly StructuralLanguage[] = ['typescript', 'tsx', 'javascript'];

/**
 * Whether a rule written for `rule` runs on a file of `file`: TypeScript, TSX and JavaScript are
 * one family (a decision about `db.query(…)` governs .js and .ts controllers alike); the pattern
 * is matched in the file's own grammar.
 */
export function sameFamily(rule: StructuralLanguage, file: StructuralLanguage): boolean {
  return rule === file || (SCRIPT.includes(rule) && SCRIPT.includes(file));
}

let napi: Napi | undefined;

export function parser(): Napi {
  if (napi) return napi;
  const require = createRequire(import.meta.url);
  const loaded = require('@ast-grep/napi') as Napi;
  loaded.registerDynamicLanguage({
    python: require('@ast-grep/lang-python'),
    go: require('@ast-grep/lang-go'),
    java: require('@ast-grep/lang-java'),
  } as never);
  napi = loaded;
  return loaded;
}

/** The name napi parses `language` by. */
export function napiLanguage(language: StructuralLanguage): string {
  const { Lang } = parser();
  switch (language) {
    case 'typescript':
      return Lang.TypeScript;
    case 'tsx':
      return Lang.Tsx;
    case 'javascript':
      return Lang.JavaScript;
    default:
      return language;
  }
}

/** The character a language's parser takes for `$` in patterns (ast-grep's expando character). */
export function expando(language: StructuralLanguage): string {
  return language === 'python' || language === 'go' ? 'µ' : '$';
}
