/**
 * Merges, branches and copies keep the record true (docs/record.md): a merge is reviewed for
 * the lines it adds itself; a queued verdict goes only into a commit whose history has its
 * finding, once; a cherry-picked copy is the same finding; a push counts committed verdicts
 * only and names the queued ones.
 */
import { foldRow } from '../../lib/record/row.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addRemote } from '../kit/hooks.js';
import { DEBUGGER_LINE, counts, idOf, recordKit, withVerdict } from '../kit/record.js';

const kit = await recordKit();
const { r } = kit;
const bare = addRemote(r);
after(() => bare.cleanup());
r.git(['push', '-q', '--no-verify', 'origin', 'main']);

test('merge without conflicts: nothing of its own to review; a verdict queued before it is written once', async () => {
  kit.branch('mg-base');
  kit.branch('mg-topic');
  await kit.commit({ 'mg/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: topic']);
  const [open] = kit.rows();
  const id = idOf(open!);
  r.git(['checkout', '-q', 'mg-base']);
  await kit.commit({ 'mg/other.txt': 'x\n' }, ['-m', 'chore: base']);
  // A verdict queued on the topic, not committed there: the merge's history has the finding.
  r.git(['checkout', '-q', 'mg-topic']);
  await kit.verdict(id, 'ACKNOWLEDGE', 'intended and documented in ADR-3');
  r.git(['checkout', '-q', 'mg-base']);
  // `-m merge`: git hands the hook a message without a final newline.
  await kit.git(['merge', '--no-ff', '-m', 'merge', 'mg-topic']);
  const ack = withVerdict(open!, 'ACKNOWLEDGE', 'intended and documented in ADR-3');
  assert.deepEqual(kit.rows(), [ack], "in git's trailer block (%(trailers) sees it)");
  assert.equal(r.git(['log', '-1', '--format=%B']), `merge\n\nReview-Finding: ${foldRow(ack!, 100)}\n\n`); // folded past 100 columns
  assert.deepEqual(await kit.queue(), [], 'post-merge: recorded, so it left the queue');
  // Back on the topic, the next commit does not write it a second time.
  r.git(['checkout', '-q', 'mg-topic']);
  await kit.git(['commit', '--allow-empty', '-m', 'chore: more']);
  assert.deepEqual(kit.rows(), []);
  r.git(['checkout', '-q', 'mg-base']);
  await kit.git(['merge', '--no-ff', '--no-edit', 'mg-topic']);
  assert.deepEqual(kit.rows(), []);
  assert.deepEqual(
    kit.allRows().filter((x) => idOf(x) === id),
    [ack, open],
  );
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts], [1, counts({ ACKNOWLEDGE: 1 })]);
});

test('merge with a conflict: a resolution with markers left in is reviewed and recorded', async () => {
  kit.branch('cf-base');
  await kit.commit({ 'cf/c.js': 'one\n' }, ['-m', 'chore: c']);
  kit.branch('cf-topic');
  await kit.commit({ 'cf/c.js': 'topic\n' }, ['-m', 'chore: topic side']);
  r.git(['checkout', '-q', 'cf-base']);
  await kit.commit({ 'cf/c.js': 'base\n' }, ['-m', 'chore: base side']);
  const merge = await r.run(['merge', 'cf-topic']);
  assert.equal(merge.code, 1, 'a conflict');
  // Committed as git left it: the markers are lines of neither parent.
  const stderr = await kit.commit({}, ['--no-edit']);
  const rows = kit.rows();
  assert.deepEqual(
    rows.map((x) => x.split(',').slice(1, 4).join(',')),
    ['cf/c.js,1,builtin/git:conflict-marker'],
  );
  assert.match(rows[0]!, /,OPEN,$/);
  assert.match(stderr, /\(what the merge adds\): 1 finding/);
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts], [1, counts({ OPEN: 1 })]);

  // A clean resolution that adds a line of its own: that line alone is reviewed.
  kit.branch('cf-base2', 'cf-base~2');
  await kit.commit({ 'cf/c.js': 'base\n' }, ['-m', 'chore: base side']);
  assert.equal((await r.run(['merge', 'cf-topic'])).code, 1);
  r.write('cf/c.js', `topic\n${DEBUGGER_LINE}\n`);
  await kit.commit({}, ['--no-edit']);
  assert.deepEqual(
    kit.rows().map((x) => x.split(',').slice(1, 4).join(',')),
    ['cf/c.js,2,builtin/debug:debugger'],
  );
});

