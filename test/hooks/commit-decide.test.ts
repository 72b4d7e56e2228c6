/**
 * The commit-msg hook's one decision (lib/flows/commit-decide.ts), as a table in the manner of
 * commitlint's rule tests: rows of facts, each with the decision it must give. The start bundle
 * and the full flow ask this same function (docs/hooks.md "One decision per hook").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decideCommit,
  decideCommitWith,
  type CommitDecision,
  type CommitFacts,
} from '../../lib/flows/commit-decide.js';

const base: CommitFacts = { settle: false, trailerLine: false };
/** A plain commit with the state read: the clean check is the next question. */
const plain: CommitFacts = { ...base, plan: 'commit', queued: false, lastFindings: false };

const rows: Array<[name: string, facts: CommitFacts, expected: CommitDecision]> = [
  ['nothing known: the plan first', base, { kind: 'need', fact: 'plan' }],
  ['a trailer line: the lint before anything', { ...base, trailerLine: true }, { kind: 'need', fact: 'lint' }],
  [
    'the lint refuses a row: blocked, whatever else is known',
    { ...plain, trailerLine: true, lintErrors: 2, clean: true, empty: true },
    { kind: 'block', why: 'lint' },
  ],
  ['the lint passes: on to the plan', { ...base, trailerLine: true, lintErrors: 0 }, { kind: 'need', fact: 'plan' }],
  ['an empty message stays empty', { ...base, empty: true }, { kind: 'empty' }],
  [
    'an empty message after a passing lint',
    { ...base, trailerLine: true, lintErrors: 0, empty: true },
    { kind: 'empty' },
  ],
  ['a plain commit: the verdict files', { ...base, plan: 'commit' }, { kind: 'need', fact: 'state' }],
  [
    'a plain commit, the queue read but not last-review.json',
    { ...base, plan: 'commit', queued: false },
    { kind: 'need', fact: 'state' },
  ],
  ['a plain commit: then the clean check', plain, { kind: 'need', fact: 'clean' }],
  ['clean, nothing else: pass', { ...plain, clean: true }, { kind: 'pass' }],
  ['clean, nothing else, the message known not empty: pass', { ...plain, clean: true, empty: false }, { kind: 'pass' }],
  [
    'clean with a queue: the message decides (unknown to the start)',
    { ...plain, clean: true, queued: true },
    { kind: 'need', fact: 'empty' },
  ],
  [
    'clean with a queue: recorded without the review',
    { ...plain, clean: true, queued: true, empty: false },
    { kind: 'record', reviewed: false },
  ],
  [
    'clean with findings to erase',
    { ...plain, clean: true, lastFindings: true, empty: false },
    { kind: 'record', reviewed: false },
  ],
  [
    'clean with a rebase to settle',
    { ...plain, settle: true, clean: true, empty: false },
    { kind: 'record', reviewed: false },
  ],
  [
    'clean with a hand-written row that passed the lint',
    { ...plain, trailerLine: true, lintErrors: 0, clean: true, empty: false },
    { kind: 'record', reviewed: false },
  ],
  ['not clean: the message decides before a review', { ...plain, clean: false }, { kind: 'need', fact: 'empty' }],
  ['not clean: the review', { ...plain, clean: false, empty: false }, { kind: 'need', fact: 'review' }],
  [
    'an amend is reviewed: no clean check, no verdict files',
    { ...base, plan: 'amend', empty: false },
    { kind: 'need', fact: 'review' },
  ],
  ['a merge is reviewed: no clean check', { ...base, plan: 'merge', empty: false }, { kind: 'need', fact: 'review' }],
  [
    'a credential blocks',
    { ...plain, clean: false, empty: false, review: { credentials: 1, blocks: false } },
    { kind: 'block', why: 'credential' },
  ],
  [
    'a credential blocks before commitMsg.block is asked',
    { ...base, plan: 'amend', empty: false, review: { credentials: 1, blocks: true } },
    { kind: 'block', why: 'credential' },
  ],
  [
    'commitMsg.block and REQUEST_CHANGES',
    { ...base, plan: 'merge', empty: false, review: { credentials: 0, blocks: true } },
    { kind: 'block', why: 'findings' },
  ],
  [
    'reviewed, nothing stops it: recorded',
    { ...plain, clean: false, empty: false, review: { credentials: 0, blocks: false } },
    { kind: 'record', reviewed: true },
  ],
];

for (const [name, facts, expected] of rows) {
  test(`decideCommit: ${name}`, () => {
    assert.deepEqual(decideCommit(facts), expected);
  });
}

test('decideCommitWith: gathers in the order the decision asks, and stops where a gatherer cannot answer', async () => {
  const facts: CommitFacts = { ...base };
  const asked: string[] = [];
  const decision = await decideCommitWith(facts, {
    plan: () => {
      asked.push('plan');
      facts.plan = 'commit';
    },
    state: () => {
      asked.push('state');
      facts.queued = false;
      facts.lastFindings = false;
    },
    clean: () => {
      asked.push('clean');
      facts.clean = false;
    },
  });
  assert.deepEqual(asked, ['plan', 'state', 'clean']);
  assert.deepEqual(decision, { kind: 'need', fact: 'empty' });
  // A gatherer that leaves its fact unknown is not asked again.
  const stuck = await decideCommitWith({ ...base }, { plan: () => {} });
  assert.deepEqual(stuck, { kind: 'need', fact: 'plan' });
  // One that answers false cannot gather it.
  assert.deepEqual(await decideCommitWith({ ...base }, { plan: () => false }), { kind: 'need', fact: 'plan' });
});
