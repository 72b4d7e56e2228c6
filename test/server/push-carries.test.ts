/**
 * The server gate against what an attacker's push can carry (issue 35; docs/server.md "Which
 * policy", "What is reviewed"): one bare repository with the hook `install --server` writes, main
 * holding `gate.credentialAllow: false`, and one clone with no revtrail hooks. Keys are made at run
 * time. Each case pushes the key and sees it refused with file and commit named, beside a clean
 * push of the same shape that is accepted. The cases share both repositories and run in order;
 * each leaves the clone at the remote's main.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomInt } from 'node:crypto';
import { makeRepo, runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { withRun, type HookRepo } from '../kit/hooks.js';

let bare: TestRepo;
let dev: HookRepo;
const remoteHas = (ref: string) => bare.git(['for-each-ref', '--format=%(objectname)', ref]).trim() || null;
const push = (...args: string[]) => dev.run(['push', 'origin', ...args]);
const backToMain = () => {
  dev.git(['fetch', '-q', 'origin']);
  dev.git(['checkout', '-q', '-f', 'main']);
  dev.git(['reset', '-q', '--hard', 'origin/main']);
  dev.git(['clean', '-qfdx']);
};
const idsIn = (text: string) => [...text.matchAll(/\b(rf-[0-9a-f]{10})\b/g)].map((m) => m[1]!);

/** An AWS access key ID no test has seen: AKIA and 16 of its base32 letters. */
function freshAwsKey(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let key = 'AKIA';
  for (let i = 0; i < 16; i++) key += letters[randomInt(letters.length)];
  return key;
}

function freshRsaKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
    type: 'pkcs1',
    format: 'pem',
  }) as string;
}

let noConfig: string;

before(async () => {
  bare = makeRepo({ bare: true });
  dev = withRun(makeRepo());
  dev.git(['remote', 'add', 'origin', bare.dir]);
  noConfig = dev.commit('chore: start', { 'README.md': 'hello\n' });
  dev.commit('chore: policy', { 'revtrail.config.json': '{ "gate": { "credentialAllow": false } }\n' });
  const first = await push('main');
  assert.equal(first.code, 0, first.stderr);
  const installed = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(installed.code, 0, installed.stderr);
});

test('main: a key under gitleaks:allow is refused (credentialAllow false); a clean push is accepted', async () => {
  const key = freshAwsKey();
  const sha = dev.commit('feat: allowed key', { 'src/a.js': `const k = "${key}"; // gitleaks:allow\n` });
  const refused = await push('main');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /src\/a\.js:1 security AWS access key ID committed/);
  assert.ok(refused.stderr.includes(`${sha.slice(0, 12)} feat: allowed key`), refused.stderr);
  backToMain();
  const clean = dev.commit('docs: fine', { 'docs/a.md': 'fine\n' });
  const accepted = await push('main');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/heads/main'), clean);
});

test('a branch pushed at an old commit without a config, then updated with a key, is reviewed with main’s policy', async () => {
  const at = await push(`${noConfig}:refs/heads/old`);
  assert.equal(at.code, 0, at.stderr);
  dev.git(['checkout', '-q', '-b', 'old', noConfig]);
  const key = freshAwsKey();
  dev.commit('feat: key on old', { 'old.js': `const k = "${key}"; // gitleaks:allow\n` });
  const refused = await push('old');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /old\.js:1 security AWS access key ID committed/);
  assert.match(refused.stderr, /the one refs\/heads\/main had before the push/);
  assert.equal(remoteHas('refs/heads/old'), noConfig);
  // Control: the same branch, updated with a clean commit.
  dev.git(['reset', '-q', '--hard', noConfig]);
  const clean = dev.commit('docs: old', { 'old.md': 'fine\n' });
  const accepted = await push('old');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/heads/old'), clean);
  backToMain();
});

test('a broken config pushed on a branch first does not weaken the next push on it', async () => {
  dev.git(['checkout', '-q', '-b', 'broken']);
  dev.commit('chore: broken config', { 'revtrail.config.json': '{ "gate": \n' });
  const first = await push('broken');
  assert.equal(first.code, 0, first.stderr);
  const key = freshAwsKey();
  dev.commit('feat: key', { 'b.js': `const k = "${key}"; // gitleaks:allow\n` });
  const refused = await push('broken');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /b\.js:1 security AWS access key ID committed/);
  backToMain();
});

