/**
 * The signature reader's parse and the one decision of signed answers (lib/record/signatures.ts,
 * docs/gate.md "Signed answers"), without git; test/server/signed-answers.test.ts drives real
 * SSH signatures through the gate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { judgeSignature, parseSignatures, type CommitSignature } from '../../lib/record/signatures.js';
import { signedKinds } from '../../lib/review/findings/signed.js';

const sig = (over: Partial<CommitSignature> = {}): CommitSignature => ({
  commit: 'c'.repeat(40),
  status: 'G',
  signer: 'rev@example.com',
  key: 'SHA256:rev',
  author: 'rev@example.com',
  date: '2026-12-03T10:00:00+00:00',
  ...over,
});
const file = { path: '.revtrail/reviewers', present: true };

test("parseSignatures reads git's fields, an unsigned commit's empty ones included", () => {
  const text = [
    'a'.repeat(40),
    'G',
    'rev@example.com',
    'SHA256:x',
    'rev@example.com',
    '2026-12-03T10:00:00+00:00',
  ].join('\x1f');
  const unsigned = ['b'.repeat(40), 'N', '', '', 'ada@example.com', '2026-12-03T11:00:00+00:00'].join('\x1f');
  assert.deepEqual(parseSignatures(`${text}\n${unsigned}\n`), [
    {
      commit: 'a'.repeat(40),
      status: 'G',
      signer: 'rev@example.com',
      key: 'SHA256:x',
      author: 'rev@example.com',
      date: '2026-12-03T10:00:00+00:00',
    },
    {
      commit: 'b'.repeat(40),
      status: 'N',
      signer: '',
      key: '',
      author: 'ada@example.com',
      date: '2026-12-03T11:00:00+00:00',
    },
  ]);
});

test('an answer counts only when a listed reviewer who did not add the finding signed it', () => {
  const ada = sig({ commit: 'a'.repeat(40), author: 'ada@example.com', status: 'N', signer: '', key: '' });
  assert.deepEqual(judgeSignature(sig(), [ada], file), {
    counts: true,
    signer: 'rev@example.com',
    key: 'SHA256:rev',
    date: '2026-12-03T10:00:00+00:00',
  });
  assert.deepEqual(judgeSignature(undefined, [ada], file), { counts: false, why: { kind: 'queued' } });
  assert.equal(judgeSignature(sig({ status: 'N' }), [ada], file).counts, false);
  assert.deepEqual(judgeSignature(sig({ status: 'U', signer: '' }), [ada], file), {
    counts: false,
    why: { kind: 'unlisted', commit: 'c'.repeat(40), key: 'SHA256:rev' },
  });
  assert.deepEqual(judgeSignature(sig({ status: 'B' }), [ada], file), {
    counts: false,
    why: { kind: 'bad', commit: 'c'.repeat(40) },
  });
  // The finding's author signing (by e-mail, case aside), or the key that signed a commit adding it.
  assert.equal(judgeSignature(sig({ signer: 'Ada@Example.com' }), [ada], file).counts, false);
  assert.equal(
    judgeSignature(sig(), [sig({ commit: 'd'.repeat(40), author: 'x@example.com', signer: '' })], file).counts,
    false,
  );
  assert.deepEqual(judgeSignature(sig(), [ada], { path: '.revtrail/reviewers', present: false }), {
    counts: false,
    why: { kind: 'no-reviewers', file: '.revtrail/reviewers' },
  });
});

test('property: the decision is "good, listed, and nobody who added it" whatever the fields', () => {
  const who = fc.constantFrom('ada@example.com', 'rev@example.com', 'out@example.com', '');
  const status = fc.constantFrom('G', 'U', 'B', 'N', 'X', 'Y', 'R', 'E');
  const key = fc.constantFrom('SHA256:a', 'SHA256:r', '');
  const signature = fc.record({ status, signer: who, key, author: who }).map((s) => sig(s));
  fc.assert(
    fc.property(signature, fc.array(signature, { maxLength: 3 }), fc.boolean(), (answer, adders, present) => {
      const got = judgeSignature(answer, adders, { path: 'f', present });
      const lower = answer.signer.toLowerCase();
      const own = adders.some(
        (a) =>
          a.author.toLowerCase() === lower ||
          a.signer.toLowerCase() === lower ||
          (a.key !== '' && a.key === answer.key),
      );
      assert.equal(got.counts, present && answer.status === 'G' && answer.signer !== '' && !own);
    }),
  );
});

test('signedKinds: credentials, security, a rule_source, a rule_source folder', () => {
  const isCredential = (s: string) => s.startsWith('builtin/secrets:');
  const key = { rule_source: 'builtin/secrets:aws-access-key', severity: 'security' as const };
  const sql = { rule_source: 'okf/adr-12', severity: 'security' as const };
  const style = { rule_source: 'okf/adr-3', severity: 'nit' as const };
  assert.equal(signedKinds(['credentials'], isCredential)(key), true);
  assert.equal(signedKinds(['credentials'], isCredential)(sql), false);
  assert.equal(signedKinds(['security'], isCredential)(sql), true);
  assert.equal(signedKinds(['security'], isCredential)(style), false);
  assert.equal(signedKinds(['okf/adr-3'], isCredential)(style), true);
  assert.equal(signedKinds(['okf/*'], isCredential)(style), true);
  assert.equal(signedKinds(['other/*'], isCredential)(style), false);
});

test('the reviewers file: a regular file inside the policy folder; one outside it, a folder or a FIFO lists no one', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { execFileSync } = await import('node:child_process');
  const { join } = await import('node:path');
  const { tempDir } = await import('../kit/repo.js');
  const { reviewersFileAt, listedPrincipals } = await import('../../lib/record/signatures.js');
  const top = tempDir();
  mkdirSync(join(top, '.revtrail'));
  writeFileSync(
    join(top, '.revtrail', 'reviewers'),
    '# keys\nrev@example.com,lead@example.com ssh-ed25519 AAAA\nops@example.com ssh-ed25519 BBBB\n',
  );
  writeFileSync(join(top, '..', 'outside'), 'x@example.com ssh-ed25519 CCCC\n');
  execFileSync('mkfifo', [join(top, 'pipe')]);
  const inside = reviewersFileAt(top, '.revtrail/reviewers');
  assert.equal(inside.present, true);
  assert.deepEqual(listedPrincipals(inside), ['rev@example.com', 'lead@example.com', 'ops@example.com']);
  for (const name of ['../outside', '.revtrail', 'pipe', 'missing']) {
    const file = reviewersFileAt(top, name);
    assert.equal(file.present, false, name);
    assert.deepEqual(listedPrincipals(file), [], name);
  }
});
