import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { cliPath, tempDir, testEnv, runProcess } from '../kit/repo.js';
import { DEBUGGER_LINE, allTrailerRows, installedRepo, writeShim, type HookRepo } from '../kit/hooks.js';
import { readQueue } from '../../lib/verdicts/queue.js';

// Repositories are tempDirs, removed when this file's tests end (test/kit/repo.ts).
async function repo(files?: Record<string, string>): Promise<HookRepo> {
  return installedRepo({ files });
}
const ROW = /^rf-[0-9a-f]{10},/;
const stage = (r: HookRepo, files: Record<string, string>) => {
  for (const [p, c] of Object.entries(files)) r.write(p, c);
  r.git(['add', '-A']);
};

test('a commit with a finding gets one OPEN trailer that %(trailers) sees; the summary goes to stderr', async () => {
  const r = await repo();
  stage(r, { 'src/a.js': `function f() {\n  ${DEBUGGER_LINE}\n}\n` });
  const run = await r.run(['commit', '-m', 'feat: a']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /revtrail: REQUEST_CHANGES: 1 finding, 1 recorded as Review-Finding trailer/);
  assert.match(run.stderr, /src\/a\.js:2 bug .*rf-[0-9a-f]{10}/);
  const rows = r.trailers();
  assert.equal(rows.length, 1);
  assert.match(
    rows[0]!,
    /^rf-[0-9a-f]{10},src\/a\.js,2,builtin\/debug:debugger,correctness,bug,`debugger` statement left in,OPEN,$/,
  );
  const id = rows[0]!.split(',')[0]!;
  assert.match(r.git(['log', '-1', '--format=%B']), new RegExp(`^feat: a\\n\\nReview-Finding: ${id},`));

  // The same finding again (file deleted, then re-added): already recorded on this branch.
  r.git(['rm', '-q', 'src/a.js']);
  r.git(['commit', '-q', '-m', 'chore: drop a']);
  stage(r, { 'src/a.js': `function f() {\n  ${DEBUGGER_LINE}\n}\n` });
  const again = await r.run(['commit', '-m', 'feat: a again']);
  assert.equal(again.code, 0);
  assert.deepEqual(r.trailers(), []);
  assert.match(again.stderr, /1 finding(?!,)/);
});

test("git commit -a and git commit PATH (git's temporary index) review what is committed", async () => {
  const r = await repo({ 'tracked.js': 'let a = 1;\n', 'other.js': 'let b = 1;\n' });
  r.write('tracked.js', `let a = 1;\n${DEBUGGER_LINE}\n`);
  const all = await r.run(['commit', '-a', '-m', 'feat: all']);
  assert.equal(all.code, 0, all.stderr);
  assert.match(r.trailers()[0]!, /,tracked\.js,2,/);
  r.write('other.js', `let b = 1;\n${DEBUGGER_LINE} // other\n`);
  r.write('tracked.js', `let a = 2;\n${DEBUGGER_LINE}\n${DEBUGGER_LINE} // not committed\n`);
  const only = await r.run(['commit', '-m', 'feat: only other', 'other.js']);
  assert.equal(only.code, 0, only.stderr);
  assert.deepEqual(
    r.trailers().map((t) => t.split(',')[1]),
    ['other.js'],
  );
});

test('git commit -v: trailers land before the scissors line, which git then cuts', async () => {
  const r = await repo();
  stage(r, { 'v.js': `${DEBUGGER_LINE}\n` });
  const run = await r.run(['commit', '-v', '-e', '-m', 'feat: verbose'], { env: { GIT_EDITOR: 'true' } });
  assert.equal(run.code, 0, run.stderr);
  const body = r.git(['log', '-1', '--format=%B']);
  assert.match(body, /^feat: verbose\n\nReview-Finding: rf-[0-9a-f]{10},v\.js,1,/);
  assert.doesNotMatch(body, />8|diff --git/);
  assert.equal(r.trailers().length, 1);
});

