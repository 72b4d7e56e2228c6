import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import fc from 'fast-check';
import { toYaml, yamlScalar } from '../../lib/candidates/yaml.js';

test('every string reads back as itself', () => {
  const strings = [
    'plain',
    'with space',
    'rf-0123456789',
    'decisions/adr-001:no-sql-concat',
    'src/a b.ts',
    '2024-01-01T00:00:00+00:00',
    'true',
    'No',
    'null',
    '~',
    '123',
    '1e3',
    '0x1F',
    '.inf',
    '- dash',
    '# hash',
    'a: b',
    'a #b',
    'ends:',
    ' lead',
    'trail ',
    'quote "x"',
    "it's",
    '`code`',
    '{a}',
    '[a]',
    '*alias',
    '&anchor',
    '!tag',
    '%dir',
    '@at',
    'line\nbreak',
    'tab\tx',
    'Ünïcödé',
    '',
    'Fixed, with a comma',
    '> folded',
    '| literal',
    '?',
    ': x',
    'a\\b',
  ];
  for (const s of strings) assert.equal(parse(`v: ${yamlScalar(s)}`).v, s, JSON.stringify(s));
  assert.equal(parse(`v: ${yamlScalar(2)}`).v, 2);
  assert.equal(parse(`v: ${yamlScalar(true)}`).v, true);
  assert.equal(parse(`v: ${yamlScalar(null)}`).v, null);
});

test('nested objects and arrays read back equal', () => {
  const value = {
    id: 'kc-x',
    gate: {
      passed: true,
      min_recurrence: 2,
      files: ['a.ts', 'b c.ts'],
      signals: { merged: true },
      empty: [],
      none: {},
    },
    evidence: [
      { finding: 'rf-1', line: '2', rationale: 'Fixed: "quoted", with `code`' },
      { finding: 'rf-2', line: '3-4', rationale: '' },
    ],
    nested: [[1, 2], ['x']],
  };
  const text = `x:\n${toYaml(value, 2)}\n`;
  assert.deepEqual(parse(text), { x: value });
});

test('any plain data reads back equal, at any indentation (property)', () => {
  const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]));
  const key = fc.string().filter((k) => k !== '__proto__');
  const tree = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(key, tie('node'), { maxKeys: 4 }),
    ),
  })).node;
  fc.assert(
    fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 4 }), fc.nat(3), (generated, level) => {
      // fast-check's dictionaries may have no prototype; the YAML reader's always do.
      const value = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
      const indent = 2 * (level + 1);
      const text = `x:\n${toYaml(value, indent)}\n`;
      assert.deepEqual(parse(text), { x: value });
    }),
    { numRuns: 500 },
  );
});
