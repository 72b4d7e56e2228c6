/**
 * Rebases, stashes and worktrees keep the record (docs/record.md "Rebase"): after a reword,
 * a squash, a fixup or an autosquash every record of the rewritten commits is in git's trailer
 * block of its new commit, once; a stash round trip changes nothing; a linked worktree shares
 * the queue and records like the main one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeShim } from '../kit/hooks.js';
import { DEBUGGER_LINE, counts, idOf, recordKit, withVerdict } from '../kit/record.js';

const kit = await recordKit();
const { r } = kit;

/** A sequence editor that rewrites the todo list with sed expressions. */
const todo = (name: string, ...sed: string[]) =>
  kit.script(name, `sed -i ${sed.map((e) => `-e '${e}'`).join(' ')} "$1"`);

test('rebase -i reword: the editor drops the rows, the reworded commit still has them', async () => {
  kit.branch('rw');
  await kit.commit({ 'rw/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  await kit.commit({ 'rw/b.txt': 'b\n' }, ['-m', 'chore: b']);
  const seq = todo('reword', '1s/^pick/reword/');
  const editor = kit.script('reword-editor', 'printf "feat: a, reworded\\n" > "$1"');
  await kit.git(['rebase', '-i', 'main'], { GIT_SEQUENCE_EDITOR: seq, GIT_EDITOR: editor });
  assert.equal(r.git(['log', '-1', '--format=%s', 'HEAD~1']).trim(), 'feat: a, reworded');
  assert.deepEqual(kit.rows('HEAD~1'), [open]);
  assert.deepEqual(kit.allRows(), [open]);
  assert.deepEqual(await kit.queue(), []);
});

test("rebase -i squash and fixup: both commits' records are in the trailer block of the result, once each", async () => {
  kit.branch('sq');
  await kit.commit({ 'sq/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [a] = kit.rows();
  await kit.verdict(idOf(a!), 'DEFER', 'tracked in #31 until the release');
  await kit.commit({ 'sq/b.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: b']);
  const [b, deferA] = kit.rows();
  assert.equal(deferA, withVerdict(a!, 'DEFER', 'tracked in #31 until the release'));
  await kit.commit({ 'sq/c.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: c']);
  const [c] = kit.rows();
  const seq = todo('squash-fixup', '2s/^pick/squash/', '3s/^pick/fixup/');
  const editor = kit.script('keep-message', 'true');
  await kit.git(['rebase', '-i', 'main'], { GIT_SEQUENCE_EDITOR: seq, GIT_EDITOR: editor });
  assert.equal(r.git(['rev-list', '--count', 'main..HEAD']).trim(), '1');
  assert.deepEqual(kit.rows(), [a, b, deferA, c]);
  assert.equal(kit.messageRowCount(), 4, 'no copy left in the body');
  assert.deepEqual(await kit.queue(), []);
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts], [3, counts({ OPEN: 2, DEFER: 1 })]);
  assert.equal(view.mined.length, 4);
});

test('autosquash: fixup! and amend! commits are reviewed, and their findings end up in the target commit', async () => {
  kit.branch('as');
  await kit.commit({ 'as/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [a] = kit.rows();
  await kit.commit({ 'as/b.txt': 'b\n' }, ['-m', 'chore: b']);
  await kit.commit({ 'as/f.js': `${DEBUGGER_LINE}\n` }, ['-m', 'fixup! feat: a']);
  const [f] = kit.rows();
  assert.match(f!, /^rf-[0-9a-f]{10},as\/f\.js,1,builtin\/debug:debugger,.*,OPEN,$/, 'a fixup! commit is reviewed');
  await kit.commit({ 'as/g.js': `${DEBUGGER_LINE}\n` }, ['-m', 'amend! feat: a\n\nfeat: a, with f and g']);
  const [g] = kit.rows();
  await kit.git(['rebase', '-i', '--autosquash', 'main'], { GIT_SEQUENCE_EDITOR: 'true', GIT_EDITOR: 'true' });
  assert.equal(r.git(['rev-list', '--count', 'main..HEAD']).trim(), '2');
  assert.equal(r.git(['log', '-1', '--format=%s', 'HEAD~1']).trim(), 'feat: a, with f and g');
  assert.deepEqual(kit.rows('HEAD~1'), [a, f, g]);
  assert.deepEqual(kit.rows(), []);
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts, view.mined.length], [3, counts({ OPEN: 3 }), 3]);
});

test('rebase onto a moved base keeps every row; a row deleted in a squash editor is queued with one line, then recorded', async () => {
  kit.branch('mv');
  await kit.commit({ 'mv/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [a] = kit.rows();
  await kit.commit({ 'mv/b.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: b']);
  const [b] = kit.rows();
  kit.branch('mv-base');
  await kit.commit({ 'mv/base.txt': 'x\n' }, ['-m', 'chore: base moves']);
  r.git(['checkout', '-q', 'mv']);
  await kit.git(['rebase', 'mv-base']);
  assert.deepEqual([kit.rows('HEAD~1'), kit.rows()], [[a], [b]]);

  // The user deletes every Review-Finding line while editing the squashed message.
  const seq = todo('squash-only', '2s/^pick/squash/');
  const editor = kit.script('drop-rows', 'sed -i "/^Review-Finding:/d" "$1"');
  const run = await kit.git(['rebase', '-i', 'mv-base'], { GIT_SEQUENCE_EDITOR: seq, GIT_EDITOR: editor });
  assert.deepEqual(kit.rows(), []);
  assert.match(
    run,
    new RegExp(
      `2 Review-Finding records the rewrite left out of their new commits are queued for your next commit: OPEN ${idOf(a!)} .*OPEN ${idOf(b!)}`,
    ),
  );
  await kit.git(['commit', '--allow-empty', '-m', 'chore: next']);
  assert.deepEqual(kit.rows(), [a, b]);
  assert.deepEqual(await kit.queue(), []);
  assert.equal((await kit.record()).findings, 2);
});

test('git stash round trip: the queue and the record are unchanged, the stashed finding is reviewed when committed', async () => {
  kit.branch('st');
  await kit.commit({ 'st/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  await kit.verdict(idOf(open!), 'ACKNOWLEDGE', 'intended per ADR-9');
  r.write('st/b.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  const before = await kit.queue();
  await kit.git(['stash']);
  await kit.git(['stash', 'pop']);
  assert.deepEqual(await kit.queue(), before);
  assert.deepEqual(kit.allRows(), [open]);
  r.git(['add', '-A']);
  await kit.git(['commit', '-m', 'feat: b']);
  const rows = kit.rows();
  assert.equal(rows.length, 2, rows.join('\n'));
  assert.match(rows[0]!, /^rf-[0-9a-f]{10},st\/b\.js,1,.*,OPEN,$/);
  assert.equal(rows[1], withVerdict(open!, 'ACKNOWLEDGE', 'intended per ADR-9'));
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts], [2, counts({ OPEN: 1, ACKNOWLEDGE: 1 })]);
});

test('a linked worktree: its commits are reviewed, the shared queue is recorded and emptied from there', async () => {
  kit.branch('wt-main');
  const dir = join(r.dir, '..', `${r.dir.split('/').pop()}-wt`);
  await kit.git(['worktree', 'add', '-q', '-b', 'wt-side', dir, 'main']);
  writeShim(dir);
  const install = await r.cli(['install'], { cwd: dir });
  assert.equal(install.code, 0, install.stderr);
  r.write(`../${dir.split('/').pop()}/wt/a.js`, `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A'], { cwd: dir });
  const commit = await r.run(['commit', '-m', 'feat: wt'], { cwd: dir });
  assert.equal(commit.code, 0, commit.stderr);
  const [open] = kit.rows('wt-side');
  assert.match(open!, /^rf-[0-9a-f]{10},wt\/a\.js,1,.*,OPEN,$/);
  const verdict = await r.cli(['verdict', idOf(open!), 'REJECT', 'a fixture as `ls wt/` shows'], { cwd: dir });
  assert.equal(verdict.code, 0, verdict.stderr);
  // The main worktree is on a branch without the finding: nothing lands there.
  await kit.git(['commit', '--allow-empty', '-m', 'chore: main side']);
  assert.deepEqual(kit.rows(), []);
  const record = await r.run(['commit', '--allow-empty', '-m', 'chore: record'], { cwd: dir });
  assert.equal(record.code, 0, record.stderr);
  assert.deepEqual(kit.rows('wt-side'), [withVerdict(open!, 'REJECT', 'a fixture as `ls wt/` shows')]);
  assert.deepEqual(await kit.queue(), []);
  r.git(['worktree', 'remove', '--force', dir]);
});

test('rebase -i drop of the commit that carried a REJECT: git runs no post-rewrite; the verdict is queued, said once, listed, and the next commit records it', async () => {
  kit.branch('dr');
  await kit.commit({ 'dr/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  const id = idOf(open!);
  const rationale = 'a fixture as `grep -n debugger dr/a.js` shows';
  await kit.verdict(id, 'REJECT', rationale);
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record the verdict']);
  const dropped = r.git(['rev-parse', 'HEAD']).trim();
  const reject = withVerdict(open!, 'REJECT', rationale);
  assert.deepEqual(kit.allRows(), [reject, open], 'before');
  // Drop the last commit: the first is kept as it is, so git rewrites nothing.
  await kit.git(['rebase', '-i', 'main'], {
    GIT_SEQUENCE_EDITOR: todo('drop-last', '2s/^pick/drop/'),
    GIT_EDITOR: 'true',
  });
  assert.deepEqual(kit.allRows(), [open], 'after the rebase: the REJECT is in no commit');
  const list = await r.cli(['verdict', '--list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(
    list.stderr,
    new RegExp(`1 verdict of commits the rebase dropped is queued: REJECT ${id} \\(${dropped.slice(0, 7)}\\)`),
  );
  assert.match(list.stdout, new RegExp(`${id}  REJECT .*which a rebase dropped`));
  assert.deepEqual(
    (await kit.queue()).map((q) => [q.id, q.verdict, q.carriedFrom, q.dropped]),
    [[id, 'REJECT', dropped, true]],
  );
  // Said once: a second look finds nothing new to settle.
  assert.doesNotMatch((await r.cli(['verdict', '--list'])).stderr, /rebase dropped/);
  const next = await kit.commit({ 'dr/b.txt': 'b\n' }, ['-m', 'chore: next']);
  assert.match(next, new RegExp(`recorded 1 queued verdict: REJECT ${id}`));
  assert.deepEqual(kit.allRows(), [reject, open], 'after the next commit');
  assert.deepEqual(await kit.queue(), []);
});

test('rebase -i drop in the middle (post-rewrite runs) and a commit dropped as empty: verdicts queued; the person may discard one', async () => {
  kit.branch('dm');
  await kit.commit({ 'dm/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  const id = idOf(open!);
  await kit.verdict(id, 'DEFER', 'tracked in #44 for the next release');
  await kit.commit({ 'dm/b.txt': 'b\n' }, ['-m', 'chore: b']);
  const middle = r.git(['rev-parse', 'HEAD']).trim();
  const defer = withVerdict(open!, 'DEFER', 'tracked in #44 for the next release');
  assert.deepEqual(kit.rows(), [defer]);
  await kit.commit({ 'dm/c.txt': 'c\n' }, ['-m', 'chore: c']);
  const stderr = await kit.git(['rebase', '-i', 'main'], {
    GIT_SEQUENCE_EDITOR: todo('drop-middle', '2s/^pick/drop/'),
    GIT_EDITOR: 'true',
  });
  assert.match(
    stderr,
    new RegExp(`1 verdict of commits the rebase dropped is queued: DEFER ${id} \\(${middle.slice(0, 7)}\\)`),
  );
  assert.deepEqual(kit.allRows(), [open]);
  assert.deepEqual(
    (await kit.queue()).map((q) => [q.id, q.verdict, q.dropped]),
    [[id, 'DEFER', true]],
  );
  const discard = await r.cli(['verdict', '--drop', id]);
  assert.equal(discard.code, 0, discard.stderr);
  assert.deepEqual(await kit.queue(), []);

  // A commit whose change the new base has already: the rebase drops it as empty.
  kit.branch('de-base');
  await kit.commit({ 'de/b.txt': 'same\n' }, ['-m', 'chore: b upstream']);
  kit.branch('de', 'main');
  await kit.commit({ 'de/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [openE] = kit.rows();
  const idE = idOf(openE!);
  await kit.verdict(idE, 'ACKNOWLEDGE', 'intended per ADR-7');
  await kit.commit({ 'de/b.txt': 'same\n', 'de/b2.txt': 'x\n' }, ['-m', 'chore: b']);
  const ack = withVerdict(openE!, 'ACKNOWLEDGE', 'intended per ADR-7');
  assert.deepEqual(kit.rows(), [ack]);
  await kit.git(['rm', '-q', 'de/b2.txt']);
  await kit.git(['commit', '--amend', '--no-edit', '--no-verify']);
  const emptied = r.git(['rev-parse', 'HEAD']).trim();
  assert.deepEqual(kit.rows(), [ack]);
  const out = await kit.git(['rebase', 'de-base']);
  assert.equal(r.git(['log', '-1', '--format=%s']).trim(), 'feat: a', 'the second commit was dropped');
  assert.match(out, new RegExp(`ACKNOWLEDGE ${idE} \\(${emptied.slice(0, 7)}\\)`));
  assert.deepEqual(kit.allRows(), [openE]);
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record']);
  assert.deepEqual(kit.rows(), [ack]);
  assert.deepEqual(await kit.queue(), []);
});
