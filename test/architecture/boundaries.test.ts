/**
 * The stage order is one-way (docs/architecture.md): a stage imports only the stages listed
 * below it here, so a lower stage never reaches a higher one or the CLI. Type-only imports
 * count too: a type from a higher stage is a dependency on its design.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const lib = join(root, 'lib');

/** Each stage and the stages it may import directly; what those may import is allowed too. */
export const STAGES: Record<string, readonly string[]> = {
  messages: [],
  core: ['messages'],
  config: ['core'],
  record: ['config'],
  diff: ['core'],
  bundle: ['core'],
  workspace: ['config', 'bundle'],
  select: ['diff', 'bundle'],
  review: ['select', 'workspace', 'record'],
  report: ['review'],
  verdicts: ['report'],
  mine: ['record'],
  ci: ['core'],
  gate: ['mine', 'ci', 'diff'],
  stats: ['gate'],
  candidates: ['gate', 'bundle'],
  org: ['stats', 'candidates'],
  flows: ['verdicts', 'report', 'stats', 'org'],
  hooks: ['flows'],
  install: ['hooks'],
  demo: ['hooks', 'candidates'],
  lsp: ['flows'],
  cli: ['demo', 'install', 'org', 'lsp'],
  start: ['hooks', 'lsp'],
};

/** Leaves every stage may import: they import nothing themselves (checked below). */
const LEAVES = ['core/vocabulary.ts'];

function closure(stage: string, seen = new Set<string>()): Set<string> {
  for (const lower of STAGES[stage] ?? []) {
    if (seen.has(lower)) continue;
    seen.add(lower);
    closure(lower, seen);
  }
  return seen;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const stageOf = (file: string) => relative(lib, file).split(sep)[0]!;

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]!);
  // A specifier with no source behind it is text (the demo writes example code), not an import.
  return specs.map((s) => normalize(join(dirname(file), s))).filter((t) => existsSync(t.replace(/\.js$/, '.ts')));
}

test('every lib file lies in a known stage', () => {
  const unknown = sources(lib)
    .filter((f) => !(stageOf(f) in STAGES))
    .map((f) => relative(root, f));
  assert.deepEqual(unknown, []);
});

test('the stage order is one-way: no import reaches a stage that is not below', () => {
  const violations: string[] = [];
  for (const file of sources(lib)) {
    const from = stageOf(file);
    const allowed = closure(from);
    for (const target of imports(file)) {
      const to = stageOf(target);
      if (LEAVES.includes(relative(lib, target).replace(/\.js$/, '.ts'))) continue;
      if (to !== from && !allowed.has(to)) violations.push(`${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('a leaf imports nothing', () => {
  for (const leaf of LEAVES) assert.deepEqual(imports(join(lib, leaf)), [], leaf);
});

test('the stage table itself has no cycle', () => {
  for (const stage of Object.keys(STAGES)) assert.ok(!closure(stage).has(stage), `${stage} reaches itself`);
});

test('the checker sees a violation (it can fail)', () => {
  // bundle may not import review: the first cycle this test was written against.
  assert.ok(!closure('bundle').has('review'));
  assert.ok(closure('cli').has('core'));
  // The hook handlers never reach the install that writes them (lib/install/ reads their registry).
  assert.ok(!closure('hooks').has('install') && closure('install').has('hooks'));
});