test('HEAD naming a branch that does not exist refuses every push, never the defaults; revtrail.policyRef names the policy', async () => {
  bare.git(['symbolic-ref', 'HEAD', 'refs/heads/master']);
  try {
    dev.git(['checkout', '-q', '-b', 'feature']);
    dev.commit('docs: feature', { 'feature.md': 'fine\n' });
    const refused = await push('feature');
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(
      refused.stderr,
      /HEAD names refs\/heads\/master, which does not exist, and revtrail\.policyRef is not set/,
    );
    assert.match(refused.stderr, /git config revtrail\.policyRef refs\/heads\/main/);
    assert.equal(remoteHas('refs/heads/feature'), null);
    // A deletion is never blocked, whatever the policy.
    assert.equal((await push(':refs/heads/old')).code, 0);
    bare.git(['config', 'revtrail.policyRef', 'refs/heads/main']);
    const accepted = await push('feature');
    assert.equal(accepted.code, 0, accepted.stderr);
    const key = freshAwsKey();
    dev.commit('feat: key', { 'f.js': `const k = "${key}"; // gitleaks:allow\n` });
    const keyed = await push('feature');
    assert.equal(keyed.code, 1, keyed.stderr);
    assert.match(keyed.stderr, /f\.js:1 security AWS access key ID committed/);
    // A policy ref that is not a full name is refused, not guessed.
    bare.git(['config', 'revtrail.policyRef', 'main']);
    const short = await push('feature');
    assert.equal(short.code, 1, short.stderr);
    assert.match(short.stderr, /revtrail\.policyRef is "main", which is not a full ref name/);
  } finally {
    bare.git(['config', '--unset', 'revtrail.policyRef']);
    bare.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
    backToMain();
  }
});

test('a force push of unrelated history is reviewed from the empty tree: the key is refused, a clean one accepted', async () => {
  const key = freshAwsKey();
  dev.git(['checkout', '-q', '--orphan', 'other']);
  dev.git(['rm', '-rqf', '.']);
  const holder = dev.commit('feat: new root', { 'root.js': `const k = "${key}";\n` });
  dev.commit('fix: no key', { 'root.js': 'const k = process.env.K;\n' });
  bare.git(['config', 'revtrail.failOpen', 'true']);
  try {
    const refused = await push('-f', 'other:refs/heads/main');
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /root\.js:1 security AWS access key ID committed/);
    assert.ok(refused.stderr.includes(`${holder.slice(0, 12)} feat: new root`), refused.stderr);
    assert.doesNotMatch(refused.stderr, /could not run|accepted unchecked/);
    dev.git(['checkout', '-q', '--orphan', 'other-clean']);
    dev.git(['rm', '-rqf', '.']);
    const clean = dev.commit('docs: new root', {
      'revtrail.config.json': '{ "gate": { "credentialAllow": false } }\n',
    });
    const accepted = await push('-f', 'other-clean:refs/heads/unrelated');
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.equal(remoteHas('refs/heads/unrelated'), clean);
  } finally {
    bare.git(['config', '--unset', 'revtrail.failOpen']);
    backToMain();
  }
});

test('a REJECT of one private key at a path answers that key only: another key there later is a new finding', async () => {
  const first = freshRsaKey();
  dev.commit('test: server key', { 'test/fixtures/server.key': first });
  const refused = await push('main');
  assert.equal(refused.code, 1, refused.stderr);
  const [id] = idsIn(refused.stderr);
  assert.ok(id, refused.stderr);
  const row = `${id},test/fixtures/server.key,1,builtin/secrets:private-key,security,security,Private key committed,REJECT,"a throwaway key made for the test server"`;
  dev.git(['commit', '-q', '--allow-empty', '-m', 'chore: verdict', '--trailer', `Review-Finding: ${row}`]);
  const answered = await push('main');
  assert.equal(answered.code, 0, answered.stderr);
  const second = freshRsaKey();
  const sha = dev.commit('chore: rotate the test key', { 'test/fixtures/server.key': second });
  const again = await push('main');
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stderr, /test\/fixtures\/server\.key:1 security Private key committed/);
  assert.ok(!idsIn(again.stderr).includes(id), again.stderr);
  assert.ok(again.stderr.includes(`${sha.slice(0, 12)} chore: rotate the test key`), again.stderr);
  backToMain();
});

