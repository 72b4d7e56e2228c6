/**
 * pre-push's per-commit credential check (docs/hooks.md "Push"): one streamed git log, a screen
 * on raw bytes, and a credential-only review of what passes it. A key any pushed commit adds
 * blocks, wherever it sits in the history and whatever later commits do with it; git's
 * attributes decide as in any review (binary or generated: the credential rules still run).
 * One repository with a pushed main; each case is a branch of its own, pushed through the hook.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomInt } from 'node:crypto';
import { AWS_KEY, addRemote, installedRepo, type HookRepo } from '../kit/hooks.js';
import type { TestRepo } from '../kit/repo.js';
import { pushProgress } from '../../lib/flows/push-progress.js';

const cleanups: Array<{ cleanup(): void }> = [];
after(() => {
  for (const c of cleanups) c.cleanup();
});

let shared: Promise<HookRepo> | undefined;
function repo(): Promise<HookRepo> {
  shared ??= (async () => {
    const r = await installedRepo();
    const bare: TestRepo = addRemote(r);
    cleanups.push(r, bare);
    r.write('.gitattributes', '*.bin binary\ngen/** linguist-generated\n');
    r.commit('chore: attributes');
    r.git(['push', '-q', '--no-verify', 'origin', 'main']);
    return r;
  })();
  return shared;
}

const ZERO = '0'.repeat(40);
const commit = (r: HookRepo, message: string, files: Record<string, string>) => {
  for (const [p, c] of Object.entries(files)) r.write(p, c);
  r.git(['add', '-A']);
  r.git(['commit', '-q', '--no-verify', '-m', message]);
  return r.git(['rev-parse', 'HEAD']).trim();
};
/** The hook as git runs it for a new branch: what no origin ref has is reviewed. */
const prePush = (r: HookRepo, branch: string) => {
  const sha = r.git(['rev-parse', branch]).trim();
  return r.cli(['hook', 'pre-push', 'origin', 'url'], {
    input: `refs/heads/${branch} ${sha} refs/heads/${branch} ${ZERO}\n`,
  });
};
const branch = (r: HookRepo, name: string) => r.git(['checkout', '-q', '-b', name, 'main']);
const filler = (n: number) =>
  Array.from({ length: 120 }, (_, i) => `export const v${n}_${i} = "${'x'.repeat(24)}";`).join('\n') + '\n';

test('a key in a middle commit, removed later, blocks: through a git log larger than one pipe read', async () => {
  const r = await repo();
  branch(r, 'middle');
  // ~4 KB a commit over 40 commits: the diffs reach the hook in many pieces.
  for (let n = 0; n < 20; n++) commit(r, `feat: part ${n}`, { [`src/part${n}.ts`]: filler(n) });
  commit(r, 'feat: key', { 'src/config.ts': `export const key = "${AWS_KEY}";\n` });
  commit(r, 'fix: env', { 'src/config.ts': 'export const key = process.env.KEY;\n' });
  for (let n = 20; n < 40; n++) commit(r, `feat: part ${n}`, { [`src/part${n}.ts`]: filler(n) });
  const push = await prePush(r, 'middle');
  assert.equal(push.code, 1, push.stderr);
  assert.match(push.stderr, /refs\/heads\/middle \(1 blocking finding\):/);
  assert.match(
    push.stderr,
    /src\/config\.ts:1 security AWS access key ID committed \(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10}/,
  );
});

test('merges: a key from a merged branch, and a key only the merge commit adds, both block', async () => {
  const r = await repo();
  branch(r, 'side');
  commit(r, 'feat: side key', { 'side.js': `const k = "${AWS_KEY}";\n` });
  commit(r, 'fix: side env', { 'side.js': 'const k = process.env.K;\n' });
  branch(r, 'merged');
  commit(r, 'docs: main work', { 'notes.txt': 'main\n' });
  r.git(['merge', '-q', '--no-ff', '--no-verify', '-m', 'merge side', 'side']);
  const merged = await prePush(r, 'merged');
  assert.equal(merged.code, 1, merged.stderr);
  assert.match(merged.stderr, /side\.js:1 security AWS access key ID committed/);

  // An "evil" merge: the key is in the merge commit's own change, and gone in the next commit.
  branch(r, 'evil-side');
  commit(r, 'feat: a', { 'a.txt': 'a\n' });
  branch(r, 'evil');
  commit(r, 'feat: b', { 'b.txt': 'b\n' });
  r.git(['merge', '-q', '--no-ff', '--no-commit', 'evil-side']);
  r.write('evil.js', `const k = "${AWS_KEY}";\n`);
  r.git(['add', 'evil.js']);
  r.git(['commit', '-q', '--no-verify', '-m', 'merge evil-side']);
  commit(r, 'fix: no key', { 'evil.js': 'const k = process.env.K;\n' });
  const evil = await prePush(r, 'evil');
  assert.equal(evil.code, 1, evil.stderr);
  assert.match(evil.stderr, /evil\.js:1 security AWS access key ID committed/);
  assert.doesNotMatch(evil.stderr, /side\.js/, 'what the remote has is not reviewed again');
});

