/**
 * Who wrote a key, as git can verify it (docs/gate.md "Signed answers", issue 58 items 1-3), with
 * real git, ssh-keygen keys made here and the server hook in a bare repository: a commit's author
 * is only what the pusher wrote, a key counts only while valid at the push, and a reviewer is every
 * principal and pattern of their reviewers line. Each refusal beside the legitimate push of the same
 * shape. The cases share one bare repository and one clone, each on a branch of its own.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { withRun, type HookRepo } from '../kit/hooks.js';

const PEOPLE = ['ada', 'rev', 'lead', 'mal', 'old', 'robert', 'ops'] as const;
type Person = (typeof PEOPLE)[number];
let bare: TestRepo;
let dev: HookRepo;
const keys = {} as Record<Person, string>;
const idsIn = (text: string) => [...new Set([...text.matchAll(/\b(rf-[0-9a-f]{10})\b/g)].map((m) => m[1]!))];
const remoteHas = (ref: string) => bare.git(['for-each-ref', '--format=%(objectname)', ref]).trim();

/** An AWS-shaped key ID made now, so no file holds one. */
function awsKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return `AKIA${Array.from({ length: 16 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;
}

/** A commit written as `email` (author and committer), signed with `signer`'s key when given. */
function commitAs(
  email: string,
  message: string,
  signer?: Person,
  options: { args?: string[]; files?: Record<string, string>; date?: string } = {},
): string {
  for (const [path, text] of Object.entries(options.files ?? {})) dev.write(path, text);
  if (options.files) dev.git(['add', '--', ...Object.keys(options.files)]);
  const name = email.split('@')[0]!;
  const env: NodeJS.ProcessEnv = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    ...(options.date ? { GIT_AUTHOR_DATE: options.date, GIT_COMMITTER_DATE: options.date } : {}),
  };
  const sign = signer ? [`-S${keys[signer]}`] : [];
  dev.git(['commit', '-q', '--allow-empty', ...sign, '-m', message, ...(options.args ?? [])], { env });
  return dev.git(['rev-parse', 'HEAD']).trim();
}

/** The REJECT row for `id` at `path`, committed as `email` and signed by `signer`. */
function answer(id: string, path: string, email: string, signer?: Person, date?: string): string {
  const row = `${id},${path},1,builtin/secrets:aws-access-key,security,security,AWS access key ID committed,REJECT,a test fixture`;
  return commitAs(email, `chore: answer ${id}`, signer, { args: ['--trailer', `Review-Finding: ${row}`], date });
}

/** A branch from main whose first commit adds a key, written as `email` (signed by `signer` when given); the finding's ID. */
async function keyBranch(name: string, email: string, signer?: Person): Promise<{ id: string; path: string }> {
  dev.git(['checkout', '-q', '-B', name, 'origin/main']);
  const path = `src/${name}.js`;
  commitAs(email, `feat: ${name}`, signer, { files: { [path]: `export const key = "${awsKey()}";\n` } });
  const first = await push(name);
  assert.equal(first.code, 1, first.stderr);
  const [id] = idsIn(first.stderr);
  assert.ok(id, first.stderr);
  return { id, path };
}

/** Pushes `branch`; `pusher` is the user the hosting authenticated (GL_USERNAME, as GitLab sets it for hooks). */
function push(branch: string, pusher?: string) {
  return dev.run(['push', 'origin', `${branch}:refs/heads/${branch}`], {
    env: pusher ? { GL_USERNAME: pusher } : {},
  });
}

async function refused(branch: string, why: RegExp, pusher?: string): Promise<void> {
  const run = await push(branch, pusher);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, why);
  assert.notEqual(remoteHas(`refs/heads/${branch}`), dev.git(['rev-parse', branch]).trim());
}

async function accepted(branch: string, said: RegExp, pusher?: string): Promise<void> {
  const run = await push(branch, pusher);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, said);
  assert.equal(remoteHas(`refs/heads/${branch}`), dev.git(['rev-parse', branch]).trim());
}

before(async () => {
  const dir = tempDir();
  for (const who of PEOPLE) {
    keys[who] = join(dir, who);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', who, '-f', keys[who]]);
  }
  const pub = (who: Person) => readFileSync(`${keys[who]}.pub`, 'utf8').trim();
  const reviewers = [
    ...(['ada', 'rev', 'lead', 'mal'] as const).map((who) => `${who}@example.com ${pub(who)}`),
    // A retired key: listed until 2020.
    `old@example.com valid-before="20200101" ${pub('old')}`,
    // One reviewer under two names, and one whose line is a pattern.
    `robert@corp.com,bob@corp.com ${pub('robert')}`,
    `*@corp.com ${pub('ops')}`,
  ];
  bare = makeRepo({ bare: true });
  dev = withRun(makeRepo());
  dev.git(['remote', 'add', 'origin', bare.dir]);
  dev.git(['config', 'gpg.format', 'ssh']);
  dev.commit('chore: policy', {
    'revtrail.config.json': JSON.stringify({ gate: { reviewers: { file: '.revtrail/reviewers' } } }),
    '.revtrail/reviewers': `${reviewers.join('\n')}\n`,
  });
  dev.git(['push', '-q', 'origin', 'main']);
  bare.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  const installed = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(installed.code, 0, installed.stderr);
  // The hosting's authenticated user, as GitLab hands it to hooks (docs/server.md "Who pushed").
  bare.git(['config', 'revtrail.pusherVariable', 'GL_USERNAME']);
  dev.git(['fetch', '-q', 'origin']);
});

test('a reviewer who writes a key under another name and signs the REJECT herself is refused; a second listed reviewer opens it', async () => {
  // Mallory, a listed reviewer, commits the key as Ada (unsigned: git cannot say who wrote it).
  const { id, path } = await keyBranch('forged', 'ada@example.com');
  answer(id, path, 'mal@example.com', 'mal');
  const unverified = new RegExp(
    `${id} was answered REJECT in [0-9a-f]{12}, signed by mal@example\\.com, but the commits that add it are not signed by a listed key, so who wrote it is unverified`,
  );
  await refused('forged', unverified);
  // The client's pre-push says the same before the push (it never trusts an environment variable).
  const tip = dev.git(['rev-parse', 'HEAD']).trim();
  const local = await dev.cli(['hook', 'pre-push', 'origin', bare.dir], {
    input: `refs/heads/forged ${tip} refs/heads/forged ${'0'.repeat(40)}\n`,
    env: { GL_USERNAME: 'ada' },
  });
  assert.equal(local.code, 1, local.stderr);
  assert.match(local.stderr, unverified);
  // The hosting says Mallory pushed: the signer herself, so still one person.
  await refused('forged', unverified, 'mal');

  // stats does not say "added by ada, signed by mal": the author is unverified and it does not count.
  const stats = await dev.cli(['stats']);
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(
    stats.stdout,
    /added in [0-9a-f]{12} by ada@example\.com \(unverified: that commit is not signed by a listed key\): REJECT .* does not count \(one reviewer's signature/,
  );
  assert.doesNotMatch(stats.stdout, /signed by mal@example\.com, opens the gate/);

  // A second listed reviewer signs an answer too: the push passes, naming both.
  const second = answer(id, path, 'rev@example.com', 'rev');
  await accepted(
    'forged',
    new RegExp(
      `${id} at ${path}:1 \\(builtin/secrets:aws-access-key\\) is answered REJECT, signed by rev@example\\.com \\(SHA256:\\S+\\) in ${second.slice(0, 12)} and by mal@example\\.com`,
    ),
  );
  const audit = JSON.parse((await dev.cli(['stats', '--json'])).stdout).signed_answers.answers;
  const counted = audit.find((a: { answered_in: string }) => a.answered_in === second);
  assert.equal(counted.counts, true);
  assert.equal(counted.added_verified, false);
  assert.equal(counted.second_signer, 'mal@example.com');

  // The same shape, one signature, pushed by someone the hosting authenticated who is not the signer.
  const other = await keyBranch('handed', 'ada@example.com');
  answer(other.id, other.path, 'mal@example.com', 'mal');
  await refused('handed', /who wrote it is unverified/);
  await accepted('handed', new RegExp(`${other.id} .* is answered REJECT, signed by mal@example\\.com`), 'ada');
});

test('a retired key is refused as expired, even with the committer date set inside its validity; a key listed without expiry opens it', async () => {
  const { id, path } = await keyBranch('retired', 'ada@example.com', 'ada');
  const base = dev.git(['rev-parse', 'HEAD']).trim();
  const expired = new RegExp(
    `${id} was answered REJECT in [0-9a-f]{12}, signed by key SHA256:\\S+, which expired: the reviewers file lists it valid before 2020-01-01`,
  );
  // Signed "in 2019": git's %G? says good (it judges the committer date); the gate judges now.
  answer(id, path, 'old@example.com', 'old', '2019-06-01T00:00:00Z');
  const judged = dev.git(['-c', 'gpg.ssh.allowedSignersFile=.revtrail/reviewers', 'log', '-1', '--format=%G?']);
  assert.equal(judged.trim(), 'G');
  await refused('retired', expired);
  // Signed today: expired, not "not listed".
  dev.git(['reset', '-q', '--hard', base]);
  answer(id, path, 'old@example.com', 'old');
  await refused('retired', expired);
  const run = await push('retired');
  assert.doesNotMatch(run.stderr, /which the reviewers file does not list/);

  dev.git(['reset', '-q', '--hard', base]);
  const signed = answer(id, path, 'rev@example.com', 'rev');
  await accepted(
    'retired',
    new RegExp(`${id} .* signed by rev@example\\.com \\(SHA256:\\S+\\) in ${signed.slice(0, 12)}`),
  );
});

test("a reviewer's line with several principals or a pattern covers the key's author; a reviewer it does not name opens it", async () => {
  // Robert writes the key as bob@corp.com; Ada, whom the hosting authenticated, pushes it.
  const { id, path } = await keyBranch('aliases', 'bob@corp.com');
  const base = dev.git(['rev-parse', 'HEAD']).trim();
  answer(id, path, 'robert@corp.com', 'robert');
  await refused(
    'aliases',
    new RegExp(
      `${id} was answered REJECT in [0-9a-f]{12}, signed by robert@corp\\.com, who wrote or signed a pushed commit`,
    ),
    'ada',
  );
  // The pattern line: %GS is "*@corp.com", which no author e-mail equals, yet it names bob@corp.com.
  dev.git(['reset', '-q', '--hard', base]);
  answer(id, path, 'ops@corp.com', 'ops');
  await refused('aliases', /signed by \*@corp\.com, who wrote or signed a pushed commit/, 'ada');

  dev.git(['reset', '-q', '--hard', base]);
  answer(id, path, 'rev@example.com', 'rev');
  await accepted('aliases', new RegExp(`${id} .* is answered REJECT, signed by rev@example\\.com`), 'ada');
});

test('a push to the policy branch that adds a reviewer or changes gate.* needs a listed reviewer’s signed answer; stats and mine list the change', async () => {
  const newKey = join(tempDir(), 'newcomer');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'newcomer', '-f', newKey]);
  const file = '.revtrail/reviewers';
  const listing = readFileSync(join(dev.dir, file), 'utf8');
  const added = `${listing}mal2@example.com ${readFileSync(`${newKey}.pub`, 'utf8').trim()}\n`;
  const row = (id: string, path: string, rule: string) =>
    `Review-Finding: ${id},${path},1,${rule},security,security,a change to who may answer,ACKNOWLEDGE,agreed`;

  // Mallory appends a key of hers and pushes main: refused, naming the change.
  dev.git(['checkout', '-q', '-B', 'main', 'origin/main']);
  const base = dev.git(['rev-parse', 'HEAD']).trim();
  commitAs('mal@example.com', 'chore: one more reviewer', 'mal', { files: { [file]: added } });
  const first = await push('main');
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, /\(builtin\/policy:reviewers\)/);
  const [id] = idsIn(first.stderr);
  assert.ok(id, first.stderr);
  // revtrail verdict knows no such finding in a clone: the refusal gives the row to commit.
  assert.match(first.stderr, /opens with an answer signed by a reviewer \.revtrail\/reviewers lists before this push/);
  assert.ok(
    first.stderr.includes(`--trailer "Review-Finding: ${id},${file},1,builtin/policy:reviewers,security,security,`),
    first.stderr,
  );
  assert.equal(remoteHas('refs/heads/main'), base);
  // Her own signed answer does not open it.
  commitAs('mal@example.com', `chore: answer ${id}`, 'mal', {
    args: ['--trailer', row(id, file, 'builtin/policy:reviewers')],
  });
  await refused(
    'main',
    new RegExp(`${id} was answered ACKNOWLEDGE in [0-9a-f]{12}, signed by mal@example\\.com, who wrote or signed`),
    'mal',
  );

  // gate.* too: Mallory lets DEFER open keys.
  dev.git(['reset', '-q', '--hard', base]);
  const config = JSON.parse(readFileSync(join(dev.dir, 'revtrail.config.json'), 'utf8'));
  config.gate.credentialAnswers = ['REJECT', 'DEFER'];
  commitAs('mal@example.com', 'chore: defer keys', 'mal', {
    files: { 'revtrail.config.json': JSON.stringify(config) },
  });
  const gate = await push('main', 'mal');
  assert.equal(gate.code, 1, gate.stderr);
  assert.match(gate.stderr, /\(builtin\/policy:gate\)/);
  assert.equal(remoteHas('refs/heads/main'), base);

  // The legitimate change: Ada adds the key in a commit she signs, Rev (listed before it) answers.
  dev.git(['reset', '-q', '--hard', base]);
  const change = commitAs('ada@example.com', 'chore: one more reviewer', 'ada', { files: { [file]: added } });
  const ask = await push('main');
  const [changeId] = idsIn(ask.stderr);
  assert.ok(changeId, ask.stderr);
  const signed = commitAs('rev@example.com', `chore: answer ${changeId}`, 'rev', {
    args: ['--trailer', row(changeId, file, 'builtin/policy:reviewers')],
  });
  await accepted(
    'main',
    new RegExp(
      `${changeId} at \\.revtrail/reviewers:1 \\(builtin/policy:reviewers\\) is answered ACKNOWLEDGE, signed by rev@example\\.com`,
    ),
  );
  assert.equal(remoteHas('refs/heads/main'), signed);

  const stats = await dev.cli(['stats', '--json']);
  assert.equal(stats.code, 0, stats.stderr);
  const changes = JSON.parse(stats.stdout).signed_answers.policy_changes;
  assert.deepEqual(
    changes.map((c: { commit: string; kind: string; id: string; answer: string; signer: string | null }) => [
      c.commit,
      c.kind,
      c.id,
      c.answer,
      c.signer,
    ]),
    [[change, 'reviewers', changeId, 'opened', 'rev@example.com']],
  );
  const text = await dev.cli(['stats']);
  assert.match(
    text.stdout,
    new RegExp(
      `Changes to who may answer \\(the reviewers file, gate\\.\\*\\): 1 change\\n  ${change.slice(0, 12)} \\.revtrail/reviewers by ada@example\\.com at \\S+: ${changeId}, answered and signed by rev@example\\.com`,
    ),
  );
  const mined = await dev.cli(['mine', '--signed-answers']);
  const records = mined.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(
    records.some((r: { policy_change?: boolean; commit?: string }) => r.policy_change && r.commit === change),
    mined.stdout,
  );
  assert.ok(
    records.some(
      (r: { id: string; answered_in?: string; counts?: boolean }) =>
        r.id === changeId && r.answered_in === signed && r.counts,
    ),
  );
});
