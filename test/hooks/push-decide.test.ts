/**
 * The pre-push hook's one decision (lib/flows/push-decide.ts), as a table in the manner of
 * commitlint's rule tests: rows of facts, each with the decision it must give. The start bundle
 * and the full flow ask this same function (docs/hooks.md "One decision per hook").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decidePush, type PushDecision, type PushFacts, type PushRefFacts } from '../../lib/flows/push-decide.js';

const commits: PushRefFacts = { kind: 'commits', single: false };
const cleanRef: PushRefFacts = {
  ...commits,
  combined: { decision: 'clean', pieces: 3 },
  carried: 'clean',
  commits: 'clean',
};
const screens = { check: 'screens' as const, lastFindings: false };
const review: PushDecision = { kind: 'need', fact: 'review' };

const rows: Array<[name: string, facts: PushFacts, expected: PushDecision]> = [
  ['no ref line: pass', { bad: 0, refs: [] }, { kind: 'pass' }],
  ['a deletion only: pass', { bad: 0, refs: [{ kind: 'none', single: false }] }, { kind: 'pass' }],
  ['a bad ref line and nothing else: go on, naming it', { bad: 1, refs: [] }, { kind: 'go' }],
  ['a bad ref line beside work: the review', { bad: 1, refs: [commits] }, review],
  ['a tree or blob named by a ref: the review', { bad: 0, refs: [{ kind: 'object', single: false }] }, review],
  ['commits: the clean check and last-review.json first', { bad: 0, refs: [commits] }, { kind: 'need', fact: 'state' }],
  ['no current record: the review', { bad: 0, refs: [commits], check: 'none', lastFindings: false }, review],
  [
    'a record that does not screen patches: the review',
    { bad: 0, refs: [commits], check: 'combined', lastFindings: false },
    review,
  ],
  ['findings to erase: the review', { bad: 0, refs: [commits], check: 'screens', lastFindings: true }, review],
  ['then the combined diff', { bad: 0, refs: [commits], ...screens }, { kind: 'need', fact: 'combined', ref: 0 }],
  [
    'a combined diff a rule may reach: the review',
    { bad: 0, refs: [{ ...commits, combined: { decision: 'review' } }], ...screens },
    review,
  ],
  [
    'no pieces in several commits: the screen may not stand in for the review',
    { bad: 0, refs: [{ ...commits, combined: { decision: 'clean', pieces: 0 } }], ...screens },
    review,
  ],
  [
    'no pieces in one commit: on to its paths and metadata',
    { bad: 0, refs: [{ kind: 'commits', single: true, combined: { decision: 'clean', pieces: 0 } }], ...screens },
    { kind: 'need', fact: 'carried', ref: 0 },
  ],
  [
    'paths or metadata with a needle: the review',
    { bad: 0, refs: [{ ...commits, combined: { decision: 'clean', pieces: 2 }, carried: 'review' }], ...screens },
    review,
  ],
  [
    'then the commits',
    { bad: 0, refs: [{ ...commits, combined: { decision: 'clean', pieces: 2 }, carried: 'clean' }], ...screens },
    { kind: 'need', fact: 'commits', ref: 0 },
  ],
  ['a commit with a needle: the review', { bad: 0, refs: [{ ...cleanRef, commits: 'review' }], ...screens }, review],
  ['every screen clean: pass', { bad: 0, refs: [cleanRef], ...screens }, { kind: 'pass' }],
  [
    'the second ref, by its index past a deletion',
    { bad: 0, refs: [cleanRef, { kind: 'none', single: false }, commits], ...screens },
    { kind: 'need', fact: 'combined', ref: 2 },
  ],
  [
    'reviewed with a blocking ref: block',
    { bad: 0, refs: [cleanRef, commits], ...screens, blocked: 1 },
    { kind: 'block' },
  ],
  ['reviewed, nothing blocks: go on', { bad: 1, refs: [commits], blocked: 0 }, { kind: 'go' }],
  ['the review decides over the screens', { bad: 0, refs: [cleanRef], ...screens, blocked: 1 }, { kind: 'block' }],
];

for (const [name, facts, expected] of rows) {
  test(`decidePush: ${name}`, () => {
    assert.deepEqual(decidePush(facts), expected);
  });
}
