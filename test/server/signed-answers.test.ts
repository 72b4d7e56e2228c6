/**
 * Signed answers (docs/gate.md "Signed answers") with real git, real ssh-keygen keys and git's SSH
 * signing: main's policy names a reviewers file (allowed_signers) listing Ada (the developer) and
 * Rev; Out has a key no file lists. The server gate and the client's pre-push refuse an answer to
 * a key unless a listed reviewer other than the key's author signed the commit carrying it. The
 * cases share one bare repository and one clone and run in order, each on a branch of its own.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { withRun, writeShim, type HookRepo } from '../kit/hooks.js';

let bare: TestRepo;
let dev: HookRepo;
const keys: Record<'ada' | 'rev' | 'out', string> = { ada: '', rev: '', out: '' };
const email = (who: string) => `${who}@example.com`;
const idsIn = (text: string) => [...new Set([...text.matchAll(/\b(rf-[0-9a-f]{10})\b/g)].map((m) => m[1]!))];
// Two AWS-shaped key IDs (split so this file holds none).
const KEY_A = 'AKIA' + 'QYLPMN2RZ4TK7WXB';
const KEY_B = 'AKIA' + 'ZT3KQW7RMNXL5PJD';

/** A commit by `who` (author and committer), signed with `signer`'s key when given. */
function commitAs(who: string, message: string | null, signer?: keyof typeof keys, args: string[] = []): string {
  const env = {
    GIT_AUTHOR_NAME: who,
    GIT_AUTHOR_EMAIL: email(who),
    GIT_COMMITTER_NAME: who,
    GIT_COMMITTER_EMAIL: email(who),
  };
  const sign = signer ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${keys[signer]}`] : [];
  dev.git(
    [
      ...sign,
      'commit',
      '-q',
      '--allow-empty',
      ...(signer ? ['-S'] : []),
      ...args,
      ...(message === null ? [] : ['-m', message]),
    ],
    {
      env,
    },
  );
  return dev.git(['rev-parse', 'HEAD']).trim();
}

/** The REJECT row for a finding the gate named, committed by `who`. */
function answer(id: string, path: string, who: string, signer?: keyof typeof keys): string {
  const row = `${id},${path},1,builtin/secrets:aws-access-key,security,security,AWS access key ID committed,REJECT,the vendor's documented example key`;
  return commitAs(who, `chore: answer ${id}`, signer, ['--trailer', `Review-Finding: ${row}`]);
}

/**
 * A branch from main with a key in `path`, committed by Ada (the test's default author) and signed
 * with her listed key, so git verifies who added it (test/server/signed-authors.test.ts has the
 * unsigned ones).
 */
function keyBranch(name: string, path: string, line: string): void {
  dev.git(['checkout', '-q', '-B', name, 'origin/main']);
  dev.commit(`feat: ${name}`, { [path]: line }, { args: [`-S${keys.ada}`] });
}

const push = (branch: string) => dev.run(['push', 'origin', `${branch}:refs/heads/${branch}`]);
/** A push of `branch` the server refuses, saying `why`. */
async function refused(branch: string, why: RegExp): Promise<string> {
  const run = await push(branch);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, why);
  return run.stderr;
}
const remoteHas = (ref: string) => bare.git(['for-each-ref', '--format=%(objectname)', ref]).trim();

before(async () => {
  const dir = tempDir();
  for (const who of Object.keys(keys) as Array<keyof typeof keys>) {
    keys[who] = join(dir, who);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', who, '-f', keys[who]]);
  }
  const line = (who: 'ada' | 'rev') => `${email(who)} ${readFileSync(`${keys[who]}.pub`, 'utf8').trim()}`;
  bare = makeRepo({ bare: true });
  dev = withRun(makeRepo());
  dev.git(['remote', 'add', 'origin', bare.dir]);
  dev.git(['config', 'gpg.format', 'ssh']);
  dev.commit('chore: policy', {
    'revtrail.config.json': JSON.stringify({ gate: { reviewers: { file: '.revtrail/reviewers' } } }),
    '.revtrail/reviewers': `# who may answer a key\n${line('ada')}\n${line('rev')}\n`,
  });
  dev.git(['push', '-q', 'origin', 'main']);
  bare.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  const installed = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(installed.code, 0, installed.stderr);
  dev.git(['fetch', '-q', 'origin']);
});