test('a --- line in the body, Signed-off-by and a message file without a final newline', async () => {
  const r = await repo();
  stage(r, { 'd.js': `${DEBUGGER_LINE}\n` });
  const msg = join(r.dir, '.git', 'test-msg');
  writeFileSync(msg, 'feat: divider\n\nbefore\n---\nafter\n\nSigned-off-by: Ada Tester <ada@example.com>');
  const run = await r.run(['commit', '--cleanup=verbatim', '-F', msg]);
  assert.equal(run.code, 0, run.stderr);
  const body = r.git(['log', '-1', '--format=%B']);
  assert.match(
    body,
    /\n---\nafter\n\nSigned-off-by: Ada Tester <ada@example.com>\nReview-Finding: rf-[0-9a-f]{10},d\.js,1,[^\n]*(?:\n [^\n]*)*OPEN,\n/,
  ); // folded past 100 columns
  assert.equal(r.trailers().length, 1);
  assert.match(r.git(['log', '-1', '--format=%(trailers:key=Signed-off-by,valueonly)']), /Ada Tester/);

  // The hook itself, on a file with no final newline at all.
  stage(r, { 'e.js': `${DEBUGGER_LINE}\n` });
  writeFileSync(msg, 'feat: no newline');
  const hook = await r.cli(['hook', 'commit-msg', msg]);
  assert.equal(hook.code, 0, hook.stderr);
  assert.match(
    readFileSync(msg, 'utf8'),
    /^feat: no newline\n\nReview-Finding: rf-[0-9a-f]{10},e\.js,1,[^\n]+(?:\n [^\n]+)*\n$/,
  );
});

test('git commit -s and --amend of a commit that already has the trailers: no duplicates', async () => {
  const r = await repo();
  stage(r, { 'f.js': `${DEBUGGER_LINE}\n` });
  assert.equal((await r.run(['commit', '-s', '-m', 'feat: f'])).code, 0);
  const first = r.trailers();
  assert.equal(first.length, 1);
  assert.match(r.git(['log', '-1', '--format=%B']), /Signed-off-by: Ada Tester <ada@example.com>\nReview-Finding: /);
  const amend = await r.run(['commit', '--amend', '--no-edit']);
  assert.equal(amend.code, 0, amend.stderr);
  assert.deepEqual(r.trailers(), first);
  stage(r, { 'g.js': `${DEBUGGER_LINE}\n` });
  assert.equal((await r.run(['commit', '--amend', '--no-edit'])).code, 0);
  const rows = r.trailers();
  assert.equal(rows.length, 2, 'the amended-in finding is added, the old one not repeated');
  assert.equal(new Set(rows).size, 2);
});

test("core.commentChar ';': comments are skipped, a # line stays message text", async () => {
  const r = await repo();
  r.git(['config', 'core.commentChar', ';']);
  stage(r, { 'h.js': `${DEBUGGER_LINE}\n` });
  const run = await r.run(['commit', '-e', '-m', 'feat: h\n\n#42 is the ticket'], { env: { GIT_EDITOR: 'true' } });
  assert.equal(run.code, 0, run.stderr);
  const body = r.git(['log', '-1', '--format=%B']);
  assert.match(body, /^feat: h\n\n#42 is the ticket\n\nReview-Finding: rf-[0-9a-f]{10},h\.js,1,/);
  assert.doesNotMatch(body, /^;/m);
  assert.equal(r.trailers().length, 1);
});

test('an empty message stays empty: git aborts the commit and the queue keeps its verdicts', async () => {
  const r = await repo();
  stage(r, { 'i.js': `${DEBUGGER_LINE}\n` });
  const run = await r.run(['commit'], { env: { GIT_EDITOR: 'true' } });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /empty commit message/);
  const file = join(r.dir, '.git', 'empty-msg');
  const text = '\n# Please enter the commit message\n#\n';
  writeFileSync(file, text);
  assert.equal((await r.cli(['hook', 'commit-msg', file])).code, 0);
  assert.equal(readFileSync(file, 'utf8'), text);
});

test('--no-verify and REVTRAIL=0 skip the hook', async () => {
  const r = await repo();
  stage(r, { 'j.js': `${DEBUGGER_LINE}\n` });
  assert.equal((await r.run(['commit', '--no-verify', '-m', 'feat: j'])).code, 0);
  assert.deepEqual(r.trailers(), []);
  stage(r, { 'k.js': `${DEBUGGER_LINE}\n` });
  const skip = await r.run(['commit', '-m', 'feat: k'], { env: { REVTRAIL: '0' } });
  assert.equal(skip.code, 0);
  assert.equal(skip.stderr, '');
  assert.deepEqual(r.trailers(), []);
});