test('a private key split over two commits of one push is one finding, naming both commits; a split of plain text is accepted', async () => {
  const lines = freshRsaKey().trimEnd().split('\n');
  const [header, footer, body] = [lines[0]!, lines.at(-1)!, lines.slice(1, -1)];
  // Header and footer first, the body in the next commit.
  const a1 = dev.commit('chore: key frame', { 'deploy/split.pem': `${header}\n${footer}\n` });
  const a2 = dev.commit('chore: key body', { 'deploy/split.pem': `${lines.join('\n')}\n` });
  const first = await push('main');
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, /deploy\/split\.pem:1 security Private key committed/);
  assert.ok(first.stderr.includes(`${a1.slice(0, 12)} chore: key frame`), first.stderr);
  assert.ok(first.stderr.includes(`${a2.slice(0, 12)} chore: key body`), first.stderr);
  backToMain();
  // The body first, the frame around it next.
  dev.commit('chore: body', { 'deploy/split2.pem': `${body.join('\n')}\n` });
  dev.commit('chore: frame', { 'deploy/split2.pem': `${lines.join('\n')}\n` });
  const second = await push('main');
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stderr, /deploy\/split2\.pem:1 security Private key committed/);
  backToMain();
  // Control: a frame and text that is no key material, over two commits.
  dev.commit('docs: frame', { 'docs/pem.md': `${header}\n${footer}\n` });
  const tip = dev.commit('docs: words', { 'docs/pem.md': `${header}\nthe key goes here, from the vault\n${footer}\n` });
  const clean = await push('main');
  assert.equal(clean.code, 0, clean.stderr);
  assert.equal(remoteHas('refs/heads/main'), tip);
});

test('a tag of a blob or of a tree that holds a key is refused, naming the tag; a tag of a clean blob is accepted', async () => {
  const key = freshAwsKey();
  const blob = dev.git(['hash-object', '-w', '--stdin'], { input: `aws_access_key_id = ${key}\n` }).trim();
  dev.git(['tag', 'blob-key', blob]);
  const refusedBlob = await push('refs/tags/blob-key');
  assert.equal(refusedBlob.code, 1, refusedBlob.stderr);
  assert.ok(
    refusedBlob.stderr.includes(
      `refs/tags/blob-key (blob ${blob.slice(0, 12)}):1 security AWS access key ID committed`,
    ),
    refusedBlob.stderr,
  );
  assert.equal(remoteHas('refs/tags/blob-key'), null);
  const inner = dev.git(['hash-object', '-w', '--stdin'], { input: `const k = "${freshAwsKey()}";\n` }).trim();
  const tree = dev.git(['mktree'], { input: `100644 blob ${inner}\tsecret.js\n` }).trim();
  dev.git(['tag', '-a', '-m', 'a tree', 'tree-key', tree]);
  const refusedTree = await push('refs/tags/tree-key');
  assert.equal(refusedTree.code, 1, refusedTree.stderr);
  assert.match(refusedTree.stderr, /refs\/tags\/tree-key\/secret\.js:1 security AWS access key ID committed/);
  assert.equal(remoteHas('refs/tags/tree-key'), null);
  const clean = dev.git(['hash-object', '-w', '--stdin'], { input: 'release notes\n' }).trim();
  dev.git(['tag', 'blob-clean', clean]);
  const accepted = await push('refs/tags/blob-clean');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/tags/blob-clean'), clean);
});

