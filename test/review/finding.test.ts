/** The finding contract: schema, JSON Schema, ids, scope checks, folding, event. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  assignIds,
  checkInScope,
  findingId,
  findingJsonSchema,
  findingSchema,
  parseSubmitted,
  type ChunkScope,
} from '../../lib/review/findings/index.js';
import { foldFindings } from '../../lib/review/findings/fold.js';
import { computeEvent } from '../../lib/review/findings/event.js';
import { applyVerdicts } from '../../lib/review/findings/suppress.js';
import { draft } from '../kit/review.js';

const submitted = (overrides: Record<string, unknown> = {}) => ({
  path: 'src/a.ts',
  start_line: 3,
  line: 4,
  severity: 'bug',
  category: 'correctness',
  title: 'Off by one',
  body: 'The loop stops one early.',
  citations: [],
  suggestion_code: null,
  confidence: 0.9,
  ...overrides,
});

describe('schema', () => {
  test('a well-formed submission gets side RIGHT and a default rule_source', () => {
    const r = parseSubmitted(submitted(), 'reviewer:correctness');
    assert.ok(r.ok);
    assert.equal(r.finding.side, 'RIGHT');
    assert.equal(r.finding.rule_source, 'reviewer:correctness');
    assert.ok(!('id' in r.finding), 'a submitted id is never kept');
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['line as a string', { line: '4' }, /^line: expected number, received string/],
    ['a title of 500 characters', { title: 'x'.repeat(500) }, /^title: must be at most 80 characters \(got 500\)/],
    ['a two-line title', { title: 'one\ntwo' }, /^title: must be one line/],
    [
      'a suggestion of 20 lines',
      { suggestion_code: Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n') },
      /^suggestion_code: must be at most 6 lines/,
    ],
    ['an unknown severity', { severity: 'critical' }, /^severity: "critical" is not one of bug/],
    ['an unknown category', { category: 'vibes' }, /^category: /],
    ['confidence above 1', { confidence: 1.5 }, /^confidence: /],
    ['a line of 0', { line: 0 }, /^line: must be greater than 0 \(got 0\)/],
    ['a missing body', { body: undefined }, /^body: required/],
    ['an unknown key', { extra: true }, /^finding: unknown key extra/],
    ['a bad rule_source', { rule_source: 'no colon here' }, /^rule_source: /],
  ];
  for (const [name, overrides, reason] of invalid) {
    test(`invalid: ${name}`, () => {
      const r = parseSubmitted(submitted(overrides), 'reviewer:x');
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.reason, 'invalid');
        assert.match(r.message, reason);
      }
    });
  }

  test('a suggestion of 6 lines (with a trailing newline) is fine; 7 is not', () => {
    const six = Array.from({ length: 6 }, (_, i) => `l${i}`).join('\n');
    assert.ok(parseSubmitted(submitted({ suggestion_code: six }), 'r:x').ok);
    assert.ok(parseSubmitted(submitted({ suggestion_code: `${six}\n` }), 'r:x').ok);
    assert.ok(!parseSubmitted(submitted({ suggestion_code: `${six}\nl6` }), 'r:x').ok);
  });

  test('not an object at all', () => {
    for (const raw of ['text', 42, null, [1]]) assert.equal(parseSubmitted(raw, 'r:x').ok, false);
  });

  test('the output schema requires every field and an rf- id of 10 hex', () => {
    const full = { ...submitted(), id: 'rf-0123456789', side: 'RIGHT', rule_source: 'a:b' };
    assert.ok(findingSchema.safeParse(full).success);
    assert.ok(!findingSchema.safeParse({ ...full, id: 'rf-12' }).success);
    const { body: _b, ...noBody } = full;
    assert.ok(!findingSchema.safeParse(noBody).success);
  });

  test('the JSON Schema handed to reviewer programs carries the enums and limits', () => {
    const schema = findingJsonSchema() as {
      type: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<
        string,
        { enum?: string[]; maxLength?: number; pattern?: string; minimum?: number; maximum?: number; anyOf?: unknown[] }
      >;
    };
    assert.equal(schema.type, 'object');
    assert.equal(schema.additionalProperties, false);
    for (const key of [
      'path',
      'start_line',
      'line',
      'severity',
      'category',
      'title',
      'body',
      'citations',
      'suggestion_code',
      'confidence',
    ]) {
      assert.ok(schema.required.includes(key), key);
    }
    assert.ok(!schema.required.includes('id') && !schema.required.includes('rule_source'));
    assert.deepEqual(schema.properties.severity!.enum, [
      'bug',
      'security',
      'api-surface',
      'test',
      'nit',
      'suggestion',
      'question',
    ]);
    assert.ok(schema.properties.category!.enum!.includes('architecture'));
    assert.equal(schema.properties.title!.maxLength, 80);
    assert.equal(schema.properties.confidence!.minimum, 0);
    assert.equal(schema.properties.confidence!.maximum, 1);
    assert.doesNotThrow(() => JSON.stringify(schema));
  });
});

describe('ids', () => {
  test('rf- and 10 hex, independent of the line number, distinct per occurrence', () => {
    const id = findingId('builtin/debug:debugger', 'src/a.ts', '  debugger;  ', 0);
    assert.match(id, /^rf-[0-9a-f]{10}$/);
    assert.equal(id, findingId('builtin/debug:debugger', 'src/a.ts', 'debugger;', 0), 'trimmed text');
    assert.notEqual(id, findingId('builtin/debug:debugger', 'src/a.ts', 'debugger;', 1));
    assert.notEqual(id, findingId('builtin/debug:debugger', 'src/b.ts', 'debugger;', 0));
    assert.notEqual(id, findingId('other:rule', 'src/a.ts', 'debugger;', 0));
  });

  test('ids survive a line shift; repeats of the same line text get occurrence indexes in line order', () => {
    const text = new Map([
      [10, 'debugger;'],
      [20, 'debugger;'],
      [30, 'other();'],
    ]);
    const shifted = new Map([
      [15, 'debugger;'],
      [25, 'debugger;'],
      [35, 'other();'],
    ]);
    const a = assignIds(
      [draft({ line: 20, start_line: 20 }), draft({ line: 10, start_line: 10 }), draft({ line: 30, start_line: 30 })],
      (d) => text.get(d.line)!,
    );
    const b = assignIds(
      [draft({ line: 15, start_line: 15 }), draft({ line: 25, start_line: 25 }), draft({ line: 35, start_line: 35 })],
      (d) => shifted.get(d.line)!,
    );
    assert.equal(a[1]!.id, b[0]!.id, 'first occurrence');
    assert.equal(a[0]!.id, b[1]!.id, 'second occurrence');
    assert.equal(a[2]!.id, b[2]!.id);
    assert.equal(new Set(a.map((f) => f.id)).size, 3);
  });
});

describe('scope checks', () => {
  const scope: ChunkScope = {
    path: 'src/a.ts',
    changedLines: new Set([3, 4, 5, 9]),
    allowedCitations: new Set(['adr-1', 'adr-2']),
  };
  const check = (overrides: Record<string, unknown>, min = 0.8) => {
    const parsed = parseSubmitted(submitted(overrides), 'reviewer:x');
    assert.ok(parsed.ok);
    return checkInScope(parsed.finding, scope, min);
  };
  test('inside the changed lines, no citations needed outside architecture', () => assert.ok(check({}).ok));
  test('below minConfidence: low_confidence', () =>
    assert.equal((check({ confidence: 0.5 }) as { reason: string }).reason, 'low_confidence'));
  test('a line outside the chunk: off_diff, naming the changed lines', () => {
    const r = check({ start_line: 9, line: 12 });
    assert.ok(!r.ok && r.reason === 'off_diff');
    assert.match(r.message, /line 12 is not a changed line of src\/a\.ts \(changed: 3-5, 9\)/);
  });
  test('start_line after line: off_diff', () =>
    assert.equal((check({ start_line: 5, line: 4 }) as { reason: string }).reason, 'off_diff'));
  test('another file: off_diff', () =>
    assert.equal((check({ path: 'src/b.ts' }) as { reason: string }).reason, 'off_diff'));
  test('architecture without citations: bad_citation', () => {
    const r = check({ category: 'architecture' });
    assert.ok(!r.ok && r.reason === 'bad_citation');
  });
  test('a citation not selected for the chunk: bad_citation naming the allowed ids', () => {
    const r = check({ category: 'architecture', citations: ['adr-1', 'adr-9'] });
    assert.ok(!r.ok && r.reason === 'bad_citation');
    assert.match(r.message, /"adr-9".*allowed: adr-1, adr-2/);
  });
  test('an architecture finding citing a selected document passes', () =>
    assert.ok(check({ category: 'architecture', citations: ['adr-2'] }).ok));
});

describe('folding', () => {
  const arch = draft({
    category: 'architecture',
    severity: 'nit',
    title: 'Layering',
    body: 'ADR-1 says no.',
    citations: ['adr-1'],
    start_line: 10,
    line: 12,
    rule_source: 'adr-1:layers',
  });
  const specific = draft({
    category: 'security',
    severity: 'security',
    title: 'SQL injection',
    body: 'Concatenated SQL.',
    citations: ['adr-1', 'adr-3'],
    start_line: 12,
    line: 14,
    rule_source: 'reviewer:security',
    suggestion_code: 'db.query(q, [id])',
  });

  test('overlapping, exactly one architecture, a common citation: one finding', () => {
    const { findings, merged } = foldFindings([arch, specific]);
    assert.equal(merged, 1);
    assert.equal(findings.length, 1);
    const f = findings[0]!;
    assert.equal(f.category, 'architecture');
    assert.equal(f.severity, 'security');
    assert.equal(f.title, 'SQL injection');
    assert.equal(f.body, 'Concatenated SQL.\n\nADR-1 says no.');
    assert.equal(f.start_line, 10);
    assert.equal(f.line, 14);
    assert.deepEqual(f.citations, ['adr-1', 'adr-3']);
    assert.equal(f.rule_source, 'adr-1:layers');
    assert.equal(f.suggestion_code, 'db.query(q, [id])');
  });
  test('severity order: security > bug > api-surface > test > suggestion > question > nit', () => {
    const fold = (a: string, b: string) =>
      foldFindings([
        { ...arch, severity: a as never },
        { ...specific, severity: b as never },
      ]).findings[0]!.severity;
    assert.equal(fold('bug', 'api-surface'), 'bug');
    assert.equal(fold('test', 'api-surface'), 'api-surface');
    assert.equal(fold('nit', 'question'), 'question');
    assert.equal(fold('suggestion', 'question'), 'suggestion');
    assert.equal(fold('nit', 'test'), 'test');
  });
  test('no fold: no common citation, no overlap, another file, both or neither architecture', () => {
    assert.equal(foldFindings([arch, { ...specific, citations: ['adr-3'] }]).merged, 0);
    assert.equal(foldFindings([arch, { ...specific, start_line: 13, line: 14 }]).merged, 0);
    assert.equal(foldFindings([arch, { ...specific, path: 'src/b.ts' }]).merged, 0);
    assert.equal(foldFindings([arch, { ...specific, category: 'architecture' }]).merged, 0);
    assert.equal(foldFindings([{ ...arch, category: 'style' }, specific]).merged, 0);
  });
  test('a chain folds into one and counts each fold', () => {
    const third = {
      ...specific,
      severity: 'bug' as const,
      title: 'Missing await',
      start_line: 11,
      line: 11,
      rule_source: 'reviewer:async',
      category: 'async' as const,
    };
    const r = foldFindings([arch, specific, third]);
    assert.equal(r.findings.length, 1);
    assert.equal(r.merged, 2);
  });
});

describe('event and verdicts', () => {
  const f = (severity: string) => ({ severity }) as { severity: never };
  test('no counted findings: APPROVE', () => assert.equal(computeEvent([], false), 'APPROVE'));
  test('bug, security, api-surface: REQUEST_CHANGES', () => {
    for (const s of ['bug', 'security', 'api-surface'])
      assert.equal(computeEvent([f('nit'), f(s)], false), 'REQUEST_CHANGES');
  });
  test('test: REQUEST_CHANGES unless softTests', () => {
    assert.equal(computeEvent([f('test')], false), 'REQUEST_CHANGES');
    assert.equal(computeEvent([f('test')], true), 'COMMENT');
  });
  test('nit, suggestion, question: COMMENT', () =>
    assert.equal(computeEvent([f('nit'), f('suggestion'), f('question')], false), 'COMMENT'));
  test('REJECT, DEFER, ACKNOWLEDGE suppress; ACCEPT does not', () => {
    const findings = assignIds(
      ['a', 'b', 'c', 'd', 'e'].map((t, i) => draft({ line: i + 1, start_line: i + 1, title: t })),
      (d) => `line ${d.line}`,
    );
    const verdicts = new Map([
      [findings[0]!.id, { verdict: 'REJECT', rationale: 'false positive: `grep` shows no caller' }],
      [findings[1]!.id, { verdict: 'DEFER', rationale: 'JIRA-12' }],
      [findings[2]!.id, { verdict: 'ACKNOWLEDGE', rationale: 'documented intent' }],
      [findings[3]!.id, { verdict: 'ACCEPT', rationale: 'fixed in abc1234' }],
    ]);
    const { counted, suppressed } = applyVerdicts(findings, verdicts);
    assert.deepEqual(
      suppressed.map((s) => [s.title, s.verdict]),
      [
        ['a', 'REJECT'],
        ['b', 'DEFER'],
        ['c', 'ACKNOWLEDGE'],
      ],
    );
    assert.deepEqual(
      counted.map((c) => c.title),
      ['d', 'e'],
    );
    assert.equal(suppressed[1]!.rationale, 'JIRA-12');
  });
});
