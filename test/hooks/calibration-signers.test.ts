/**
 * Calibration's agreement where the policy names reviewers (docs/gate.md "Calibration"): the
 * people a demotion counts are the verified signers of the REJECTs (real ssh-keygen keys, git's
 * SSH signing), never the author e-mails the pusher wrote. One key under three e-mails is one
 * person; an unsigned REJECT counts for no one and not as a rejection; a second listed signer's
 * REJECT demotes the rule, in the pre-push, the local review and `stats` alike.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../kit/repo.js';
import { message, row } from '../kit/mine.js';
import { DEBUGGER_LINE, addRemote, installedRepo, type HookRepo } from '../kit/hooks.js';

const cleanups: Array<{ cleanup(): void }> = [];
after(() =>
  cleanups.forEach((c) => {
    c.cleanup();
  }),
);

const DEBUGGER = 'builtin/debug:debugger';
const as = (email: string) => ({ GIT_AUTHOR_NAME: email, GIT_AUTHOR_EMAIL: email });
const notBlocking = (rejected: number, verdicts: number) =>
  `not blocking: ${rejected} of ${verdicts} answered findings of this rule were rejected in this history (revtrail stats --rule ${DEBUGGER})`;

let ids = 0;
/** One debugger finding raised and REJECTed in one commit by `author`, signed with `key` when given. */
function reject(r: HookRepo, author: string, key?: string): string {
  const id = `rf-${(++ids).toString(16).padStart(10, 'd')}`;
  const base = {
    id,
    rule_source: DEBUGGER,
    file: 'src/old.js',
    issue: 'earlier finding',
    category: 'correctness',
    severity: 'bug',
  } as const;
  return r.commit(
    message(`chore: answer ${id}`, [
      row(base),
      row({ ...base, verdict: 'REJECT', rationale: 'false positive: only test fixtures' }),
    ]),
    {},
    { args: ['--no-verify', ...(key ? [`-S${key}`] : [])], env: as(author) },
  );
}

/** A branch off main adding a debugger statement, pushed through the pre-push hook. */
async function pushBranch(r: HookRepo, branch: string) {
  r.git(['checkout', '-q', '-B', branch, 'main']);
  r.commit(`feat: ${branch}`, { 'src/a.js': `${DEBUGGER_LINE}\n` }, { args: ['--no-verify'] });
  const push = await r.run(['push', 'origin', branch]);
  r.git(['checkout', '-q', 'main']);
  return push;
}

test('under gate.reviewers, one signing key REJECTing under three e-mails does not demote a rule (gate.minAuthors 2); a second listed signer does', async () => {
  const dir = tempDir();
  const keys = { ada: join(dir, 'ada'), rev: join(dir, 'rev') };
  for (const key of Object.values(keys)) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  const line = (who: keyof typeof keys) => `${who}@example.com ${readFileSync(`${keys[who]}.pub`, 'utf8').trim()}`;
  const r = await installedRepo();
  cleanups.push(r, addRemote(r));
  r.git(['config', 'gpg.format', 'ssh']);
  r.commit(
    'chore: reviewers',
    {
      'revtrail.config.json': JSON.stringify({ gate: { reviewers: { file: '.revtrail/reviewers' } } }),
      '.revtrail/reviewers': `${line('ada')}\n${line('rev')}\n`,
    },
    { args: ['--no-verify'] },
  );
  // Six REJECTs signed with Ada's one key, written as three people; two unsigned REJECTs as two more.
  for (const author of ['ada@example.com', 'a.lovelace@example.com', 'countess@example.org'])
    for (let i = 0; i < 2; i++) reject(r, author, keys.ada);
  reject(r, 'bo@example.com');
  reject(r, 'cy@example.com');
  assert.equal((await r.run(['push', '-q', '--no-verify', 'origin', 'main'])).code, 0);

  const alone = await pushBranch(r, 'alone');
  assert.equal(alone.code, 1, alone.stderr);
  assert.match(alone.stderr, /src\/a\.js:1 bug `debugger` statement left in \(builtin\/debug:debugger\)/);
  assert.doesNotMatch(alone.stderr, /not blocking/);
  const local = JSON.parse((await r.cli(['review', '--range', 'main..alone', '--format', 'json'])).stdout);
  assert.equal(local.event, 'REQUEST_CHANGES');
  assert.equal(local.findings[0].calibration, undefined);
  const stats = JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout);
  // The signers are the tally's input, never part of the calibration settings shown.
  assert.deepEqual([stats.calibration.minAuthors, 'signers' in stats.calibration], [2, false]);
  const ruleOf = async () =>
    JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout).rules.find(
      (x: { rule_source: string }) => x.rule_source === DEBUGGER,
    );
  const one = await ruleOf();
  // The unsigned REJECTs are answers (n = 8) but neither rejections nor anyone's.
  assert.deepEqual(
    [one.calibrated, one.rejecting_people, one.human_verdicts, one.answered_by],
    [false, 1, 8, [{ person: 'ada@example.com', ACCEPT: 0, REJECT: 6, DEFER: 0, ACKNOWLEDGE: 0 }]],
  );

  // A second listed reviewer signs one REJECT: two people, 7 of 9.
  const agreed = reject(r, 'rev@example.com', keys.rev);
  assert.equal((await r.run(['push', '-q', '--no-verify', 'origin', 'main'])).code, 0);
  const two = await pushBranch(r, 'two');
  assert.equal(two.code, 0, two.stderr);
  assert.ok(two.stderr.includes(notBlocking(7, 9)), two.stderr);
  const review = JSON.parse((await r.cli(['review', '--range', 'main..two', '--format', 'json'])).stdout);
  assert.deepEqual(review.findings[0].calibration, { rejected: 7, verdicts: 9, rate: 7 / 9 });
  const both = await ruleOf();
  assert.deepEqual([both.calibrated, both.rejecting_people, both.calibrated_since.commit], [true, 2, agreed]);
  assert.deepEqual(
    both.answered_by.map((a: { person: string; REJECT: number }) => [a.person, a.REJECT]),
    [
      ['ada@example.com', 6],
      ['rev@example.com', 1],
    ],
  );
  // candidates --explain reads the same tally.
  const explained = JSON.parse((await r.cli(['candidates', '--explain', DEBUGGER, '--json'])).stdout);
  assert.deepEqual(
    [
      explained.calibration.rejected,
      explained.calibration.verdicts,
      explained.calibration.calibrated,
      explained.calibration.rejecting_people,
      explained.calibration.since.commit,
    ],
    [7, 9, true, 2, agreed],
  );
});