test('a key in a commit message or an annotated tag message is refused, naming the commit; clean messages are accepted', async () => {
  // One commit (the combined review's path) and two (the per-commit check's).
  const one = dev.commit(`chore: deploy\n\nused ${freshAwsKey()} for the run`, { 'deploy.md': 'ran\n' });
  const single = await push('main');
  assert.equal(single.code, 1, single.stderr);
  assert.ok(
    single.stderr.includes(`(message of commit ${one.slice(0, 12)}):3 security AWS access key ID committed`),
    single.stderr,
  );
  assert.ok(single.stderr.includes(`${one.slice(0, 12)} chore: deploy`), single.stderr);
  dev.commit('docs: more', { 'deploy2.md': 'more\n' });
  const two = await push('main');
  assert.equal(two.code, 1, two.stderr);
  assert.ok(two.stderr.includes(`(message of commit ${one.slice(0, 12)}):3`), two.stderr);
  backToMain();
  dev.git(['tag', '-a', '-m', `release\n\nkey ${freshAwsKey()}`, 'v-key']);
  const tagged = await push('refs/tags/v-key');
  assert.equal(tagged.code, 1, tagged.stderr);
  assert.match(tagged.stderr, /\(message of tag refs\/tags\/v-key\):3 security AWS access key ID committed/);
  assert.equal(remoteHas('refs/tags/v-key'), null);
  const tip = dev.commit('docs: clean\n\nno key here', { 'clean.md': 'clean\n' });
  dev.git(['tag', '-a', '-m', 'release: clean', 'v-clean']);
  const accepted = await push('main', 'refs/tags/v-clean');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/heads/main'), tip);
});

test('a key as a path, an empty file or a folder named after it, is refused; ordinary names are accepted', async () => {
  const asFile = freshAwsKey();
  dev.commit('chore: marker', { [`keys/${asFile}`]: '' });
  const file = await push('main');
  assert.equal(file.code, 1, file.stderr);
  assert.match(file.stderr, /\(paths of refs\/heads\/main\):1 security AWS access key ID committed/);
  backToMain();
  const asFolder = freshAwsKey();
  dev.commit('chore: folder', { [`${asFolder}/readme.txt`]: 'hello\n' });
  const folder = await push('main');
  assert.equal(folder.code, 1, folder.stderr);
  assert.match(folder.stderr, /\(paths of refs\/heads\/main\):1 security AWS access key ID committed/);
  backToMain();
  const tip = dev.commit('chore: names', { 'keys/README': '', 'AKIA-notes/readme.txt': 'hello\n' });
  const accepted = await push('main');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/heads/main'), tip);
});

test("the policy's attributes decide what is reviewed: a pushed .gitattributes does not drop a security finding", async () => {
  const shell = 'export const run = (cmd) => exec(`sh -c ${cmd}`);\n';
  dev.commit('feat: helper, marked generated', {
    '.gitattributes': '*.js linguist-generated\n*.js -diff\n',
    'src/helper.js': shell,
  });
  const refused = await push('main');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /src\/helper\.js:1 \S+ .*\(builtin\/injection:shell-exec\)/);
  backToMain();
  // Control: the same attributes in the policy (main, before the push) do apply.
  const tip = dev.commit('chore: generated files', { '.gitattributes': '*.gen.js linguist-generated\n' });
  assert.equal((await push('main')).code, 0);
  assert.equal(remoteHas('refs/heads/main'), tip, 'the attributes are in the policy before the next push');
  const generated = dev.commit('feat: generated helper', { 'src/helper.gen.js': shell });
  const accepted = await push('main');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.doesNotMatch(accepted.stderr, /injection:shell-exec/);
  assert.equal(remoteHas('refs/heads/main'), generated);
});

test('a private key in a JS template literal is refused; the same template holding a placeholder is accepted (issue 58 item 5)', async () => {
  const pem = freshRsaKey().trimEnd();
  const sha = dev.commit('feat: key in code', { 'src/tls.js': `export const key = \`${pem}\`;\n` });
  const refused = await push('main');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /src\/tls\.js:1 security Private key committed/);
  assert.ok(refused.stderr.includes(`${sha.slice(0, 12)} feat: key in code`), refused.stderr);
  backToMain();
  const [head, foot] = [pem.split('\n')[0]!, pem.split('\n').at(-1)!];
  const tip = dev.commit('feat: key from the vault', {
    'src/tls.js': `export const key = \`${head}\n\${process.env.TLS_BODY}\n${foot}\`;\n`,
  });
  const accepted = await push('main');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/heads/main'), tip);
});