test('switching branches with a queued verdict: it waits for the branch with the finding, then is written once', async () => {
  kit.branch('sw-a');
  await kit.commit({ 'sw/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  const id = idOf(open!);
  await kit.verdict(id, 'REJECT', 'not shipped: see `git grep -n debugger sw/`');
  r.git(['checkout', '-q', '-b', 'sw-b', 'main']);
  const elsewhere = await kit.commit({ 'sw/b.txt': 'b\n' }, ['-m', 'chore: b']);
  assert.deepEqual(kit.rows(), [], 'sw-b never had the finding');
  assert.match(elsewhere, new RegExp(`1 queued verdict not recorded here .*REJECT ${id}`));
  assert.equal((await kit.queue()).length, 1);

  r.git(['checkout', '-q', 'sw-a']);
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record']);
  const reject = withVerdict(open!, 'REJECT', 'not shipped: see `git grep -n debugger sw/`');
  assert.deepEqual(kit.rows(), [reject]);
  assert.deepEqual(await kit.queue(), []);
  r.git(['checkout', '-q', 'sw-b']);
  await kit.git(['merge', '--no-ff', '--no-edit', 'sw-a']);
  assert.deepEqual(
    kit.allRows().filter((x) => idOf(x) === id),
    [reject, open],
  );
  assert.deepEqual(kit.allRows('sw-b~1'), [], 'nothing landed on sw-b before the merge');
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts, view.human, view.rejectRate], [1, counts({ REJECT: 1 }), 1, 1]);
});

