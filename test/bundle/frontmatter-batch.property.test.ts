/**
 * Frontmatters parsed as one YAML stream (lib/bundle/frontmatter-batch.ts) give exactly what each
 * gives parsed alone: the same data, the same line for every key, the same error at the same
 * line; whatever else the stream holds (bad YAML, aliases, document markers, directives, CRs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseWith, yamlLibrary, type Parsed } from '../../lib/bundle/frontmatter.js';
import { parseMany, streamable } from '../../lib/bundle/frontmatter-batch.js';

// Whole lines: ones that parse (mostly), and ones chosen for what could read differently inside
// a stream or break it.
const GOOD = [
  'a: 1',
  'b: "x\\ny"',
  "c: 'q''s'",
  'd: |',
  'e: |+',
  'f: >-',
  'g: >+',
  '  text',
  '    deeper',
  '  ',
  '',
  '\t',
  '  - item',
  '  - *x',
  '- top',
  'h: &x val',
  'i: !!str 5',
  'j: [1, {k: v}]',
  'k: {l: [m]}',
  '# comment',
  'n:',
  '"q": 1',
  '1: one',
  'true: t',
  '~: nul',
  '? complex',
  ': value',
  'z:  trailing  ',
  '  # indented comment',
];
const TRICKY = [
  'o: "open',
  'p: @bad',
  'q: *nowhere',
  'r: &y [*y]',
  '---',
  '--- s',
  '...',
  '... # end',
  '%YAML 1.2',
  '%TAG ! tag:x,2000:',
  'u: 1\r',
  'v: a\rw: b',
  '\uFEFFx: 1',
  'y: - no',
];
const line = fc.oneof(
  { arbitrary: fc.constantFrom(...GOOD), weight: 6 },
  { arbitrary: fc.constantFrom(...TRICKY), weight: 1 },
);
const source = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom('', '', '\n', '  ', '\n  '))
  .map(([lines, end]) => lines.join('\n') + end);

/** Every key path of `data`, two levels deep, and a few that are not there. */
function pathsOf(data: unknown): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [['zz'], ['a', 0, 'b']];
  const walk = (value: unknown, path: Array<string | number>, depth: number) => {
    if (depth > 2 || value === null || typeof value !== 'object') return;
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    for (const [key, child] of entries) {
      out.push([...path, key]);
      walk(child, [...path, key], depth + 1);
    }
  };
  walk(data, [], 0);
  return out;
}

function view(parsed: Parsed, paths: Array<Array<string | number>>) {
  return parsed.ok ? { ok: true, data: parsed.data, lines: paths.map((p) => parsed.lineAt(p)) } : parsed;
}

test('a stream of frontmatters: each reads as it does alone (data, key lines, errors)', async () => {
  const yaml = await yamlLibrary();
  fc.assert(
    fc.property(fc.array(source, { minLength: 1, maxLength: 8 }), (sources) => {
      const many = parseMany(yaml, sources);
      assert.equal(many.length, sources.length);
      sources.forEach((s, i) => {
        const alone = parseWith(yaml, s);
        const paths = pathsOf(alone.ok ? alone.data : null);
        assert.deepStrictEqual(view(many[i]!, paths), view(alone, paths), JSON.stringify(s));
      });
    }),
    { numRuns: 500 },
  );
});

test('what may not share a stream: document markers, directives, lone CRs, a BOM, a blank last line', () => {
  for (const s of [
    'a: 1\n---',
    'a: 1\n--- b',
    'a: 1\n...',
    '%YAML 1.2\na: 1',
    'a: 1\rb: 2',
    '\uFEFFa: 1',
    'a: |+\n  x\n  ',
    'a: 1\n',
  ])
    assert.equal(streamable(s), false, JSON.stringify(s));
  for (const s of ['a: 1', 'a: |+\n  x', 'a: 1\n  # c', 'a: "---"', 'b: x ---'])
    assert.equal(streamable(s), true, JSON.stringify(s));
});
