import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../lib/candidates/model.js';
import {
  CANDIDATE_STATUSES,
  TRUST_LEVEL,
  createCandidate,
  slugOf,
  type CandidateInput,
} from '../../lib/candidates/model.js';
import { SIGNALS } from '../../lib/gate/types.js';

const SHA = '1'.repeat(40);
function input(over: Record<string, unknown> = {}): CandidateInput {
  return {
    rule_source: 'decisions/adr-001:no-sql-concat',
    title: 'SQL built by concatenation',
    body: 'What history shows.',
    category: 'security',
    evidence: [
      {
        finding: 'rf-00000000a1',
        commit: SHA,
        file: 'src/a.ts',
        line: '2',
        fix_commit: '2'.repeat(40),
        rationale: 'fixed',
      },
    ],
    gate: {
      passed: true,
      min_recurrence: 2,
      threads: 2,
      files: ['src/a.ts', 'src/b.ts'],
      signals: Object.fromEntries(SIGNALS.map((s) => [s, true])) as Record<(typeof SIGNALS)[number], boolean>,
    },
    generated_at: '2024-01-01T00:00:00+00:00',
    ...over,
  } as CandidateInput;
}

test('the module offers no way to approve, promote or publish: its exports are exactly these', () => {
  assert.deepEqual(Object.keys(model).sort(), [
    'CANDIDATE_STATUSES',
    'CandidateRefused',
    'TRUST_LEVEL',
    'createCandidate',
    'slugOf',
  ]);
  for (const name of Object.keys(model)) assert.doesNotMatch(name, /approv|promot|publish|verify|setTrust|setStatus/i);
});

test('the status enum has one member, generated; the trust level is the literal inferred', () => {
  assert.deepEqual([...CANDIDATE_STATUSES], ['generated']);
  assert.equal(TRUST_LEVEL, 'inferred');
  const c = createCandidate(input());
  assert.deepEqual([c.id, c.trust_level, c.status], ['kc-decisions-adr-001-no-sql-concat', 'inferred', 'generated']);
  assert.deepEqual(Object.keys(c), [
    'id',
    'rule_source',
    'title',
    'body',
    'category',
    'evidence',
    'gate',
    'trust_level',
    'status',
    'generated_at',
  ]);
});

test('a caller cannot set the trust level or the status, nor change a candidate afterwards', () => {
  for (const over of [
    { trust_level: 'verified' },
    { trust_level: 'inferred' },
    { status: 'approved' },
    { status: 'generated' },
    { approved: true },
  ]) {
    assert.throws(
      () => createCandidate(input(over)),
      (e: Error) => e.name === 'CandidateRefused' && /not a knowledge candidate/.test(e.message),
      JSON.stringify(over),
    );
  }
  const c = createCandidate(input());
  assert.ok(
    Object.isFrozen(c) && Object.isFrozen(c.evidence) && Object.isFrozen(c.evidence[0]) && Object.isFrozen(c.gate),
  );
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