test('an unsigned REJECT, written by the key’s own author, is refused with who may sign', async () => {
  keyBranch('unsigned', 'src/a.js', `export const key = "${KEY_A}";\n`);
  const first = await push('unsigned');
  assert.equal(first.code, 1, first.stderr);
  const [id] = idsIn(first.stderr);
  assert.ok(id, first.stderr);
  answer(id, 'src/a.js', 'ada');
  const again = await push('unsigned');
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stderr, new RegExp(`${id} was answered REJECT in [0-9a-f]{12}, which is not signed`));
  assert.match(
    again.stderr,
    new RegExp(
      `${id} opens with an answer signed by a reviewer of \\.revtrail/reviewers \\(ada@example\\.com, rev@example\\.com\\)`,
    ),
  );
  assert.match(again.stderr, /git commit -S --allow-empty/);
  assert.equal(remoteHas('refs/heads/unsigned'), '');

  // The client's pre-push tells the developer the same before the push (the work tree's policy).
  const sha = dev.git(['rev-parse', 'HEAD']).trim();
  const local = await dev.cli(['hook', 'pre-push', 'origin', bare.dir], {
    input: `refs/heads/unsigned ${sha} refs/heads/unsigned ${'0'.repeat(40)}\n`,
  });
  assert.equal(local.code, 1, local.stderr);
  assert.match(local.stderr, new RegExp(`${id} was answered REJECT in [0-9a-f]{12}, which is not signed`));

  // CI reviews a pull request as templates/ci/review.sh does: the server gate's review of one ref
  // update, with the base branch's commit as the policy ref.
  dev.git(['update-ref', 'refs/revtrail-ci/policy', 'origin/main']);
  dev.git(['config', 'revtrail.policyRef', 'refs/revtrail-ci/policy']);
  const fork = dev.git(['merge-base', 'origin/main', 'HEAD']).trim();
  const ci = await dev.cli(['hook', 'update', 'refs/revtrail-ci/head', fork, sha]);
  dev.git(['config', '--unset', 'revtrail.policyRef']);
  assert.equal(ci.code, 1, ci.stderr);
  assert.match(ci.stderr, new RegExp(`${id} was answered REJECT in [0-9a-f]{12}, which is not signed`));
});

test('a REJECT signed by the key’s author, or by a key no reviewer file lists, is refused; a listed second person’s opens the gate', async () => {
  keyBranch('signed', 'src/b.js', `export const key = "${KEY_B}";\n`);
  const [id] = idsIn((await push('signed')).stderr);
  assert.ok(id);
  const base = dev.git(['rev-parse', 'HEAD']).trim();

  answer(id, 'src/b.js', 'ada', 'ada');
  await refused(
    'signed',
    new RegExp(
      `${id} was answered REJECT in [0-9a-f]{12}, signed by ada@example\\.com, who wrote or signed a pushed commit that adds it`,
    ),
  );

  dev.git(['reset', '-q', '--hard', base]);
  answer(id, 'src/b.js', 'out', 'out');
  await refused(
    'signed',
    new RegExp(
      `${id} was answered REJECT in [0-9a-f]{12}, signed by key SHA256:\\S+, which the reviewers file does not list`,
    ),
  );

  dev.git(['reset', '-q', '--hard', base]);
  const signed = answer(id, 'src/b.js', 'rev', 'rev');
  // Tampered: the developer rewrites the reviewer's commit (here: amends it) and signs it with their own key.
  commitAs('ada', null, 'ada', ['--amend', '--no-edit']);
  await refused('signed', /signed by ada@example\.com, who wrote or signed/);
  // Rewritten without a signature: unsigned.
  dev.git(['reset', '-q', '--hard', signed]);
  commitAs('rev', null, undefined, ['--amend', '--no-edit']);
  await refused('signed', /which is not signed/);

  dev.git(['reset', '-q', '--hard', signed]);
  const through = await push('signed');
  assert.equal(through.code, 0, through.stderr);
  assert.match(
    through.stderr,
    new RegExp(
      `remote: revtrail: ${id} at src/b\\.js:1 \\(builtin/secrets:aws-access-key\\) is answered REJECT, signed by rev@example\\.com \\(SHA256:\\S+\\) in ${signed.slice(0, 12)}: it does not block`,
    ),
  );
  assert.equal(remoteHas('refs/heads/signed'), signed);
});

