/**
 * Answers by kind (docs/gate.md): which verdicts take a finding out of the count. A credential
 * finding is suppressed by the answers gate.credentialAnswers allows (REJECT alone by default),
 * any other finding by REJECT, DEFER or ACKNOWLEDGE; ACCEPT never suppresses, and a counted
 * finding with a verdict carries it as `answer`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyVerdicts, openingAnswers } from '../../lib/review/findings/suppress.js';
import { CREDENTIAL_RULE_SOURCES } from '../../lib/review/builtin.js';
import type { Finding } from '../../lib/review/types.js';

const finding = (id: string, rule_source: string): Finding => ({
  id,
  path: 'src/a.ts',
  start_line: 1,
  line: 1,
  side: 'RIGHT',
  severity: 'security',
  category: 'security',
  title: 'A finding',
  body: '',
  rule_source,
  citations: [],
  suggestion_code: null,
  confidence: 1,
});

const CREDENTIAL = [...CREDENTIAL_RULE_SOURCES][0]!;
const VERDICTS = ['ACCEPT', 'REJECT', 'DEFER', 'ACKNOWLEDGE'] as const;
const ANSWERS = ['REJECT', 'DEFER', 'ACKNOWLEDGE'] as const;

test('default: a credential is suppressed by REJECT alone; DEFER and ACKNOWLEDGE leave it counted with its answer', () => {
  const key = finding('rf-0000000001', CREDENTIAL);
  const sql = finding('rf-0000000002', 'builtin/injection:sql-concat');
  const deferred = new Map([
    [key.id, { verdict: 'DEFER', rationale: 'rotate later' }],
    [sql.id, { verdict: 'DEFER', rationale: 'JIRA-1' }],
  ]);
  const out = applyVerdicts([key, sql], deferred);
  assert.deepEqual(
    out.counted.map((f) => [f.id, f.answer]),
    [[key.id, { verdict: 'DEFER', rationale: 'rotate later' }]],
  );
  assert.deepEqual(
    out.suppressed.map((f) => f.id),
    [sql.id],
  );
  assert.deepEqual(
    applyVerdicts([key], new Map([[key.id, { verdict: 'REJECT', rationale: 'a test value' }]])).suppressed.length,
    1,
  );
  assert.deepEqual(openingAnswers(key), ['REJECT']);
  assert.deepEqual(openingAnswers(sql), ['REJECT', 'DEFER', 'ACKNOWLEDGE']);
});

test('property: a finding is suppressed exactly when its verdict is an answer for its kind', () => {
  fc.assert(
    fc.property(
      fc.boolean(),
      fc.constantFrom(...VERDICTS),
      fc.uniqueArray(fc.constantFrom(...ANSWERS), { minLength: 1 }),
      (credential, verdict, allowed) => {
        const f = finding('rf-00000000aa', credential ? CREDENTIAL : 'builtin/debug:debugger');
        const out = applyVerdicts([f], new Map([[f.id, { verdict, rationale: 'why' }]]), allowed);
        const opens = verdict !== 'ACCEPT' && (!credential || (allowed as readonly string[]).includes(verdict));
        assert.equal(out.suppressed.length, opens ? 1 : 0);
        assert.equal(out.counted.length, opens ? 0 : 1);
        if (!opens) assert.deepEqual(out.counted[0]!.answer, { verdict, rationale: 'why' });
      },
    ),
  );
});
