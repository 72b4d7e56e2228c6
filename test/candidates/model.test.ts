import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../lib/candidates/model.js';
import { CANDIDATE_STATUSES, TRUST_LEVEL, createCandidate, slugOf, type CandidateInput } from '../../lib/candidates/model.js';
import { SIGNALS } from '../../lib/gate/types.js';

const SHA = '1'.repeat(40);
function input(over: Record<string, unknown> = {}): CandidateInput {
  return {
    rule_source: 'decisions/adr-001:no-sql-concat',
    title: 'SQL built by concatenation',
    body: 'What history shows.',
    category: 'security',
    evidence: [{ finding: 'rf-00000000a1', commit: SHA, file: 'src/a.ts', line: '2', fix_commit: '2'.repeat(40), rationale: 'fixed' }],
    gate: { passed: true, min_recurrence: 2, threads: 2, files: ['src/a.ts', 'src/b.ts'], signals: Object.fromEntries(SIGNALS.map((s) => [s, true])) as Record<(typeof SIGNALS)[number], boolean> },
    generated_at: '2024-01-01T00:00:00+00:00',
    ...over,
  } as CandidateInput;
}

test('the module offers no way to approve, promote or publish: its exports are exactly these', () => {
  assert.deepEqual(Object.keys(model).sort(), ['CANDIDATE_STATUSES', 'CandidateRefused', 'TRUST_LEVEL', 'createCandidate', 'slugOf']);
  for (const name of Object.keys(model)) assert.doesNotMatch(name, /approv|promot|publish|verify|setTrust|setStatus/i);
});

test('the status enum has one member, generated; the trust level is the literal inferred', () => {
  assert.deepEqual([...CANDIDATE_STATUSES], ['generated']);
  assert.equal(TRUST_LEVEL, 'inferred');
  const c = createCandidate(input());
  assert.deepEqual([c.id, c.trust_level, c.status], ['kc-decisions-adr-001-no-sql-concat', 'inferred', 'generated']);
  assert.deepEqual(Object.keys(c), ['id', 'rule_source', 'title', 'body', 'category', 'evidence', 'gate', 'trust_level', 'status', 'generated_at']);
});

test('a caller cannot set the trust level or the status, nor change a candidate afterwards', () => {
  for (const over of [{ trust_level: 'verified' }, { trust_level: 'inferred' }, { status: 'approved' }, { status: 'generated' }, { approved: true }]) {
    assert.throws(() => createCandidate(input(over)), (e: Error) => e.name === 'CandidateRefused' && /not a knowledge candidate/.test(e.message), JSON.stringify(over));
  }
  const c = createCandidate(input());
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.evidence) && Object.isFrozen(c.evidence[0]) && Object.isFrozen(c.gate));
  assert.throws(() => {
    (c as unknown as { status: string }).status = 'approved';
  }, TypeError);
  assert.throws(() => {
    (c as unknown as { trust_level: string }).trust_level = 'verified';
  }, TypeError);
  assert.equal(c.status, 'generated');
});

test('construction refuses empty evidence, an empty body and an unmet gate', () => {
  assert.throws(() => createCandidate(input({ evidence: [] })), /needs evidence/);
  assert.throws(() => createCandidate(input({ body: '  \n' })), /needs a body/);
  assert.throws(() => createCandidate(input({ gate: { ...input().gate, passed: false } })), /needs a passed gate/);
  for (const s of SIGNALS) {
    const gate = { ...input().gate, signals: { ...input().gate.signals, [s]: false } };
    assert.throws(() => createCandidate(input({ gate })), new RegExp(`unmet: ${s}$`));
  }
});

test('slugs are lower case with single dashes', () => {
  assert.equal(slugOf('Decisions/ADR-001:No_SQL..Concat'), 'decisions-adr-001-no-sql-concat');
  assert.equal(slugOf('::'), 'rule');
});

test('every level has exactly its keys, each of its type: anything else is refused and named', () => {
  const gate = input().gate;
  const evidence = input().evidence[0]!;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ evidence: [{ ...evidence, extra: 1 }] }, /evidence\.0: unknown key "extra"$/],
    [{ evidence: [{ ...evidence, commit: 'HEAD' }] }, /evidence\.0\.commit: is not a commit ID/],
    [{ evidence: [evidence, { ...evidence, fix_commit: 'A'.repeat(40) }] }, /evidence\.1\.fix_commit: is not a commit ID/],
    [{ evidence: [{ ...evidence, file: '' }] }, /evidence\.0\.file: is empty$/],
    [{ evidence: [{ ...evidence, rationale: undefined }] }, /evidence\.0\.rationale: expected a string, got undefined$/],
    [{ evidence: 'none' }, /evidence: expected a list, got string$/],
    [{ gate: { ...gate, min_recurrence: 0 } }, /gate\.min_recurrence: must be 1 or more$/],
    [{ gate: { ...gate, min_recurrence: 1.5 } }, /gate\.min_recurrence: expected a whole number, got number$/],
    [{ gate: { ...gate, threads: '2' } }, /gate\.threads: expected a whole number, got string$/],
    [{ gate: { ...gate, files: ['a.ts', 3] } }, /gate\.files\.1: expected a string, got number$/],
    [{ gate: { ...gate, signals: { ...gate.signals, extra: true } } }, /gate\.signals: unknown key "extra"$/],
    [{ gate: { ...gate, signals: { ...gate.signals, merged: undefined } } }, /gate\.signals\.merged: expected true or false, got undefined$/],
    [{ gate: null }, /gate: expected an object, got null$/],
    [{ title: '' }, /title: is empty$/],
    [{ generated_at: 5 }, /generated_at: expected a string, got number$/],
  ];
  for (const [over, expected] of cases) {
    assert.throws(() => createCandidate(input(over)), (e: Error) => e.name === 'CandidateRefused' && expected.test(e.message), `${JSON.stringify(over)}: ${expected}`);
  }
  assert.throws(() => createCandidate([] as unknown as CandidateInput), /not a knowledge candidate: input: expected an object, got a list$/);
});

test('evidence is copied field by field, in the model order, whatever order the input had', () => {
  const e = input().evidence[0]!;
  const shuffled = { rationale: e.rationale, line: e.line, fix_commit: e.fix_commit, finding: e.finding, file: e.file, commit: e.commit };
  const c = createCandidate(input({ evidence: [shuffled] }));
  assert.deepEqual(Object.keys(c.evidence[0]!), ['finding', 'commit', 'file', 'line', 'fix_commit', 'rationale']);
  assert.deepEqual(c.evidence[0], e);
  assert.notEqual(c.evidence[0], shuffled);
});