test('an allow comment on a key needs a signed answer too; the reviewer answers with revtrail verdict and a signed commit, through the hooks', async () => {
  keyBranch('allowed', 'src/c.js', `export const key = "${KEY_A}"; // gitleaks:allow\n`);
  const first = await push('allowed');
  assert.equal(first.code, 1, first.stderr);
  const [id] = idsIn(first.stderr);
  assert.ok(id, first.stderr);
  assert.match(
    first.stderr,
    new RegExp(
      `${id} has an allow comment \\(gitleaks:allow\\), which does not open the gate for this kind without a signed answer`,
    ),
  );
  // The reviewer's clone as a team has it: revtrail's hooks installed, the queued verdict
  // written into the signed commit by commit-msg.
  writeShim(dev.dir);
  dev.write('.git/info/exclude', 'node_modules/\n');
  const installed = await dev.cli(['install']);
  assert.equal(installed.code, 0, installed.stderr);
  const queued = await dev.cli(['verdict', id, 'REJECT', 'the vendor example key, not ours']);
  assert.equal(queued.code, 0, queued.stderr);
  const signed = commitAs('rev', `chore: answer ${id}`, 'rev');
  assert.ok(
    dev.trailers(signed).some((row) => row.startsWith(`${id},src/c.js,1,`) && row.includes(',REJECT,')),
    dev.trailers(signed).join('\n'),
  );
  assert.match(dev.git(['cat-file', 'commit', signed]), /^gpgsig -----BEGIN SSH SIGNATURE-----$/m);
  const through = await push('allowed');
  assert.equal(through.code, 0, through.stderr);
  assert.match(through.stderr, new RegExp(`${id} .* is answered REJECT, signed by rev@example\\.com`));
});

test('stats audits every answer to a key: who added it, the answer, who signed it, or why it does not count', async () => {
  // One history holding each case: the unsigned answer, Rev's signed one, then Ada's own and Out's.
  dev.git(['checkout', '-q', '-B', 'audit', 'signed']);
  dev.git(['merge', '-q', '--no-edit', 'unsigned']);
  const unsignedId = idsIn(dev.git(['log', '--format=%B', 'unsigned']))[0]!;
  const selfSigned = answer(unsignedId, 'src/a.js', 'ada', 'ada');
  const outSigned = answer(unsignedId, 'src/a.js', 'out', 'out');
  const stats = await dev.cli(['stats', '--json']);
  assert.equal(stats.code, 0, stats.stderr);
  const audit = JSON.parse(stats.stdout).signed_answers;
  assert.equal(audit.file, '.revtrail/reviewers');
  assert.deepEqual(audit.kinds, ['credentials']);
  const seen = audit.answers.map((a: { answered_in: string; counts: boolean; why?: string; signer: string | null }) => [
    a.answered_in,
    a.counts,
    a.why ?? a.signer,
  ]);
  const signedTip = dev.git(['rev-parse', 'signed']).trim();
  const unsignedTip = dev.git(['rev-parse', 'unsigned']).trim();
  assert.deepEqual(
    seen.sort(),
    [
      [signedTip, true, 'rev@example.com'],
      [unsignedTip, false, 'unsigned'],
      [selfSigned, false, 'self'],
      [outSigned, false, 'unlisted'],
    ].sort(),
  );
  const rev = audit.answers.find((a: { counts: boolean }) => a.counts);
  assert.equal(rev.added_by, 'ada@example.com');
  assert.match(rev.key, /^SHA256:/);
  const text = await dev.cli(['stats']);
  assert.match(text.stdout, /Signed answers \(gate\.reviewers: \.revtrail\/reviewers, for credentials\): 4 answers/);
  assert.match(
    text.stdout,
    /added in [0-9a-f]{12} by ada@example\.com: REJECT .* signed by rev@example\.com \(SHA256:\S+\), opens the gate/,
  );
  assert.match(text.stdout, /does not count \(signed by the person who added the finding\)/);
  // mine writes the same audit as records, for any revisions.
  const mined = await dev.cli(['mine', '--signed-answers']);
  assert.equal(mined.code, 0, mined.stderr);
  const records = mined.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    records.map((r: { answered_in: string }) => r.answered_in).sort(),
    audit.answers.map((a: { answered_in: string }) => a.answered_in).sort(),
  );
  const redacted = await dev.cli(['mine', '--signed-answers', '--redact']);
  assert.doesNotMatch(redacted.stdout, /@example\.com/);
  const page = join(tempDir(), 'stats.html');
  assert.equal((await dev.cli(['stats', '--html', page])).code, 0);
  const html = readFileSync(page, 'utf8');
  assert.match(html, /<h2 id="signed">Signed answers: 4 answers/);
  assert.equal((html.match(/<tr data-id="rf-[0-9a-f]{10}" class="(good|bad)">/g) ?? []).length, 4);
  assert.match(html, /class="good">.*rev@example\.com <code>SHA256:/);
});