test('a bad hand-written Review-Finding trailer aborts the commit, prints the line and the reason, leaves the file', async () => {
  const r = await repo();
  stage(r, { 'l.txt': 'text\n' });
  const message = 'feat: l\n\nReview-Finding: rf-0123456789,l.txt,1,x:y,style,nit,t,REJECT,';
  const run = await r.run(['commit', '-m', message]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /commit aborted: 1 Review-Finding trailer in the message is not valid/);
  assert.match(
    run.stderr,
    /COMMIT_EDITMSG:3: REJECT needs a rationale\n {4}Review-Finding: rf-0123456789,l\.txt,1,x:y,style,nit,t,REJECT,/,
  );
  assert.equal(readFileSync(join(r.dir, '.git', 'COMMIT_EDITMSG'), 'utf8'), `${message}\n`);
  assert.equal(r.git(['rev-list', '--count', 'HEAD']).trim(), '1');
  // A valid hand-written row goes through as written.
  const good = await r.run([
    'commit',
    '-m',
    'feat: l\n\nReview-Finding: rf-0123456789,l.txt,1,x:y,style,nit,t,REJECT,"`cat l.txt` shows text"',
  ]);
  assert.equal(good.code, 0, good.stderr);
  assert.deepEqual(r.trailers(), ['rf-0123456789,l.txt,1,x:y,style,nit,t,REJECT,"`cat l.txt` shows text"']);
});

test('a merge is reviewed for what it adds (nothing here); fixup!/squash!/amend! commits are reviewed like any other', async () => {
  const r = await repo();
  r.git(['checkout', '-q', '-b', 'topic']);
  stage(r, { 'm.js': `${DEBUGGER_LINE}\n` });
  assert.equal((await r.run(['commit', '--no-verify', '-m', 'feat: m'])).code, 0);
  r.git(['checkout', '-q', 'main']);
  stage(r, { 'other.txt': 'x\n' });
  r.git(['commit', '-q', '--no-verify', '-m', 'chore: other']);
  // The topic's own lines are in one parent: the merge itself adds nothing to review.
  const merge = await r.run(['merge', '--no-ff', '-m', 'Merge topic', 'topic']);
  assert.equal(merge.code, 0, merge.stderr);
  assert.deepEqual(r.trailers(), []);

  stage(r, { 'n.js': `${DEBUGGER_LINE}\n` });
  await r.run(['commit', '-m', 'feat: n']);
  const id = r.trailers()[0]!.split(',')[0]!;
  const verdict = await r.cli(['verdict', id, 'ACKNOWLEDGE', 'intended, see ADR-7']);
  assert.equal(verdict.code, 0, verdict.stderr);
  stage(r, { 'o.js': `${DEBUGGER_LINE}\n` });
  const fixup = await r.run(['commit', '-m', 'fixup! feat: n']);
  assert.equal(fixup.code, 0);
  const rows = r.trailers();
  assert.equal(rows.length, 2, rows.join('\n'));
  assert.match(rows[0]!, /^rf-[0-9a-f]{10},o\.js,1,builtin\/debug:debugger,.*,OPEN,$/);
  assert.ok(rows[1]!.startsWith(`${id},n.js,1,`) && rows[1]!.endsWith(',ACKNOWLEDGE,"intended, see ADR-7"'), rows[1]);
  for (const kind of ['squash!', 'amend!']) {
    stage(r, { [`${kind[0]}.js`]: `${DEBUGGER_LINE}\n` });
    assert.equal((await r.run(['commit', '-m', `${kind} feat: n`])).code, 0);
    assert.deepEqual(
      r.trailers().map((t) => t.split(',')[1]),
      [`${kind[0]}.js`],
    );
  }
});

test('commitMsg.record false writes no OPEN trailer; commitMsg.block true aborts a REQUEST_CHANGES commit', async () => {
  const r = await repo({ 'revtrail.config.json': '{"commitMsg": {"record": false}}\n' });
  stage(r, { 'p.js': `${DEBUGGER_LINE}\n` });
  const run = await r.run(['commit', '-m', 'feat: p']);
  assert.equal(run.code, 0);
  assert.deepEqual(r.trailers(), []);
  assert.match(run.stderr, /REQUEST_CHANGES: 1 finding/);

  r.write('revtrail.config.json', '{"commitMsg": {"block": true}}\n');
  stage(r, { 'q.js': `${DEBUGGER_LINE}\n` });
  const blocked = await r.run(['commit', '-m', 'feat: q']);
  assert.equal(blocked.code, 1);
  assert.match(blocked.stderr, /commit aborted \(commitMsg\.block\): 1 blocking finding/);
  assert.match(blocked.stderr, /q\.js:1 bug/);
  assert.equal(readFileSync(join(r.dir, '.git', 'COMMIT_EDITMSG'), 'utf8'), 'feat: q\n');
  assert.equal(r.git(['log', '-1', '--format=%s']).trim(), 'feat: p');
});

