/**
 * Who signed the commits carrying answers, as calibration counts people where the policy names
 * reviewers (lib/record/answer-signers.ts, docs/gate.md "Calibration"), with real git and
 * ssh-keygen keys: keys linked by a shared key or principal are one person; an unsigned commit,
 * an unlisted key or a missing reviewers file is no one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, tempDir } from '../kit/repo.js';
import { answerSigners, reviewersFileAt } from '../../lib/record/answer-signers.js';

test('answerSigners: one person per linked keys and principals; unsigned, unlisted and no file are no one', async () => {
  const dir = tempDir();
  const key = (name: string) => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)]);
    return readFileSync(join(dir, `${name}.pub`), 'utf8').trim();
  };
  const [k1, k2, k3] = [key('k1'), key('k2'), key('k3')];
  key('k4');
  // k1 under two lines (two e-mails); k2 and k3 share the principal d@x; k4 is not listed.
  writeFileSync(join(dir, 'reviewers'), `b@x ${k1}\na@x ${k1}\nc@x,d@x ${k2}\nd@x ${k3}\n`);
  const repo = makeRepo();
  repo.git(['config', 'gpg.format', 'ssh']);
  const signed = (name?: string) =>
    repo.commit(
      `answer by ${name ?? 'nobody'}`,
      {},
      { args: ['--allow-empty', ...(name ? [`-S${join(dir, name)}`] : [])] },
    );
  const commits = { k1: signed('k1'), k2: signed('k2'), k3: signed('k3'), k4: signed('k4'), none: signed() };
  const file = reviewersFileAt(dir, 'reviewers');
  const people = await answerSigners(repo.dir, Object.values(commits), file);
  assert.equal(people.get(commits.k1), 'a@x');
  assert.equal(people.get(commits.k2), people.get(commits.k3));
  assert.equal(people.get(commits.k2), 'c@x');
  assert.equal(people.has(commits.k4), false);
  assert.equal(people.has(commits.none), false);
  assert.equal(people.size, 3);
  assert.equal((await answerSigners(repo.dir, Object.values(commits), reviewersFileAt(dir, 'missing'))).size, 0);
});