test('git attributes: a key in a file marked binary is still read by the credential rules; in a generated file it blocks', async () => {
  const r = await repo();
  branch(r, 'binary');
  commit(r, 'feat: blob', { 'data.bin': `key=${AWS_KEY}\n` });
  commit(r, 'fix: blob', { 'data.bin': 'key=none\n' });
  commit(r, 'docs: more', { 'more.txt': 'more\n' });
  const binary = await prePush(r, 'binary');
  assert.equal(binary.code, 1, binary.stderr);
  assert.match(binary.stderr, /data\.bin:1 security AWS access key ID committed/);

  branch(r, 'generated');
  commit(r, 'build: out', { 'gen/out.js': `var k="${AWS_KEY}";\n` });
  commit(r, 'build: clean', { 'gen/out.js': 'var k=null;\n' });
  commit(r, 'docs: more', { 'more.txt': 'more\n' });
  const generated = await prePush(r, 'generated');
  assert.equal(generated.code, 1, generated.stderr);
  assert.match(generated.stderr, /gen\/out\.js:1 security AWS access key ID committed/);
});

test('progress: one line on a terminal, with both phases, cleared; nothing on a pipe for a push shorter than the interval', () => {
  const written: string[] = [];
  const tty = { isTTY: true, columns: 200, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
  const shown = pushProgress(tty);
  shown.reviewing('refs/heads/x', 1, 2, 'src/\x1bbad.ts');
  shown.checking('refs/heads/x', 3, 3);
  shown.clear();
  assert.match(
    written[0]!,
    /^\r\x1b\[Krevtrail: refs\/heads\/x: reviewing what the push adds, 1\/2 chunks \(src\/\\ebad\.ts\) \(\d+\.\d s\)$/,
  );
  assert.match(
    written[1]!,
    /reviewing what the push adds, 1\/2 chunks .*; checking each commit for credentials, 3\/3 commits \(\d+\.\d s\)$/,
  );
  assert.equal(written.at(-1), '\r\x1b[K');
  const piped: string[] = [];
  const pipe = pushProgress({ isTTY: false, write: (s: string) => piped.push(s) } as unknown as NodeJS.WriteStream);
  pipe.reviewing('refs/heads/x', 1, 1, 'a');
  pipe.clear();
  assert.deepEqual(piped, []);
});

test('a bundle rule that takes a built-in credential rule_source is checked in every pushed commit too: the screen steps aside', async () => {
  const r = await repo();
  branch(r, 'bundle-secret');
  commit(r, 'docs: a team credential rule', {
    '.okfw/index.md': '---\ntype: Index\n---\n- [Team tokens](team-tokens.md)\n',
    '.okfw/team-tokens.md':
      '---\ntype: Decision\nid: builtin/secrets\npaths: ["**"]\nrules:\n  - {id: aws-access-key, pattern: "corp_tok_[0-9]{8}", severity: security, category: security, title: Corporate token committed}\n---\n# Team tokens\n',
  });
  commit(r, 'feat: token', { 'src/token.ts': 'export const token = "corp_tok_12345678";\n' });
  commit(r, 'fix: env', { 'src/token.ts': 'export const token = process.env.TOKEN;\n' });
  const push = await prePush(r, 'bundle-secret');
  assert.equal(push.code, 1, push.stderr);
  assert.match(
    push.stderr,
    /src\/token\.ts:1 security Corporate token committed \(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10}/,
  );
  r.git(['checkout', '-q', 'main']);
});

/** A private key made at run time, as PEM lines. */
const freshPem = () =>
  (generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string)
    .trimEnd()
    .split('\n');
/** An AWS access key ID no test has seen. */
const freshAws = () =>
  `AKIA${Array.from({ length: 16 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[randomInt(32)]).join('')}`;
/** `git push origin <branch>` through the installed hooks. */
const gitPush = (r: HookRepo, name: string) => r.run(['push', 'origin', name]);

test('through git push: a private key in a Go raw string or a one-line .env value is refused; a placeholder of the same shape is accepted (issue 58 item 5)', async () => {
  const r = await repo();
  const pem = freshPem();
  branch(r, 'pem-go');
  commit(r, 'feat: tls', { 'tls.go': `package tls\n\nvar key = \`${pem.join('\n')}\`\n` });
  const go = await gitPush(r, 'pem-go');
  assert.equal(go.code, 1, go.stderr);
  assert.match(go.stderr, /tls\.go:3 security Private key committed/);
  branch(r, 'pem-env');
  commit(r, 'chore: env', { 'deploy/.env': `TLS_KEY="${pem.join('\\n')}\\n"\n` });
  commit(r, 'chore: no env', { 'deploy/.env': 'TLS_KEY=\n' });
  const env = await gitPush(r, 'pem-env');
  assert.equal(env.code, 1, env.stderr);
  assert.match(env.stderr, /deploy\/\.env:1 security Private key committed/);
  branch(r, 'pem-placeholder');
  commit(r, 'feat: tls from the vault', {
    'tls.go': `package tls\n\nvar key = \`${pem[0]}\n<from the vault>\n${pem.at(-1)}\`\n`,
  });
  const accepted = await gitPush(r, 'pem-placeholder');
  assert.equal(accepted.code, 0, accepted.stderr);
});

test("through git push: a key in an intermediate commit's path, an author's or committer's name or an extra header is refused; ordinary ones are accepted (issue 58 item 6)", async () => {
  const r = await repo();
  // Before each case, a clean push of the same shape: its full review leaves the clean check's
  // record and no last findings, so the case starts on the clean-push path (lib/flows/push-start.ts),
  // which must step aside for what the commits carry.
  let n = 0;
  const cleanPush = async (env: NodeJS.ProcessEnv = { GIT_AUTHOR_NAME: 'Akia Ghosh' }) => {
    branch(r, `meta-clean-${++n}`);
    commit(r, 'chore: marker', { [`keys/AKIA-notes-${n}.txt`]: 'x\n' });
    r.git(['mv', `keys/AKIA-notes-${n}.txt`, `keys/notes-${n}.txt`]);
    r.git(['commit', '-q', '--no-verify', '-m', 'chore: rename'], { env });
    const clean = await gitPush(r, `meta-clean-${n}`);
    assert.equal(clean.code, 0, clean.stderr);
  };

  await cleanPush();
  branch(r, 'meta-path');
  const named = `keys/${freshAws()}`;
  const holder = commit(r, 'chore: marker', { [named]: 'x\n' });
  r.git(['mv', named, 'keys/marker.txt']);
  r.git(['commit', '-q', '--no-verify', '-m', 'chore: rename']);
  const path = await gitPush(r, 'meta-path');
  assert.equal(path.code, 1, path.stderr);
  assert.ok(path.stderr.includes(`(paths of commit ${holder.slice(0, 12)}):1 security AWS access key ID`), path.stderr);

  // One commit: no per-commit stream, the combined diff's paths only.
  await cleanPush();
  branch(r, 'meta-single');
  commit(r, 'chore: marker', { [`keys/${freshAws()}`]: '' });
  const single = await gitPush(r, 'meta-single');
  assert.equal(single.code, 1, single.stderr);
  assert.ok(single.stderr.includes('(paths of refs/heads/meta-single):1 security AWS access key ID'), single.stderr);

  for (const who of ['GIT_AUTHOR_NAME', 'GIT_COMMITTER_EMAIL']) {
    await cleanPush({ [who]: who === 'GIT_AUTHOR_NAME' ? 'Akia Ghosh' : 'akia@example.com' });
    branch(r, `meta-${who}`);
    commit(r, 'docs: one', { 'one.md': 'x\n' });
    r.write('two.md', 'x\n');
    r.git(['add', '-A']);
    r.git(['commit', '-q', '--no-verify', '-m', 'docs: two'], { env: { [who]: freshAws() } });
    const sha = r.git(['rev-parse', 'HEAD']).trim();
    const refused = await gitPush(r, `meta-${who}`);
    assert.equal(refused.code, 1, refused.stderr);
    assert.ok(refused.stderr.includes(`(metadata of commit ${sha.slice(0, 12)}):`), refused.stderr);
    assert.match(refused.stderr, /security AWS access key ID committed/);
  }

  await cleanPush();
  branch(r, 'meta-header');
  const tree = r.git(['rev-parse', 'HEAD^{tree}']).trim();
  const parent = r.git(['rev-parse', 'HEAD']).trim();
  const who = 'Dev <dev@example.com> 1700000000 +0000';
  const object = [`tree ${tree}`, `parent ${parent}`, `author ${who}`, `committer ${who}`, `x-key ${freshAws()}`, ''];
  const crafted = r.git(['hash-object', '-t', 'commit', '-w', '--stdin'], {
    input: `${object.join('\n')}\nchore: crafted\n`,
  });
  r.git(['reset', '-q', '--hard', crafted.trim()]);
  const header = await gitPush(r, 'meta-header');
  assert.equal(header.code, 1, header.stderr);
  assert.ok(header.stderr.includes(`(metadata of commit ${crafted.trim().slice(0, 12)}):3 security`), header.stderr);
});