test("queued verdicts are written as rows with the finding's fields and leave the queue once the commit exists", async () => {
  const r = await repo();
  stage(r, { 'r.js': `${DEBUGGER_LINE}\n` });
  await r.run(['commit', '-m', 'feat: r']);
  const open = r.trailers()[0]!;
  const id = open.split(',')[0]!;
  assert.equal(
    (await r.cli(['verdict', id, 'reject', '`node r.js` exits 0: the statement is in a test fixture'])).code,
    0,
  );
  // An aborted commit (empty message) loses nothing.
  await r.run(['commit', '--allow-empty'], { env: { GIT_EDITOR: 'true' } });
  assert.equal((await readQueue(join(r.dir, '.git'))).length, 1);
  const run = await r.run(['commit', '--allow-empty', '-m', 'chore: verdicts']);
  assert.equal(run.code, 0);
  assert.match(run.stderr, new RegExp(`recorded 1 queued verdict: REJECT ${id}`));
  assert.deepEqual(r.trailers(), [
    open.replace(/OPEN,$/, 'REJECT,`node r.js` exits 0: the statement is in a test fixture'),
  ]);
  assert.equal((await readQueue(join(r.dir, '.git'))).length, 0, 'post-commit: the commit exists, the entry leaves');
  await r.run(['commit', '--allow-empty', '-m', 'chore: next']);
  assert.deepEqual(r.trailers(), [], 'written once');
  assert.equal(allTrailerRows(r).length, 2);
});