test('cherry-pick: the copies are the same finding; the fix commit is the real one, not a copy', async () => {
  kit.branch('cp-src');
  await kit.commit({ 'cp/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const raise = r.git(['rev-parse', 'HEAD']).trim();
  const [open] = kit.rows();
  const id = idOf(open!);
  await kit.verdict(id, 'ACCEPT', 'removed the statement from cp/a.js');
  await kit.commit({ 'cp/a.js': 'export const a = 1;\n' }, ['-m', 'fix: a']);
  const fix = r.git(['rev-parse', 'HEAD']).trim();
  const accept = withVerdict(open!, 'ACCEPT', 'removed the statement from cp/a.js');
  assert.deepEqual(kit.rows(), [accept]);

  kit.branch('cp-dst');
  // Copies made within the second of their originals, by the same committer onto the same parent,
  // would be the very same commits: an hour later, they are copies whatever the machine's speed.
  const later = Number(r.git(['log', '-1', '--format=%ct', fix]).trim()) + 3600;
  await kit.git(['cherry-pick', raise, fix], { GIT_COMMITTER_DATE: `@${later} +0000` });
  assert.deepEqual(kit.rows(), [accept]);
  assert.deepEqual(kit.rows('HEAD~1'), [open]);
  await kit.git(['merge', '--no-ff', '--no-edit', 'cp-src']);
  assert.deepEqual(kit.rows(), []);
  const view = await kit.record();
  assert.equal(view.mined.length, 4, view.mined.join('\n'));
  assert.deepEqual([view.findings, view.counts], [1, counts({ ACCEPT: 1 })]);
  const explained = await kit.explain(id);
  assert.deepEqual([explained.state, explained.occurrences], ['ACCEPT', 4]);
  assert.ok(
    explained.signals.fix_commit!.fact.includes(fix.slice(0, 7)) || explained.signals.fix_commit!.fact.includes(fix),
    explained.signals.fix_commit!.fact,
  );
  assert.equal(explained.signals.fix_commit!.met, true);
});

test('push: a verdict only queued does not open the gate; the output names it and the command that records it', async () => {
  kit.branch('push-a');
  await kit.commit({ 'pu/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const id = idOf(kit.rows()[0]!);
  await kit.verdict(id, 'REJECT', 'fixture only, `npm test` shows it');
  const blocked = await r.run(['push', 'origin', 'push-a']);
  assert.equal(blocked.code, 1);
  assert.match(
    blocked.stderr,
    new RegExp(`1 verdict is queued but not committed \\(a push counts committed verdicts only\\): REJECT ${id}`),
  );
  assert.match(blocked.stderr, /git commit --allow-empty -m "Record review verdicts"/);
  assert.doesNotMatch(
    blocked.stderr,
    new RegExp(`revtrail verdict ${id} REJECT\\|DEFER`),
    'it has its verdict already',
  );
  await kit.git(['commit', '--allow-empty', '-m', 'Record review verdicts']);
  const through = await r.run(['push', 'origin', 'push-a']);
  assert.equal(through.code, 0, through.stderr);
  assert.equal(bare.git(['rev-parse', 'push-a']).trim(), r.git(['rev-parse', 'HEAD']).trim());
});

test("merge --squash: the topic's records go into the squash commit, once, with -m and with git's prepared message", async () => {
  kit.branch('sq-base');
  kit.branch('sq-topic');
  await kit.commit({ 'sq/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: topic']);
  const [open] = kit.rows();
  const id = idOf(open!);
  await kit.verdict(id, 'ACKNOWLEDGE', 'kept on purpose');
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record the verdict']);
  const ack = withVerdict(open!, 'ACKNOWLEDGE', 'kept on purpose');
  for (const how of [['-m', 'feat: squashed'], ['--no-edit']]) {
    r.git(['checkout', '-q', '-B', 'sq-target', 'sq-base']);
    await kit.git(['merge', '--squash', 'sq-topic']);
    await kit.commit({}, how);
    assert.deepEqual(kit.rows(), [open, ack], `${how.join(' ')}: in git's trailer block, oldest first`);
    assert.equal(kit.messageRowCount(), 2, `${how.join(' ')}: the squash's own review adds no second OPEN row`);
    // The topic branch can go: the target's history alone holds the thread.
    const view = await kit.record();
    assert.deepEqual([view.findings, view.counts], [1, counts({ ACKNOWLEDGE: 1 })], how.join(' '));
  }
  // The next commit on the target has nothing to carry.
  await kit.git(['commit', '--allow-empty', '-m', 'chore: after']);
  assert.deepEqual(kit.rows(), []);
});

test('an abandoned merge --squash leaves SQUASH_MSG behind; the next commit takes nothing from it', async () => {
  kit.branch('sx-base');
  kit.branch('sx-topic');
  await kit.commit({ 'sx/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: topic']);
  const [open] = kit.rows();
  const id = idOf(open!);
  await kit.verdict(id, 'DEFER', 'tracked in #12 for the next release');
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record the verdict']);
  const defer = withVerdict(open!, 'DEFER', 'tracked in #12 for the next release');
  assert.deepEqual(kit.allRows(), [defer, open], 'before: the topic holds both rows');
  r.git(['checkout', '-q', 'sx-base']);
  await kit.git(['merge', '--squash', 'sx-topic']);
  // The squash is abandoned; git leaves SQUASH_MSG in place.
  await kit.git(['restore', '--staged', '--worktree', ':/']);
  assert.ok(existsSync(join(r.dir, '.git', 'SQUASH_MSG')));
  for (const how of [
    ['-m', 'chore: unrelated'],
    ['--allow-empty', '-m', 'chore: nothing staged'],
  ]) {
    await kit.commit({ 'sx/unrelated.txt': `${how.length}\n` }, how);
    assert.deepEqual(kit.rows(), [], `${how.join(' ')}: no row of the squash`);
    assert.equal(kit.messageRowCount(), 0);
  }
  assert.deepEqual(kit.allRows(), [], 'after: sx-base never had the finding');
  const view = await kit.record();
  assert.ok(!view.mined.some((x) => x.startsWith(id)), view.mined.join('\n'));
});

test('commit -C/-c: copied rows stay only where the branch has the finding, never as a second copy', async () => {
  kit.branch('cc-src');
  await kit.commit({ 'ccp/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const raise = r.git(['rev-parse', 'HEAD']).trim();
  const [open] = kit.rows();
  const id = idOf(open!);
  const rationale = 'a fixture as `grep -n debugger ccp/a.js` shows';
  await kit.verdict(id, 'REJECT', rationale);
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record']);
  const recorded = r.git(['rev-parse', 'HEAD']).trim();
  const reject = withVerdict(open!, 'REJECT', rationale);
  assert.deepEqual(kit.allRows(), [reject, open], 'before');

  // An unrelated branch: neither row belongs there.
  kit.branch('cc-other');
  const other = await kit.git(['commit', '--allow-empty', '-C', recorded]);
  assert.match(
    other,
    new RegExp(`1 Review-Finding row copied from ${recorded.slice(0, 7)} left out of this message: REJECT ${id}`),
  );
  assert.deepEqual(kit.allRows(), [], 'after -C on a branch without the finding');
  assert.equal(r.git(['log', '-1', '--format=%B']), 'chore: record\n\n');
  kit.branch('cc-other2');
  await kit.git(['commit', '--allow-empty', '-c', raise], { GIT_EDITOR: 'true' });
  assert.deepEqual(kit.allRows(), [], 'after -c of the raising commit, with nothing of it staged');

  // A branch with the finding and no verdict yet: the copied verdict belongs there.
  kit.branch('cc-open', raise);
  await kit.git(['commit', '--allow-empty', '-C', recorded]);
  assert.deepEqual(kit.allRows(), [reject, open], 'kept: the finding is in this history');
  // The same branch again: a second copy is left out.
  await kit.git(['commit', '--allow-empty', '-C', recorded]);
  assert.deepEqual(kit.rows(), []);
  assert.deepEqual(kit.allRows(), [reject, open]);
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts], [1, counts({ REJECT: 1 })]);
  // An amend (git says "commit HEAD" for it too) keeps its own rows.
  await kit.git(['commit', '--amend', '--allow-empty', '--no-edit']);
  assert.deepEqual(kit.rows(), []);
  assert.deepEqual(kit.allRows(), [reject, open]);
});
