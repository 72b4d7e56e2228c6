/**
 * The signature reader's parse and the one decision of signed answers (lib/record/signatures.ts,
 * docs/gate.md "Signed answers"), without git; test/server/signed-answers.test.ts drives real
 * SSH signatures through the gate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  judgeAnswers,
  parseSignatures,
  type CommitSignature,
  type ReviewersKeys,
} from '../../lib/record/signatures.js';
import { parseAllowedSigners, principalMatches, validity, type SignerLine } from '../../lib/record/allowed-signers.js';
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

const line = (principals: string[], key: string, over: Partial<SignerLine> = {}): SignerLine => ({
  principals,
  key,
  certAuthority: false,
  ...over,
});
const NOW = Date.UTC(2026, 11, 6);
const keys = (...lines: SignerLine[]): ReviewersKeys => ({ path: '.revtrail/reviewers', present: true, lines });
const team = keys(
  line(['ada@example.com'], 'SHA256:ada'),
  line(['rev@example.com'], 'SHA256:rev'),
  line(['lead@example.com'], 'SHA256:lead'),
);
const at = { now: NOW };

test('an answer counts only when a listed reviewer who did not add the finding signed it', () => {
  // Ada's commit adding the finding is signed by her listed key: who wrote it is known.
  const ada = sig({ commit: 'a'.repeat(40), author: 'ada@example.com', signer: 'ada@example.com', key: 'SHA256:ada' });
  assert.deepEqual(judgeAnswers([sig()], [ada], team, at), {
    counts: true,
    signer: 'rev@example.com',
    key: 'SHA256:rev',
    date: '2026-12-03T10:00:00+00:00',
    commit: 'c'.repeat(40),
    how: 'verified',
  });
  assert.deepEqual(judgeAnswers([], [ada], team, at), { counts: false, why: { kind: 'queued' } });
  assert.equal(judgeAnswers([sig({ status: 'N' })], [ada], team, at).counts, false);
  assert.deepEqual(judgeAnswers([sig({ status: 'U', signer: '', key: 'SHA256:out' })], [ada], team, at), {
    counts: false,
    why: { kind: 'unlisted', commit: 'c'.repeat(40), key: 'SHA256:out' },
  });
  assert.deepEqual(judgeAnswers([sig({ status: 'B' })], [ada], team, at), {
    counts: false,
    why: { kind: 'bad', commit: 'c'.repeat(40) },
  });
  // The finding's author signing (by e-mail, case aside), or the key that signed a commit adding it.
  assert.equal(judgeAnswers([sig({ signer: 'Ada@Example.com', key: 'SHA256:ada' })], [ada], team, at).counts, false);
  assert.equal(
    judgeAnswers([sig()], [sig({ commit: 'd'.repeat(40), author: 'x@example.com', signer: '' })], team, at).counts,
    false,
  );
  assert.deepEqual(judgeAnswers([sig()], [ada], { ...team, present: false }, at), {
    counts: false,
    why: { kind: 'no-reviewers', file: '.revtrail/reviewers' },
  });
});

test('an adding commit not signed by a listed key: one reviewer is not enough; a second, or a pusher who is not the signer, is', () => {
  const unsigned = sig({ commit: 'a'.repeat(40), author: 'ada@example.com', status: 'N', signer: '', key: '' });
  const byOut = sig({ commit: 'a'.repeat(40), author: 'ada@example.com', status: 'U', signer: '', key: 'SHA256:out' });
  const lead = sig({ commit: 'e'.repeat(40), signer: 'lead@example.com', key: 'SHA256:lead' });
  for (const adder of [unsigned, byOut]) {
    assert.deepEqual(judgeAnswers([sig()], [adder], team, at), {
      counts: false,
      why: { kind: 'unverified', commit: 'c'.repeat(40), signer: 'rev@example.com' },
    });
    const two = judgeAnswers([sig(), lead], [adder], team, at);
    assert.equal(two.counts && two.how, 'two');
    assert.equal(two.counts && two.second?.signer, 'lead@example.com');
    // The same reviewer twice (the same key, or the same principal on another key) is one reviewer.
    assert.equal(judgeAnswers([sig(), sig({ commit: 'f'.repeat(40) })], [adder], team, at).counts, false);
    const revAgain = keys(...team.lines, line(['rev@example.com'], 'SHA256:rev2'));
    const rev2 = sig({ commit: 'f'.repeat(40), key: 'SHA256:rev2' });
    assert.equal(judgeAnswers([sig(), rev2], [adder], revAgain, at).counts, false);
    // The server's authenticated pusher: someone other than the signer opens it, the signer does not.
    const pushed = judgeAnswers([sig()], [adder], team, { now: NOW, pusher: 'ada' });
    assert.equal(pushed.counts && pushed.how, 'pusher');
    for (const pusher of ['rev', 'REV@example.com'])
      assert.equal(judgeAnswers([sig()], [adder], team, { now: NOW, pusher }).counts, false, pusher);
  }
  // No commit known to add it is no verified author either.
  assert.equal(judgeAnswers([sig()], [], team, at).counts, false);
});

test("a key counts only while the file lists it valid at the push, whatever the commit's date; the refusal says expired", () => {
  const ada = sig({ commit: 'a'.repeat(40), author: 'ada@example.com', signer: 'ada@example.com', key: 'SHA256:ada' });
  const retired = keys(
    line(['ada@example.com'], 'SHA256:ada'),
    line(['rev@example.com'], 'SHA256:rev', { validBefore: Date.UTC(2020, 0, 1) }),
  );
  // git says G when the committer date (the signer's choice) lies inside the key's window.
  for (const status of ['G', 'U'])
    assert.deepEqual(judgeAnswers([sig({ status, date: '2019-06-01T00:00:00+00:00' })], [ada], retired, at), {
      counts: false,
      why: { kind: 'expired', commit: 'c'.repeat(40), key: 'SHA256:rev', until: '2020-01-01' },
    });
  const later = keys(
    line(['ada@example.com'], 'SHA256:ada'),
    line(['rev@example.com'], 'SHA256:rev', { validAfter: NOW + 86_400_000 }),
  );
  assert.equal(judgeAnswers([sig()], [ada], later, at).counts, false);
  assert.equal((judgeAnswers([sig()], [ada], later, at) as { why: { kind: string } }).why.kind, 'not-yet');
  // Listed without an end, or with one ahead: it counts.
  const current = keys(
    line(['ada@example.com'], 'SHA256:ada'),
    line(['rev@example.com'], 'SHA256:rev', { validBefore: NOW + 1 }),
  );
  assert.equal(judgeAnswers([sig()], [ada], current, at).counts, true);
});

test("the author is compared with every principal and pattern of the signer's line", () => {
  const rob = sig({ commit: 'a'.repeat(40), author: 'rob@corp.com', signer: 'ada@example.com', key: 'SHA256:ada' });
  const robert = sig({ signer: 'robert@corp.com', key: 'SHA256:rob' });
  for (const principals of [['*@corp.com'], ['robert@corp.com', 'rob@corp.com'], ['robert@corp.com', 'r?b@corp.com']]) {
    const file = keys(line(['ada@example.com'], 'SHA256:ada'), line(principals, 'SHA256:rob'));
    assert.deepEqual(
      judgeAnswers([robert], [rob], file, at),
      {
        counts: false,
        why: { kind: 'self', commit: 'c'.repeat(40), signer: 'robert@corp.com' },
      },
      principals.join(','),
    );
  }
  // A reviewer whose line does not name the author answers it.
  const other = keys(line(['ada@example.com'], 'SHA256:ada'), line(['robert@corp.com', 'bob@corp.com'], 'SHA256:rob'));
  assert.equal(judgeAnswers([robert], [rob], other, at).counts, true);
});

test('parseAllowedSigners: principals, options, the key as git prints it; principalMatches: patterns', () => {
  const blob = Buffer.from('not a real key, bytes to hash').toString('base64');
  const lines = parseAllowedSigners(
    [
      '# reviewers',
      `Rev@Example.com,*@corp.com namespaces="git",valid-before="20200101Z" ssh-ed25519 ${blob} rev`,
      `lead@example.com ssh-ed25519 ${blob}`,
      `broken@example.com valid-after="tomorrow" ssh-ed25519 ${blob}`,
      'nokey@example.com ssh-ed25519',
    ].join('\n'),
  );
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0]!.principals, ['rev@example.com', '*@corp.com']);
  assert.equal(lines[0]!.validBefore, Date.UTC(2020, 0, 1));
  assert.match(lines[0]!.key, /^SHA256:[A-Za-z0-9+/]{43}$/);
  assert.equal(lines[1]!.key, lines[0]!.key);
  assert.equal(validity(lines[0]!, NOW), 'expired');
  assert.equal(validity(lines[1]!, NOW), 'valid');
  assert.equal(principalMatches('bob@corp.com', lines[0]!.principals), true);
  assert.equal(principalMatches('bob@corp.com.evil', lines[0]!.principals), false);
  assert.equal(principalMatches('', ['*']), false);
});

test('property: the decision is "good, listed and valid now, nobody who added it, and a verified author or a second reviewer"', () => {
  const who = fc.constantFrom('ada@example.com', 'rev@example.com', 'out@example.com', '');
  const status = fc.constantFrom('G', 'U', 'B', 'N', 'X', 'Y', 'R', 'E');
  const key = fc.constantFrom('SHA256:ada', 'SHA256:rev', 'SHA256:old', '');
  const signature = fc.record({ status, signer: who, key, author: who }).map((s) => sig(s));
  const file = keys(
    line(['ada@example.com'], 'SHA256:ada'),
    line(['rev@example.com'], 'SHA256:rev'),
    line(['rev@example.com'], 'SHA256:old', { validBefore: NOW - 1 }),
  );
  const valid = new Set(['SHA256:ada', 'SHA256:rev']);
  const owner = (k: string) => (k === 'SHA256:ada' ? 'ada@example.com' : 'rev@example.com');
  fc.assert(
    fc.property(
      fc.array(signature, { maxLength: 3 }),
      fc.array(signature, { maxLength: 3 }),
      fc.boolean(),
      (answers, adders, present) => {
        const got = judgeAnswers(answers, adders, { ...file, present }, at);
        const ok = (s: CommitSignature) => s.status === 'G' && s.signer !== '' && valid.has(s.key);
        const names = (s: CommitSignature) => new Set([s.signer.toLowerCase(), owner(s.key)]);
        const own = (s: CommitSignature) =>
          adders.some(
            (a) =>
              names(s).has(a.author) ||
              (a.key !== '' && a.key === s.key) ||
              names(s).has(a.signer) ||
              (ok(a) && [...names(a)].some((n) => names(s).has(n))),
          );
        const good = answers.filter((s) => ok(s) && !own(s));
        const people = new Set(good.flatMap((s) => [...names(s)]));
        const verified = adders.length > 0 && adders.every(ok);
        const distinct =
          good.length > 1 && [...good.map(names)].some((n) => ![...n].some((x) => names(good[0]!).has(x)));
        assert.equal(
          got.counts,
          present && good.length > 0 && (verified || distinct),
          JSON.stringify({ answers, adders, people: [...people] }),
        );
      },
    ),
  );
});

test('property: a pusher who is every good signer opens nothing that one without a pusher would not; another pusher opens what one good answer would', () => {
  const status = fc.constantFrom('G', 'U', 'N');
  const who = fc.constantFrom('rev', 'lead', 'ada');
  const answer = fc
    .record({ status, who })
    .map(({ status, who }) =>
      sig({ commit: `${who}`.padEnd(40, '0'), status, signer: `${who}@example.com`, key: `SHA256:${who}` }),
    );
  const adder = fc.record({ status, who }).map(({ status, who }) =>
    sig({
      commit: 'a'.repeat(40),
      status,
      author: `${who}@example.com`,
      signer: `${who}@example.com`,
      key: `SHA256:${who}`,
    }),
  );
  fc.assert(
    fc.property(
      fc.array(answer, { maxLength: 3 }),
      fc.array(adder, { minLength: 1, maxLength: 2 }),
      (answers, adders) => {
        const alone = judgeAnswers(answers, adders, team, at);
        const signers = new Set(answers.filter((a) => a.status === 'G').map((a) => a.signer));
        if (signers.size === 1) {
          const [only] = [...signers];
          const bySigner = judgeAnswers(answers, adders, team, { now: NOW, pusher: only! });
          assert.equal(bySigner.counts, alone.counts);
        }
        const byOther = judgeAnswers(answers, adders, team, { now: NOW, pusher: 'someone-else' });
        const oneGood = answers.some(
          (a) =>
            a.status === 'G' && !adders.some((d) => d.author === a.signer || (d.status === 'G' && d.key === a.key)),
        );
        assert.equal(byOther.counts, oneGood);
      },
    ),
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
