/**
 * `imports` rules (docs/structural.md "Import boundaries"): the imports of a file's new version,
 * each with the repo-relative files it may resolve to (relative imports as Node, TypeScript,
 * Python and Go resolve them, `tsconfig.json` `paths` aliases included), and whether one crosses a
 * boundary the rule forbids. A boundary entry names a module specifier (`lodash`, `node:fs`; its
 * subpaths too) or a repo-relative glob of targets (`src/db/**`).
 */
import { posix } from 'node:path';
import type { ImportsRule, StructuralLanguage } from '../../bundle/structural.js';
import { compileGlob } from '../../bundle/globs.js';
import type { Root } from './match.js';

export interface ImportRef {
  specifier: string;
  /** 1-based line of the import. */
  line: number;
  /** Gone at run time: TypeScript `import type`/`export type`, or all specifiers `type`; Python under `if TYPE_CHECKING:`. */
  typeOnly?: boolean;
}

/** Whether a node lies inside `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`, `t.TYPE_CHECKING`). */
function underTypeChecking(node: Node): boolean {
  for (
    let at = (node as Node & { parent(): Node | null }).parent();
    at;
    at = (at as Node & { parent(): Node | null }).parent()
  ) {
    if (at.kind() === 'if_statement') {
      const condition = at.field('condition')?.text().trim();
      // `typing.TYPE_CHECKING` under any alias (`import typing as t`: Flask's `t.TYPE_CHECKING`).
      if (/^(?:[A-Za-z_]\w*\.)?TYPE_CHECKING$/.test(condition ?? '')) return true;
    }
  }
  return false;
}

/** A TypeScript import or re-export that names types only (elided by the compiler). */
function typeOnlyStatement(node: Node): boolean {
  const kids = node.children();
  // `import type { A } from` / `export type { A } from`: the `type` keyword after the first token.
  if (kids[1]?.kind() === 'type' || kids[1]?.text() === 'type') return true;
  // `import { type A, type B } from`: every named specifier is a type.
  const clause = kids.find((c) => c.kind() === 'import_clause');
  if (!clause) return false;
  const parts = clause.children();
  if (parts.some((c) => c.kind() === 'identifier' || c.kind() === 'namespace_import')) return false;
  const named = parts.find((c) => c.kind() === 'named_imports');
  const specs = named?.children().filter((c) => c.kind() === 'import_specifier') ?? [];
  return specs.length > 0 && specs.every((c) => /^type\s/.test(c.text()));
}

interface Node {
  kind(): string;
  text(): string;
  field(name: string): Node | null;
  children(): Node[];
  range(): { start: { line: number } };
  parent(): Node | null;
}

