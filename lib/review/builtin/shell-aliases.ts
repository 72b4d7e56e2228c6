/**
 * The local names a file gives the process calls the shell rule looks for: a renamed import
 * (`import { exec as run } from 'node:child_process'`, `const { execSync: sh } = require(…)`,
 * `from subprocess import run as sh`), a module under another name (`import * as proc from …`,
 * `import subprocess as sp`), or a call taken off the module (`const run = require(…).exec`).
 * Read once per file from the lines the diff shows (docs/review.md "Families", the shell rule): an import
 * the diff does not show is not known.
 */
import type { DiffFile } from '../../diff/types.js';

export interface ShellAliases {
  /** Matches a call through one of the local names, or null when the file has none. */
  pattern: RegExp | null;
  /** A local call, without spaces (`run(`, `proc.exec(`), → the call it stands for (`exec(`, `child_process.exec(`). */
  calls: ReadonlyMap<string, string>;
}

const NONE: ShellAliases = { pattern: null, calls: new Map() };
const JS_CALLS = new Set(['exec', 'execSync', 'spawn', 'spawnSync']);
// The names the rule's own pattern already reads as the module (lib/review/builtin/injection.ts).
const JS_KNOWN_MODULES = new Set(['child_process', 'childProcess', 'cp', 'shell']);
const PY_CALLS: Record<string, ReadonlySet<string>> = {
  os: new Set(['system', 'popen']),
  subprocess: new Set(['run', 'call', 'check_call', 'check_output', 'Popen', 'getoutput', 'getstatusoutput']),
};

const JS_MODULE = String.raw`\s*['"](?:node:)?child_process['"]`;
const JS_FORMS = {
  named: new RegExp(String.raw`\bimport\s*\{([^}]{0,2000})\}\s*from${JS_MODULE}`, 'g'),
  destructured: new RegExp(String.raw`\b(?:const|let|var)\s*\{([^}]{0,2000})\}\s*=\s*require\(${JS_MODULE}\s*\)`, 'g'),
  member: new RegExp(
    String.raw`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(${JS_MODULE}\s*\)\s*\.\s*([A-Za-z]+)\b`,
    'g',
  ),
  namespace: new RegExp(
    String.raw`\bimport\s+(?:\*\s*as\s+)?([A-Za-z_$][\w$]*)\s+from${JS_MODULE}|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(${JS_MODULE}\s*\)(?!\s*\.)`,
    'g',
  ),
};
const PY_FORMS = {
  from: /^[ \t]*from[ \t]+(os|subprocess)[ \t]+import[ \t]+(\([^)]{0,2000}\)|[^\n#]+)/gm,
  module: /^[ \t]*import[ \t]+(os|subprocess)[ \t]+as[ \t]+([A-Za-z_]\w*)/gm,
};

const escapeDollar = (name: string) => name.replace(/[$]/g, '\\$');
const cache = new WeakMap<DiffFile, ShellAliases>();

/** The file's new-side lines as the diff shows them, one hunk after another. */
function shownText(file: DiffFile): string {
  const lines: string[] = [];
  for (const hunk of file.hunks) for (const line of hunk.lines) if (line.kind !== 'del') lines.push(line.text);
  return lines.join('\n');
}

function jsAliases(text: string, bare: Map<string, string>, modules: Set<string>): void {
  // `exec as run` (import) and `exec: run` (destructuring).
  const specifiers = (list: string, separator: RegExp) => {
    for (const part of list.split(',')) {
      const [name, local] = part
        .trim()
        .split(separator)
        .map((s) => s.trim());
      if (name && local && JS_CALLS.has(name) && local !== name && /^[A-Za-z_$][\w$]*$/.test(local))
        bare.set(local, name);
    }
  };
  for (const m of text.matchAll(JS_FORMS.named)) specifiers(m[1]!.replace(/\btype\s+/g, ''), /\s+as\s+/);
  for (const m of text.matchAll(JS_FORMS.destructured)) specifiers(m[1]!, /\s*:\s*/);
  for (const m of text.matchAll(JS_FORMS.member)) if (JS_CALLS.has(m[2]!)) bare.set(m[1]!, m[2]!);
  for (const m of text.matchAll(JS_FORMS.namespace)) {
    const name = m[1] ?? m[2]!;
    if (!JS_KNOWN_MODULES.has(name)) modules.add(name);
  }
}

function pyAliases(text: string, bare: Map<string, string>, modules: Map<string, string>): void {
  for (const m of text.matchAll(PY_FORMS.from)) {
    const module = m[1]!;
    for (const part of m[2]!.replace(/[()\\]/g, ' ').split(',')) {
      const [name, local = name] = part
        .trim()
        .split(/\s+as\s+/)
        .map((s) => s.trim());
      // A bare `run(` after `from subprocess import run` is that call too.
      if (name && local && PY_CALLS[module]!.has(name) && /^[A-Za-z_]\w*$/.test(local))
        bare.set(local, `${module}.${name}`);
    }
  }
  for (const m of text.matchAll(PY_FORMS.module)) if (m[2] !== m[1]) modules.set(m[2]!, m[1]!);
}

/** The file's local names for the shell rule's calls (cached per file). */
export function shellAliases(file: DiffFile, path: string): ShellAliases {
  let found = cache.get(file);
  if (found) return found;
  found = NONE;
  const python = path.endsWith('.py');
  const text = shownText(file);
  // Most files import neither module: one substring test each, and nothing more.
  if (python ? /\b(?:os|subprocess)\b/.test(text) : text.includes('child_process')) {
    const bare = new Map<string, string>();
    const calls = new Map<string, string>();
    const alternatives: string[] = [];
    if (python) {
      const modules = new Map<string, string>();
      pyAliases(text, bare, modules);
      for (const [local, module] of modules) {
        for (const name of PY_CALLS[module]!) calls.set(`${local}.${name}(`, `${module}.${name}(`);
        alternatives.push(`\\b${local}\\s*\\.\\s*(?:${[...PY_CALLS[module]!].join('|')})\\s*\\(`);
      }
    } else {
      const modules = new Set<string>();
      jsAliases(text, bare, modules);
      for (const local of modules) {
        for (const name of JS_CALLS) calls.set(`${local}.${name}(`, `child_process.${name}(`);
        alternatives.push(`(?<![\\w$.])${escapeDollar(local)}\\s*\\.\\s*(?:${[...JS_CALLS].join('|')})\\s*\\(`);
      }
    }
    for (const [local, name] of bare) calls.set(`${local}(`, `${name}(`);
    if (bare.size) alternatives.push(`(?<![\\w$.])(?:${[...bare.keys()].map(escapeDollar).join('|')})\\s*\\(`);
    if (alternatives.length) found = { pattern: new RegExp(alternatives.join('|'), 'g'), calls };
  }
  cache.set(file, found);
  return found;
}
