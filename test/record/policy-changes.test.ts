/**
 * Changes to who may answer, read from history (lib/record/policy-changes.ts, docs/gate.md
 * "Changes to the reviewers") with real git: the audit's reading of a long history and the push
 * gate's reading of one move agree on each change's ID, and what is no change (a version bump in
 * package.json, the same settings in another key order, the first reviewers file) is not listed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo } from '../kit/repo.js';
import { policyChangesBetween, policyChangesIn } from '../../lib/record/policy-changes.js';

const pkg = (version: string, gate: Record<string, unknown>) =>
  JSON.stringify({ name: 'x', version, revtrail: { gate } });

test('the history lists each change to the reviewers file or gate.* with the ID the push gate gives it, and nothing else', async () => {
  const repo = makeRepo();
  const reviewers = { file: '.revtrail/reviewers' };
  repo.commit('chore: adopt', {
    'package.json': pkg('1.0.0', { reviewers }),
    '.revtrail/reviewers': 'a@x.com ssh-ed25519 AAAA\n',
  });
  for (let i = 1; i <= 5; i++) repo.commit(`chore: bump ${i}`, { 'package.json': pkg(`1.0.${i}`, { reviewers }) });
  const beforeAdd = repo.git(['rev-parse', 'HEAD']).trim();
  const added = repo.commit('chore: one more', {
    '.revtrail/reviewers': 'a@x.com ssh-ed25519 AAAA\nb@x.com ssh-ed25519 BBBB\n',
  });
  const deferred = repo.commit('chore: defer', {
    'package.json': pkg('1.0.6', { reviewers, credentialAnswers: ['REJECT', 'DEFER'] }),
  });
  // The same settings, keys in another order, and a version bump: no change.
  repo.commit('chore: reorder', {
    'package.json': pkg('1.0.7', { credentialAnswers: ['REJECT', 'DEFER'], reviewers }),
  });

  const listed = await policyChangesIn(repo.dir, ['HEAD'], '.revtrail/reviewers');
  assert.deepEqual(
    listed.map((c) => [c.commit, c.kind, c.path]),
    [
      [deferred, 'gate', 'package.json'],
      [added, 'reviewers', '.revtrail/reviewers'],
    ],
  );
  // The push gate, reading the move from before the reviewer was added to the tip, names the same IDs.
  const pushed = await policyChangesBetween(repo.dir, beforeAdd, 'HEAD', '.revtrail/reviewers');
  assert.deepEqual(pushed.map((c) => c.kind).sort(), ['gate', 'reviewers']);
  assert.equal(pushed.find((c) => c.kind === 'reviewers')!.id, listed[1]!.id);
  assert.equal(pushed.find((c) => c.kind === 'gate')!.id, listed[0]!.id);
  // Nothing changed between two commits that only bump the version.
  assert.deepEqual(await policyChangesBetween(repo.dir, 'HEAD~1', 'HEAD', '.revtrail/reviewers'), []);
});