const unquote = (text: string) => text.replace(/^(['"`])([\s\S]*)\1$/, '$2');

/** Every import of a parsed file: static, re-exports, require() and import() with a literal. */
export function importsOf(root: Root, language: StructuralLanguage): ImportRef[] {
  const top = root.root() as unknown as { findAll(rule: unknown): Node[] };
  const at = (node: Node) => node.range().start.line + 1;
  const out: ImportRef[] = [];
  if (language === 'python') {
    for (const node of top.findAll({
      rule: { any: [{ kind: 'import_statement' }, { kind: 'import_from_statement' }] },
    })) {
      const typeOnly = underTypeChecking(node);
      if (node.kind() === 'import_from_statement') {
        const module = node.field('module_name');
        if (module) out.push({ specifier: module.text(), line: at(node), typeOnly });
      } else {
        for (const child of node.children()) {
          if (child.kind() === 'dotted_name') out.push({ specifier: child.text(), line: at(node), typeOnly });
          if (child.kind() === 'aliased_import')
            out.push({ specifier: child.field('name')?.text() ?? child.text(), line: at(node), typeOnly });
        }
      }
    }
    return out;
  }
  if (language === 'go') {
    for (const node of top.findAll({ rule: { kind: 'import_spec' } })) {
      const path = node.field('path');
      if (path) out.push({ specifier: unquote(path.text()), line: at(node) });
    }
    return out;
  }
  if (language === 'java') {
    for (const node of top.findAll({ rule: { kind: 'import_declaration' } })) {
      const name = node.children().find((c) => c.kind() === 'scoped_identifier' || c.kind() === 'identifier');
      const star = node.children().some((c) => c.kind() === 'asterisk');
      if (name) out.push({ specifier: `${name.text()}${star ? '.*' : ''}`, line: at(node) });
    }
    return out;
  }
  for (const node of top.findAll({
    rule: { any: [{ kind: 'import_statement' }, { kind: 'export_statement' }, { kind: 'call_expression' }] },
  })) {
    if (node.kind() === 'call_expression') {
      const fn = node.field('function')?.text();
      if (fn !== 'require' && fn !== 'import') continue;
      const arg = node
        .field('arguments')
        ?.children()
        .find((c) => c.kind() === 'string' || c.kind() === 'template_string');
      if (arg && !arg.text().includes('${')) out.push({ specifier: unquote(arg.text()), line: at(node) });
      continue;
    }
    const source = node.field('source');
    if (source) out.push({ specifier: unquote(source.text()), line: at(node), typeOnly: typeOnlyStatement(node) });
  }
  return out;
}

/** What the resolver knows of the repository: module roots and aliases, read once per review. */
export interface ResolveContext {
  /** `tsconfig.json` `compilerOptions.paths`, with `baseUrl` applied: alias pattern → target patterns. */
  tsPaths: Array<[string, string[]]>;
  /** `go.mod`'s module path. */
  goModule: string | null;
}

const JS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];

function jsCandidates(base: string): string[] {
  const stem = base.replace(/\.(?:m|c)?js$|\.jsx$/, '');
  const out = [base];
  for (const ext of JS_EXTENSIONS) out.push(`${stem}${ext}`);
  for (const ext of JS_EXTENSIONS) out.push(`${base}/index${ext}`);
  return out;
}

const clean = (p: string) => posix.normalize(p).replace(/^\.\//, '');

/** The repo-relative files an import may resolve to; empty for a package (a bare specifier). */
export function candidatesOf(
  ref: ImportRef,
  fromPath: string,
  language: StructuralLanguage,
  context: ResolveContext,
): string[] {
  const dir = posix.dirname(fromPath);
  const spec = ref.specifier;
  if (language === 'python') {
    const dots = /^\.+/.exec(spec)?.[0].length ?? 0;
    const rest = spec.slice(dots).replace(/\./g, '/');
    const bases = dots ? [posix.join(dir, ...Array(dots - 1).fill('..'), rest)] : [rest, `src/${rest}`];
    return bases.map(clean).flatMap((b) => [`${b}.py`, `${b}/__init__.py`, b]);
  }
  if (language === 'go') {
    if (!context.goModule || !(spec === context.goModule || spec.startsWith(`${context.goModule}/`))) return [];
    const rel = spec.slice(context.goModule.length + 1) || '.';
    return [clean(rel), `${clean(rel)}/x.go`];
  }
  if (language === 'java') {
    const rel = spec.replace(/\.\*$/, '/*').replace(/\./g, '/').replace(/\/\*$/, '/x');
    return ['', 'src/main/java/', 'src/'].map((root) => `${root}${rel}.java`);
  }
  if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..')
    return jsCandidates(clean(posix.join(dir, spec)));
  if (spec.startsWith('/')) return jsCandidates(clean(spec.slice(1)));
  for (const [alias, targets] of context.tsPaths) {
    const star = alias.indexOf('*');
    const matched =
      star === -1
        ? spec === alias
          ? ''
          : null
        : spec.startsWith(alias.slice(0, star)) && spec.endsWith(alias.slice(star + 1))
          ? spec.slice(star, spec.length - (alias.length - star - 1))
          : null;
    if (matched === null) continue;
    return targets.flatMap((t) => jsCandidates(clean(t.replace('*', matched))));
  }
  return [];
}

export interface Crossing {
  ref: ImportRef;
  /** The boundary entry it crosses. */
  boundary: string;
  /** The resolved target it crossed by, or null when the specifier itself matched. */
  target: string | null;
}

const matchers = new WeakMap<
  ImportsRule,
  { forbid: Array<[string, (p: string) => boolean]>; allow: Array<[string, (p: string) => boolean]> }
>();

function entryMatcher(entry: string): (p: string) => boolean {
  const glob = compileGlob(entry);
  return (p) => p === entry || p.startsWith(`${entry}/`) || glob(p);
}

/** The first boundary `ref` crosses (a forbid entry matching its specifier or a target, no allow entry matching), or null. */
export function crossing(rule: ImportsRule, ref: ImportRef, candidates: readonly string[]): Crossing | null {
  let compiled = matchers.get(rule);
  if (!compiled) {
    compiled = {
      forbid: rule.forbid.map((e) => [e, entryMatcher(e)]),
      allow: rule.allow.map((e) => [e, entryMatcher(e)]),
    };
    matchers.set(rule, compiled);
  }
  const hits = (list: Array<[string, (p: string) => boolean]>, value: string) =>
    list.find(([, test]) => test(value))?.[0];
  const bySpec = hits(compiled.forbid, ref.specifier);
  const byTarget = bySpec
    ? undefined
    : candidates.map((c) => [c, hits(compiled.forbid, c)] as const).find(([, e]) => e !== undefined);
  const boundary = bySpec ?? byTarget?.[1];
  if (boundary === undefined) return null;
  if (
    hits(compiled.allow, ref.specifier) !== undefined ||
    candidates.some((c) => hits(compiled.allow, c) !== undefined)
  )
    return null;
  return { ref, boundary, target: byTarget ? byTarget[0] : null };
}