test('no CLI anywhere: one line on stderr and the commit goes on; a failing CLI is a warning; exit 1 blocks', async () => {
  const r = await repo();
  const shim = join(r.dir, 'node_modules', '.bin', 'revtrail');
  unlinkSync(shim);
  stage(r, { 's.js': `${DEBUGGER_LINE}\n` });
  const none = await r.run(['commit', '-m', 'feat: s']);
  assert.equal(none.code, 0);
  assert.equal(none.stderr.trim().split('\n').length, 1);
  assert.match(none.stderr, /revtrail: not found .* commit-msg check skipped/);

  // revtrail on PATH is the last resort.
  const binDir = tempDir();
  writeShim(binDir);
  stage(r, { 's2.js': `${DEBUGGER_LINE}\n` });
  const onPath = await r.run(['commit', '-m', 'feat: s2'], {
    env: { PATH: `${join(binDir, 'node_modules', '.bin')}:${process.env.PATH}` },
  });
  assert.equal(onPath.code, 0, onPath.stderr);
  assert.equal(r.trailers().length, 1);
  rmSync(binDir, { recursive: true, force: true });

  for (const [body, code] of [
    ['exit 7', 7],
    ['kill -9 $$', 137],
    ['exec /nonexistent/node', 127],
  ] as const) {
    writeFileSync(shim, `#!/bin/sh\n${body}\n`);
    chmodSync(shim, 0o755);
    const run = await r.run(['commit', '--allow-empty', '-m', `chore: ${code}`]);
    assert.equal(run.code, 0, `${body}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(`did not run to the end \\(exit ${code}\\); the commit goes on`));
  }
  writeFileSync(shim, '#!/bin/sh\necho blocked >&2\nexit 1\n');
  const blocked = await r.run(['commit', '--allow-empty', '-m', 'chore: blocked']);
  assert.equal(blocked.code, 1);

  // A broken config is no internal error: the review runs with the defaults and says why (docs/trust.md "Fails closed").
  writeShim(r.dir);
  r.write('revtrail.config.json', '{"nope": 1}\n');
  const broken = await r.run(['commit', '--allow-empty', '-m', 'chore: broken config']);
  assert.equal(broken.code, 0);
  assert.match(
    broken.stderr,
    /warning: revtrail\.config\.json: unknown key "nope"; the review ran with the default configuration and the built-in baseline/,
  );
  assert.doesNotMatch(broken.stderr, /did not run/);
});

test('two worktrees committing at once: both commits get their trailers, the shared queue stays whole', async () => {
  const r = await repo();
  stage(r, { 'base.js': `${DEBUGGER_LINE}\n` });
  await r.run(['commit', '-m', 'feat: base']);
  const id = r.trailers()[0]!.split(',')[0]!;
  assert.equal((await r.cli(['verdict', id, 'DEFER', 'JIRA-77 next sprint'])).code, 0);
  const wtParent = tempDir();
  const wt = join(wtParent, 'second tree');
  r.git(['worktree', 'add', '-q', '-b', 'two', wt]);
  writeShim(wt);
  assert.equal((await r.cli(['install'], { cwd: wt })).code, 0);
  stage(r, { 'one.js': `${DEBUGGER_LINE} // one\n` });
  writeFileSync(join(wt, 'two.js'), `${DEBUGGER_LINE} // two\n`);
  r.git(['add', '-A'], { cwd: wt });
  const [a, b] = await Promise.all([
    r.run(['commit', '-m', 'feat: one']),
    r.run(['commit', '-m', 'feat: two'], { cwd: wt }),
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  const rowsA = r.trailers('main');
  const rowsB = r.trailers('two');
  assert.ok(rowsA.some((t) => /,one\.js,1,.*,OPEN,$/.test(t)));
  assert.ok(rowsB.some((t) => /,two\.js,1,.*,OPEN,$/.test(t)));
  for (const rows of [rowsA, rowsB])
    assert.ok(
      rows.some((t) => t.startsWith(`${id},`) && t.includes(',DEFER,')),
      'the shared queue reaches both',
    );
  assert.equal((await readQueue(join(r.dir, '.git'))).length <= 1, true);
  JSON.parse(readFileSync(join(r.dir, '.git', 'revtrail', 'last-review.json'), 'utf8'));
  rmSync(wtParent, { recursive: true, force: true });
});

test('killed mid-way (SIGKILL at random points): the message file is the old or the new, never torn', async () => {
  const r = await repo();
  stage(r, Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}.js`, `${DEBUGGER_LINE} // ${i}\n`])));
  const original = 'feat: kill\n\nSome body text.\n';
  const file = join(r.dir, '.git', 'KILL_MSG');
  writeFileSync(file, original);
  const clean = await r.cli(['hook', 'commit-msg', file]);
  assert.equal(clean.code, 0, clean.stderr);
  const expected = readFileSync(file, 'utf8');
  assert.equal(expected.match(/Review-Finding: /g)!.length, 6);
  const started = Date.now();
  await r.cli(['hook', 'commit-msg', file]);
  const duration = Date.now() - started;
  for (let i = 0; i < 14; i++) {
    writeFileSync(file, original);
    const delay = Math.floor(Math.random() * duration * 1.1);
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [cliPath, 'hook', 'commit-msg', file], {
        cwd: r.dir,
        env: testEnv(),
        stdio: 'ignore',
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), delay);
      child.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const now = readFileSync(file, 'utf8');
    assert.ok(now === original || now === expected, `torn after ${delay} ms:\n${now}`);
  }
  // Deterministic ends of the range: killed before it can write, the message is the old one.
  writeFileSync(file, original);
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'hook', 'commit-msg', file], {
      cwd: r.dir,
      env: testEnv(),
      stdio: 'ignore',
    });
    child.on('spawn', () => child.kill('SIGKILL'));
    child.on('close', () => resolve());
  });
  assert.equal(readFileSync(file, 'utf8'), original, 'killed at once: untouched');
});

test('a message whose review finds nothing is left byte for byte', async () => {
  const r = await repo();
  stage(r, { 'clean.txt': 'hello\n' });
  const file = join(r.dir, '.git', 'CLEAN_MSG');
  writeFileSync(file, 'docs: hello');
  const run = await runProcess(process.execPath, [cliPath, 'hook', 'commit-msg', file], { cwd: r.dir });
  assert.equal(run.code, 0);
  assert.equal(run.stderr, '');
  assert.equal(readFileSync(file, 'utf8'), 'docs: hello');
});

test('every row written shows in git log %(trailers)', async () => {
  const r = await repo();
  stage(r, { 'w1.js': `${DEBUGGER_LINE}\n${DEBUGGER_LINE}\n`, 'w2.js': `x = 1;\n${DEBUGGER_LINE}\n` });
  await r.run(['commit', '-m', 'feat: many\n\nbody\n---\nmore']);
  const rows = allTrailerRows(r);
  assert.equal(rows.length, 3);
  for (const row of rows) assert.match(row, ROW);
  assert.equal(new Set(rows.map((x) => x.split(',')[0])).size, 3, 'repeats get their own ids');
});
