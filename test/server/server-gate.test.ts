/**
 * The server gate (docs/server.md) with real git: one bare repository with the hook that
 * `revtrail install --server` writes, and one clone with no revtrail hooks at all (as a push with
 * --no-verify, REVTRAIL=0 or a GUI client without node would be). The cases share both and run
 * in order; each leaves the clone at the remote's main.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, fixturesDir, makeRepo, runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { AWS_KEY, withRun, type HookRepo } from '../kit/hooks.js';

let bare: TestRepo;
let dev: HookRepo;
const hookFile = () => join(bare.dir, 'hooks', 'pre-receive');
const remoteMain = () => bare.git(['rev-parse', 'refs/heads/main']).trim();
const remoteHas = (ref: string) => bare.git(['for-each-ref', '--format=%(objectname)', ref]).trim() || null;
const idsIn = (text: string) => [...text.matchAll(/\b(rf-[0-9a-f]{10})\b/g)].map((m) => m[1]!);
const backToRemote = () => {
  dev.git(['fetch', '-q', 'origin']);
  dev.git(['checkout', '-q', 'main']);
  dev.git(['reset', '-q', '--hard', 'origin/main']);
};
const push = (...args: string[]) => dev.run(['push', 'origin', ...args]);

before(async () => {
  bare = makeRepo({ bare: true });
  dev = withRun(makeRepo());
  dev.git(['remote', 'add', 'origin', bare.dir]);
  // An empty repository has no policy yet: install says to push the policy's branch first.
  const early = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(early.code, 2, early.stderr);
  assert.match(early.stderr, /this repository's HEAD names refs\/heads\/\w+, which does not exist/);
  assert.match(early.stderr, /Push the branch that holds the team's policy first/);
  // The test bundle: one ADR whose rule flags db.query( under src/controllers/.
  cpSync(join(fixturesDir, 'hooks', 'okfw'), join(dev.dir, '.okfw'), { recursive: true });
  dev.commit('chore: start', { 'README.md': 'hello\n' });
  const first = await push('main');
  assert.equal(first.code, 0, first.stderr);
  bare.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  const installed = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /server hook written: .*hooks\/pre-receive/);
  assert.match(installed.stdout, /every push is reviewed with the policy refs\/heads\/main has before it/);
});

test('install --server: the hook names node and the CLI by absolute path; a second install is a no-op; a foreign hook is kept', async () => {
  const text = readFileSync(hookFile(), 'utf8');
  assert.ok(text.includes(`'${process.execPath}'`) || text.includes('/node'), text);
  assert.match(text, /revtrail_cli='\/.*bin\/revtrail\.js'/);
  const again = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /is up to date/);
  const other = makeRepo({ bare: true });
  dev.git(['push', '-q', other.dir, 'main:main']);
  other.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  writeFileSync(join(other.dir, 'hooks', 'pre-receive'), '#!/bin/sh\nexit 0\n');
  const refused = await runCli(['install', '--server', other.dir], { cwd: tempDir() });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /pre-receive exists and was not written by revtrail; it is left as it is/);
  assert.equal(readFileSync(join(other.dir, 'hooks', 'pre-receive'), 'utf8'), '#!/bin/sh\nexit 0\n');
  // Gitea's layout: its own pre-receive runs every hook in pre-receive.d/.
  mkdirSync(join(other.dir, 'hooks', 'pre-receive.d'));
  const gitea = await runCli(['install', '--server', other.dir], { cwd: tempDir() });
  assert.equal(gitea.code, 0, gitea.stderr);
  assert.match(gitea.stdout, /hooks\/pre-receive\.d\/revtrail/);
  const printed = await runCli(['install', '--print-server-hook'], { cwd: tempDir() });
  assert.equal(printed.stdout, readFileSync(join(other.dir, 'hooks', 'pre-receive.d', 'revtrail'), 'utf8'));
  const removed = await runCli(['uninstall', '--server', other.dir], { cwd: tempDir() });
  assert.match(removed.stdout, /removed .*pre-receive\.d\/revtrail/);
  assert.equal(readFileSync(join(other.dir, 'hooks', 'pre-receive'), 'utf8'), '#!/bin/sh\nexit 0\n');
});

test('a clean push is accepted', async () => {
  const tip = dev.commit('docs: more', { 'docs/notes.txt': 'fine\n' });
  const pushed = await push('main');
  assert.equal(pushed.code, 0, pushed.stderr);
  assert.equal(remoteMain(), tip);
});

test('an AWS key pushed without any client hook is rejected with the finding; the remote ref does not move', async () => {
  const before = remoteMain();
  dev.commit('feat: key', { 'src/config.js': `export const key = "${AWS_KEY}";\n` });
  dev.commit('fix: env', { 'src/config.js': 'export const key = process.env.KEY;\n' });
  const pushed = await push('main');
  assert.equal(pushed.code, 1, pushed.stderr);
  assert.match(pushed.stderr, /remote: revtrail: push blocked: 1 blocking finding/);
  assert.match(
    pushed.stderr,
    /remote: +src\/config\.js:1 security AWS access key ID committed \(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10}/,
  );
  assert.match(pushed.stderr, /revtrail verdict rf-[0-9a-f]{10} /);
  assert.match(pushed.stderr, /pre-receive hook declined/);
  assert.equal(remoteMain(), before);

  // REVTRAIL=0 in the pusher's environment (which a local push hands the server) skips nothing.
  const skipped = await dev.run(['push', 'origin', 'main'], { env: { REVTRAIL: '0' } });
  assert.equal(skipped.code, 1, skipped.stderr);
  assert.equal(remoteMain(), before);
});

test('a REJECT verdict committed in the pushed history opens the gate for that finding', async () => {
  const blocked = await push('main');
  const [id] = idsIn(blocked.stderr);
  assert.ok(id, blocked.stderr);
  const row = `${id},src/config.js,1,builtin/secrets:aws-access-key,security,security,AWS access key ID committed,REJECT,"\`AKIA…\` is the vendor's documented test key in https://example.com/docs"`;
  dev.git(['commit', '-q', '--allow-empty', '-m', 'chore: verdict', '--trailer', `Review-Finding: ${row}`]);
  const through = await push('main');
  assert.equal(through.code, 0, through.stderr);
  assert.equal(remoteMain(), dev.git(['rev-parse', 'HEAD']).trim());
});

test('a new branch is reviewed for what the repository lacks: its own commits, not those it shares', async () => {
  backToRemote();
  // Pointing at commits the repository has: nothing to review.
  const copy = await push('main:refs/heads/copy');
  assert.equal(copy.code, 0, copy.stderr);
  assert.doesNotMatch(copy.stderr, /remote: revtrail/);
  dev.git(['checkout', '-q', '-b', 'topic']);
  dev.commit('feat: topic key', { 'topic.js': `const k = "${AWS_KEY}"; // topic\n` });
  const topic = await push('topic');
  assert.equal(topic.code, 1, topic.stderr);
  assert.match(topic.stderr, /refs\/heads\/topic \(1 blocking finding\):/);
  assert.match(topic.stderr, /topic\.js:1 /);
  assert.doesNotMatch(topic.stderr, /src\/config\.js/, "the key main holds (answered) is not the new branch's");
  assert.equal(remoteHas('refs/heads/topic'), null);
  // A deletion is never blocked.
  const deleted = await push(':refs/heads/copy');
  assert.equal(deleted.code, 0, deleted.stderr);
  backToRemote();
});

test('a push that removes the bundle rule in the same commits is still reviewed with the rule (the policy of main before the push)', async () => {
  const before = remoteMain();
  rmSync(join(dev.dir, '.okfw', 'decisions'), { recursive: true });
  writeFileSync(join(dev.dir, '.okfw', 'index.md'), '# Knowledge\n');
  dev.commit('feat: controller (and no more rule)', {
    'src/controllers/user.js': 'export const all = () => db.query("select * from users");\n',
  });
  const pushed = await push('main');
  assert.equal(pushed.code, 1, pushed.stderr);
  assert.match(pushed.stderr, /src\/controllers\/user\.js:1 \S+ Controller queries the database directly \(adr-0001/);
  assert.equal(remoteMain(), before);
  // A new branch takes the default branch's policy: the same rule.
  const branch = await push('HEAD:refs/heads/weak');
  assert.equal(branch.code, 1, branch.stderr);
  assert.match(branch.stderr, /Controller queries the database directly/);
});

test('review --policy-from: the config and bundle come from that commit, not the work tree', async () => {
  // The work tree (HEAD) has no rule any more; origin/main still has it.
  const own = await dev.cli(['review', '--range', 'origin/main...HEAD']);
  assert.equal(own.code, 0, own.stdout + own.stderr);
  const based = await dev.cli(['review', '--range', 'origin/main...HEAD', '--policy-from', 'origin/main']);
  assert.equal(based.code, 1, based.stdout + based.stderr);
  assert.match(based.stdout, /Controller queries the database directly/);
  const unknown = await dev.cli(['review', '--range', 'origin/main...HEAD', '--policy-from', 'no-such-branch']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--policy-from no-such-branch: no such commit in this repository/);
  // A tag named like the base branch (git would take the tag first): refused, never used.
  dev.git(['tag', 'origin/main', 'HEAD']);
  try {
    const ambiguous = await dev.cli(['review', '--range', 'origin/main...HEAD', '--policy-from', 'origin/main']);
    assert.equal(ambiguous.code, 2, ambiguous.stdout + ambiguous.stderr);
    assert.match(
      ambiguous.stderr,
      /--policy-from origin\/main is ambiguous: it names refs\/tags\/origin\/main and refs\/remotes\/origin\/main/,
    );
    const full = await dev.cli([
      'review',
      '--range',
      'refs/remotes/origin/main...HEAD',
      '--policy-from',
      'refs/remotes/origin/main',
    ]);
    assert.equal(full.code, 1, full.stdout + full.stderr);
    assert.match(full.stdout, /Controller queries the database directly/);
  } finally {
    dev.git(['tag', '-d', 'origin/main']);
  }
  backToRemote();
});

test('hook update REF OLD NEW: the same review, for servers that run update hooks', async () => {
  renameSync(hookFile(), `${hookFile()}.off`);
  const update = join(bare.dir, 'hooks', 'update');
  writeFileSync(update, `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' hook update "$@"\n`);
  chmodSync(update, 0o755);
  try {
    const before = remoteMain();
    dev.commit('feat: key again', { 'again.js': `const k = "${AWS_KEY}"; // again\n` });
    const pushed = await push('main');
    assert.equal(pushed.code, 1, pushed.stderr);
    assert.match(pushed.stderr, /again\.js:1 security AWS access key ID committed/);
    assert.match(pushed.stderr, /hook declined/);
    assert.equal(remoteMain(), before);
  } finally {
    rmSync(update);
    renameSync(`${hookFile()}.off`, hookFile());
    backToRemote();
  }
});

test('a hook that cannot run says so and rejects; revtrail.failOpen in the repository accepts instead', async () => {
  const good = readFileSync(hookFile(), 'utf8');
  try {
    // Mis-installed: the CLI it names is gone.
    writeFileSync(hookFile(), good.replace(/revtrail_cli='[^']*'/, "revtrail_cli='/nowhere/revtrail.js'"));
    dev.commit('docs: one', { 'one.txt': 'one\n' });
    const missing = await push('main');
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(
      missing.stderr,
      /revtrail: the server check could not run: revtrail is not at \/nowhere\/revtrail\.js/,
    );
    assert.match(missing.stderr, /the push is rejected/);
    // Crashing: the folder the policy is copied into cannot be made.
    writeFileSync(hookFile(), good);
    rmSync(join(bare.dir, 'revtrail'), { recursive: true, force: true });
    writeFileSync(join(bare.dir, 'revtrail'), 'not a folder\n');
    const crashed = await push('main');
    assert.equal(crashed.code, 1, crashed.stderr);
    assert.match(crashed.stderr, /the server check could not run: it stopped with exit [2-9]/);
    bare.git(['config', 'revtrail.failOpen', 'true']);
    const open = await push('main');
    assert.equal(open.code, 0, open.stderr);
    assert.match(open.stderr, /revtrail\.failOpen is set in this repository: the push is accepted unchecked/);
  } finally {
    bare.git(['config', '--unset', 'revtrail.failOpen']);
    rmSync(join(bare.dir, 'revtrail'), { force: true });
    writeFileSync(hookFile(), good);
  }
});