/** A commit object written as given, with the tree and parent of HEAD, and `extra` header lines. */
function commitWithHeaders(extra: string[], message: string): string {
  const tree = dev.git(['rev-parse', 'HEAD^{tree}']).trim();
  const parent = dev.git(['rev-parse', 'HEAD']).trim();
  const who = 'Dev <dev@example.com> 1700000000 +0000';
  const object = [`tree ${tree}`, `parent ${parent}`, `author ${who}`, `committer ${who}`, ...extra, '', message, ''];
  const sha = dev.git(['hash-object', '-t', 'commit', '-w', '--stdin'], { input: object.join('\n') }).trim();
  dev.git(['reset', '-q', '--hard', sha]);
  return sha;
}

test("a key in an intermediate commit's path, an author's or committer's name, an extra header or a tagger's name is refused, naming the commit; ordinary ones are accepted (issue 58 item 6)", async () => {
  // A path only the middle commit has: the tip renames it.
  const named = `keys/${freshAwsKey()}`;
  const renamed = dev.commit('chore: marker', { [named]: 'x\n' });
  dev.git(['mv', named, 'keys/marker.txt']);
  dev.commit('chore: rename');
  const path = await push('main');
  assert.equal(path.code, 1, path.stderr);
  assert.ok(
    path.stderr.includes(`(paths of commit ${renamed.slice(0, 12)}):1 security AWS access key ID committed`),
    path.stderr,
  );
  assert.ok(path.stderr.includes(`${renamed.slice(0, 12)} chore: marker`), path.stderr);
  backToMain();
  const asAuthor = dev.commit('docs: by a key', { 'by.md': 'x\n' }, { env: { GIT_AUTHOR_NAME: freshAwsKey() } });
  const author = await push('main');
  assert.equal(author.code, 1, author.stderr);
  assert.ok(
    author.stderr.includes(`(metadata of commit ${asAuthor.slice(0, 12)}):1 security AWS access key ID committed`),
    author.stderr,
  );
  backToMain();
  dev.commit('docs: one', { 'one.md': 'x\n' });
  const asCommitter = dev.commit('docs: two', { 'two.md': 'x\n' }, { env: { GIT_COMMITTER_NAME: freshAwsKey() } });
  const committer = await push('main');
  assert.equal(committer.code, 1, committer.stderr);
  assert.ok(committer.stderr.includes(`(metadata of commit ${asCommitter.slice(0, 12)}):2 security`), committer.stderr);
  backToMain();
  const crafted = commitWithHeaders([`x-deploy-key ${freshAwsKey()}`], 'chore: crafted');
  const header = await push('main');
  assert.equal(header.code, 1, header.stderr);
  assert.ok(header.stderr.includes(`(metadata of commit ${crafted.slice(0, 12)}):3 security`), header.stderr);
  backToMain();
  dev.git(['tag', '-a', '-m', 'release', 'v-tagger'], { env: { GIT_COMMITTER_NAME: freshAwsKey() } });
  const tagger = await push('refs/tags/v-tagger');
  assert.equal(tagger.code, 1, tagger.stderr);
  assert.match(tagger.stderr, /\(metadata of tag refs\/tags\/v-tagger\):\d+ security AWS access key ID committed/);
  assert.equal(remoteHas('refs/tags/v-tagger'), null);
  dev.git(['tag', '-d', 'v-tagger']);
  // Controls: the same shapes, ordinary.
  dev.commit('chore: marker', { 'keys/AKIA-notes.txt': 'x\n' });
  dev.git(['mv', 'keys/AKIA-notes.txt', 'keys/notes.txt']);
  dev.commit('chore: rename');
  dev.commit('docs: by a person', { 'by2.md': 'x\n' }, { env: { GIT_AUTHOR_NAME: 'Akia Ghosh' } });
  const tip = commitWithHeaders(['x-build-id 20240101-1'], 'chore: crafted, clean');
  dev.git(['tag', '-a', '-m', 'release', 'v-clean-tagger']);
  const accepted = await push('main', 'refs/tags/v-clean-tagger');
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(remoteHas('refs/heads/main'), tip);
});
