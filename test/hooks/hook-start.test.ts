/**
 * The hooks' start-up (docs/hooks.md "Start-up"): the single-file hook bundle compiled through
 * V8's code cache. Run from a copy of the package, so that its cache file is this test's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  renameSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeRepo, projectRoot, runProcess, tempDir } from '../kit/repo.js';

function packageCopy(): string {
  const dir = tempDir('revtrail-package-');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
  for (const f of ['revtrail.js', 'package.json']) copyFileSync(join(projectRoot, 'bin', f), join(dir, 'bin', f));
  for (const f of ['hook-start.cjs', 'hook.cjs'])
    copyFileSync(join(projectRoot, 'dist', 'cli', f), join(dir, 'dist', 'cli', f));
  writeFileSync(join(dir, 'package.json'), readFileSync(join(projectRoot, 'package.json')));
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const cacheFiles = (pkg: string) => readdirSync(join(pkg, 'dist', 'cli')).filter((f) => f.endsWith('.v8cache'));

test('the hook bundle writes its code cache once, survives a damaged one, and a missing bundle is exit 3, never 1', async () => {
  const pkg = packageCopy();
  const bin = join(pkg, 'bin', 'revtrail.js');
  const repo = makeRepo();
  repo.commit('base', { 'README.md': 'hello\n' });
  repo.write('src/a.js', 'debugger;\n');
  repo.git(['add', '-A']);
  const commitMsg = async () => {
    const message = join(repo.dir, '.git', 'COMMIT_EDITMSG');
    writeFileSync(message, 'feat: a\n');
    const run = await runProcess(process.execPath, [bin, 'hook', 'commit-msg', message], { cwd: repo.dir });
    return { ...run, message: readFileSync(message, 'utf8') };
  };

  const first = await commitMsg();
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.message, /^Review-Finding: rf-[0-9a-f]{10},src\/a\.js,1,builtin\/debug:debugger,/m);
  const caches = cacheFiles(pkg);
  // One cache for this hook, this build and this Node.
  assert.equal(caches.length, 1, caches.join(' '));
  assert.match(
    caches[0]!,
    new RegExp(
      `^hook\\.cjs\\.commit-msg\\.[0-9a-f]{12}\\.${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`,
    ),
  );
  const cacheFile = join(pkg, 'dist', 'cli', caches[0]!);
  const written = readFileSync(cacheFile);
  assert.ok(written.length > 1000, 'V8 produced a cache');

  // A cache V8 accepts is not written again.
  const second = await commitMsg();
  assert.equal(second.message, first.message);
  assert.deepEqual(readFileSync(cacheFile), written);

  // Garbage in the cache: V8 rejects it, the hook does the same work, and a good cache replaces it.
  writeFileSync(cacheFile, Buffer.alloc(4096, 7));
  const damaged = await commitMsg();
  assert.equal(damaged.code, 0, damaged.stderr);
  assert.equal(damaged.message, first.message);
  assert.notDeepEqual(readFileSync(cacheFile), Buffer.alloc(4096, 7));

  // A run whose bundle rule switches V8 flags on (regex-guard) still leaves a cache the next
  // process accepts: it is not written again.
  rmSync(cacheFile);
  repo.commit('docs: a bundle', {
    '.okfw/index.md': '---\ntype: Index\n---\n- [No eval](no-eval.md)\n',
    '.okfw/no-eval.md':
      '---\ntype: Decision\nid: no-eval\npaths: ["src/**"]\nrules:\n  - {id: eval, pattern: "ev(a|i)l\\\\(", severity: bug, category: security, title: No eval}\n---\n# No eval\n',
  });
  repo.write('src/b.js', 'eval("1");\n');
  repo.git(['add', '-A']);
  const flagged = await commitMsg();
  assert.match(flagged.message, /,src\/b\.js,1,no-eval:eval,/);
  const afterFlags = readFileSync(cacheFile);
  const next = await commitMsg();
  assert.equal(next.message, flagged.message);
  assert.deepEqual(readFileSync(cacheFile), afterFlags, 'accepted by the next process, so not written again');

  // A package updated in place: writing this hook's cache removes its caches of other builds
  // under this Node, and leaves another Node's and another hook's alone.
  const build = caches[0]!.split('.')[3]!;
  const nodeSuffix = `${process.version}-${process.arch}.v8cache`;
  const inCli = (name: string) => join(pkg, 'dist', 'cli', name);
  const stale = inCli(`hook.cjs.commit-msg.000000000000.${nodeSuffix}`);
  const otherNode = inCli(`hook.cjs.commit-msg.${build}.v1.0.0-${process.arch}.v8cache`);
  const otherHook = inCli(`hook.cjs.pre-push.000000000000.${nodeSuffix}`);
  for (const f of [stale, otherNode, otherHook]) writeFileSync(f, 'stale');
  rmSync(cacheFile);
  assert.equal((await commitMsg()).code, 0);
  assert.ok(existsSync(cacheFile), 'a new cache');
  assert.equal(existsSync(stale), false, 'the other build of this hook is gone');
  assert.ok(existsSync(otherNode) && existsSync(otherHook), 'another Node and another hook are kept');

  // No hook bundle (a broken install): a warning and exit 3, which the hook scripts let through.
  rmSync(join(pkg, 'dist', 'cli', 'hook.cjs'));
  const broken = await commitMsg();
  assert.equal(broken.code, 3);
  assert.match(
    broken.stderr,
    /^revtrail: the hook could not start \(.*hook\.cjs.*\); reinstall revtrail \(npm install\)$/m,
  );
  assert.equal(broken.message, 'feat: a\n', 'the message is untouched');
  assert.ok(!existsSync(join(pkg, 'dist', 'cli', 'hook.cjs')));
  rmSync(join(pkg, 'dist', 'cli', 'hook-start.cjs'));
  const noStarter = await commitMsg();
  assert.equal(noStarter.code, 3);
  assert.match(
    noStarter.stderr,
    /^revtrail: the hook could not start \(.*hook-start\.cjs.*\); reinstall revtrail \(npm install\)$/m,
  );
});

test('a clean commit or push is decided by its small start bundle alone, with its own code cache; anything else goes on to the hook bundle', async () => {
  const pkg = packageCopy();
  for (const f of ['commit-msg-clean.cjs', 'pre-push-start.cjs'])
    copyFileSync(join(projectRoot, 'dist', 'cli', f), join(pkg, 'dist', 'cli', f));
  const bin = join(pkg, 'bin', 'revtrail.js');
  const hookBundle = join(pkg, 'dist', 'cli', 'hook.cjs');
  const kept = readFileSync(hookBundle);
  const repo = makeRepo();
  repo.commit('base', {
    '.okfw/index.md': '---\ntype: Index\n---\n- [No eval](no-eval.md)\n',
    '.okfw/no-eval.md':
      '---\ntype: Decision\nid: no-eval\npaths: ["src/**"]\nrules:\n  - {id: eval, pattern: "eval\\\\(", severity: bug, title: No eval}\n---\n# No eval\n',
  });
  const remote = makeRepo({ bare: true });
  repo.git(['remote', 'add', 'origin', remote.dir]);
  repo.git(['push', '-q', '--no-verify', 'origin', 'main']);
  // A bundle file changed within the last two seconds is not known by its stat() (the racy case): wait.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const commitMsg = async (file: string, text: string) => {
    repo.write(file, text);
    repo.git(['add', '-A']);
    const message = join(repo.dir, '.git', 'COMMIT_EDITMSG');
    writeFileSync(message, 'feat: a\n');
    const run = await runProcess(process.execPath, [bin, 'hook', 'commit-msg', message], { cwd: repo.dir });
    return { ...run, message: readFileSync(message, 'utf8') };
  };
  // The first commit of a policy is a full review: it leaves the clean check's record.
  const first = await commitMsg('src/a.js', 'export const a = 1;\n');
  assert.equal(first.code, 0, first.stderr);
  assert.ok(
    cacheFiles(pkg).some((f) => f.startsWith('commit-msg-clean.cjs.commit-msg.')),
    cacheFiles(pkg).join(' '),
  );
  rmSync(hookBundle);
  const clean = await commitMsg('src/a.js', 'export const a = 2;\n');
  assert.deepEqual([clean.code, clean.stderr, clean.message], [0, '', 'feat: a\n']);
  // A line a rule may match needs the review: without the hook bundle that is exit 3, never 1.
  const needsReview = await commitMsg('src/a.js', 'eval(x);\n');
  assert.equal(needsReview.code, 3);
  assert.match(needsReview.stderr, /the hook could not start \(.*hook\.cjs.*\)/);
  assert.equal(needsReview.message, 'feat: a\n');
  repo.git(['reset', '-q', '--hard']);

  const trace = join(repo.dir, '.git', 'push-trace.log');
  const prePush = async (tip: string) => {
    writeFileSync(trace, '');
    const run = await runProcess(process.execPath, [bin, 'hook', 'pre-push', 'origin', remote.dir], {
      cwd: repo.dir,
      input: `refs/heads/topic ${tip} refs/heads/topic ${'0'.repeat(40)}\n`,
      env: { GIT_TRACE: trace },
    });
    // The whole-file read of the changed files (`diff --raw`, lib/flows/push-tip-files.ts) is named apart.
    const commands = [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git (\S+)( --raw)?/g)].map(
      (m) => m[1]! + (m[2] ?? ''),
    );
    // The pushed commits' patches (lib/flows/push-commits.ts): the one log whose format has the run's marker.
    const patchLogs = (readFileSync(trace, 'utf8').match(/trace: built-in: git log .*--format=revtrail-/g) ?? [])
      .length;
    return { ...run, commands, patchLogs };
  };
  // Three clean commits: decided by the start bundle (the hook bundle is still gone), six git
  // processes and the remote's (a new branch asks the remote what it has: ls-remote, which a
  // local remote answers with upload-pack; never stale tracking refs; cat-file reads the commits'
  // header lines for credentials, docs/hooks.md "Push").
  repo.git(['checkout', '-q', '-b', 'topic']);
  for (const n of [1, 2, 3]) repo.commit(`feat: ${n}`, { [`src/c${n}.js`]: `export const c${n} = ${n};\n` });
  const cleanPush = await prePush(repo.git(['rev-parse', 'HEAD']).trim());
  assert.deepEqual([cleanPush.code, cleanPush.stderr], [0, '']);
  assert.deepEqual(cleanPush.commands.sort(), [
    'cat-file',
    'diff',
    'log',
    'ls-remote',
    'rev-list',
    'rev-parse',
    'upload-pack',
  ]);
  assert.ok(
    cacheFiles(pkg).some((f) => f.startsWith('pre-push-start.cjs.pre-push.')),
    cacheFiles(pkg).join(' '),
  );
  // A key added and removed again: the combined diff is clean, its commit is not. The start
  // hands its planning, the combined diff and the commits it screened on: git runs no command twice.
  writeFileSync(hookBundle, kept);
  const key = `AKIA${'QYLPMN2RZ4TK7WXB'}`;
  repo.commit('feat: 4', { 'src/c4.js': `export const k = '${key}';\n` });
  const holder = repo.git(['rev-parse', 'HEAD']).trim();
  repo.commit('fix: 5', { 'src/c4.js': 'export const k = null;\n' });
  const blocked = await prePush(repo.git(['rev-parse', 'HEAD']).trim());
  assert.equal(blocked.code, 1, blocked.stderr);
  assert.match(blocked.stderr, /builtin\/secrets:aws-access-key/);
  assert.ok(blocked.stderr.includes(holder.slice(0, 12)), blocked.stderr);
  for (const command of ['rev-parse', 'rev-list', 'diff'])
    assert.equal(blocked.commands.filter((c) => c === command).length, 1, blocked.commands.join(' '));
  // The start's log of the commits' patches goes on in the full hook, not started again.
  assert.equal(blocked.patchLogs, 1);
});

test('a push answers the same with the start bundles and without them: clean, branch and tag, update, a key added and removed, a finding, a deletion, deletions only, a bad line', async () => {
  const withStart = packageCopy();
  for (const f of ['commit-msg-clean.cjs', 'pre-push-start.cjs'])
    copyFileSync(join(projectRoot, 'dist', 'cli', f), join(withStart, 'dist', 'cli', f));
  const without = packageCopy();
  const repo = makeRepo();
  repo.commit('base', {
    '.okfw/index.md': '---\ntype: Index\n---\n- [No eval](no-eval.md)\n',
    '.okfw/no-eval.md':
      '---\ntype: Decision\nid: no-eval\npaths: ["src/**"]\nrules:\n  - {id: eval, pattern: "eval\\\\(", severity: bug, title: No eval}\n---\n# No eval\n',
    'src/old.js': 'export const old = 1;\n',
  });
  const remote = makeRepo({ bare: true });
  repo.git(['remote', 'add', 'origin', remote.dir]);
  repo.git(['push', '-q', '--no-verify', 'origin', 'main']);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  // A full review leaves the clean check's record (as any first commit of a policy does).
  repo.write('src/a.js', 'export const a = 1;\n');
  repo.git(['add', '-A']);
  const message = join(repo.dir, '.git', 'COMMIT_EDITMSG');
  writeFileSync(message, 'feat: a\n');
  const hook = (pkg: string, args: string[], input = '') =>
    runProcess(process.execPath, [join(pkg, 'bin', 'revtrail.js'), 'hook', ...args], { cwd: repo.dir, input });
  assert.equal((await hook(withStart, ['commit-msg', message])).code, 0);
  repo.git(['commit', '-q', '-m', 'feat: a']);
  const head = () => repo.git(['rev-parse', 'HEAD']).trim();
  const zero = '0'.repeat(40);
  // `byStart`: the start bundle decides alone, so the hook bundle is moved away for its run.
  const bundle = join(withStart, 'dist', 'cli', 'hook.cjs');
  const same = async (what: string, lines: string[], code: number, byStart = false) => {
    const input = `${lines.join('\n')}\n`;
    if (byStart) renameSync(bundle, `${bundle}.away`);
    const a = await hook(withStart, ['pre-push', 'origin', remote.dir], input).finally(() => {
      if (byStart) renameSync(`${bundle}.away`, bundle);
    });
    const b = await hook(without, ['pre-push', 'origin', remote.dir], input);
    assert.deepEqual([a.code, a.stderr], [b.code, b.stderr], what);
    assert.equal(a.code, code, `${what}: ${a.stderr}`);
  };
  repo.git(['checkout', '-q', '-b', 'topic']);
  for (const n of [1, 2]) repo.commit(`feat: ${n}`, { [`src/c${n}.js`]: `export const c${n} = ${n};\n` });
  await same('clean', [`refs/heads/topic ${head()} refs/heads/topic ${zero}`], 0, true);
  repo.git(['tag', '-a', '-m', 'v1', 'v1']);
  const tag = repo.git(['rev-parse', 'v1']).trim();
  await same(
    'branch and tag',
    [`refs/heads/topic ${head()} refs/heads/topic ${zero}`, `refs/tags/v1 ${tag} refs/tags/v1 ${zero}`],
    0,
    true,
  );
  repo.git(['checkout', '-q', 'main']);
  repo.commit('feat: 3', { 'src/c3.js': 'export const c3 = 3;\n' });
  const remoteMain = remote.git(['rev-parse', 'main']).trim();
  await same('update', [`refs/heads/main ${head()} refs/heads/main ${remoteMain}`], 0, true);
  const key = `AKIA${'QYLPMN2RZ4TK7WXB'}`;
  repo.commit('feat: 4', { 'src/c4.js': `export const k = '${key}';\n` });
  repo.commit('fix: 5', { 'src/c4.js': 'export const k = null;\n' });
  await same('a key added and removed', [`refs/heads/main ${head()} refs/heads/main ${remoteMain}`], 1);
  repo.git(['checkout', '-q', '-b', 'finding', 'topic']);
  repo.commit('feat: 6', { 'src/c6.js': 'eval(x);\n' });
  await same('a finding', [`refs/heads/finding ${head()} refs/heads/finding ${zero}`], 1);
  repo.git(['checkout', '-q', '-b', 'removals', 'topic']);
  repo.git(['rm', '-q', 'src/c1.js', 'src/c2.js']);
  repo.git(['commit', '-q', '-m', 'chore: remove']);
  repo.git(['rm', '-q', 'src/old.js']);
  repo.git(['commit', '-q', '-m', 'chore: remove more']);
  await same('deletions only', [`refs/heads/removals ${head()} refs/heads/removals ${zero}`], 0);
  await same(
    'a deletion beside a clean ref, and a bad line',
    [
      `(delete) ${zero} refs/heads/gone ${remoteMain}`,
      `refs/heads/topic ${repo.git(['rev-parse', 'topic']).trim()} refs/heads/topic ${zero}`,
      'not a ref line',
    ],
    0,
  );
});
