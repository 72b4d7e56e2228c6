/**
 * Amends keep the record (docs/record.md "Amend"): whichever way the message is given, the
 * amended commit's records stay, once each; the amend is reviewed as the whole commit against
 * its parents; a record an amend still loses (--no-verify) is queued with one line saying so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEBUGGER_LINE, counts, idOf, recordKit, withVerdict } from '../kit/record.js';

const kit = await recordKit();
const { r } = kit;

test('amend with -m, -F, --no-edit and the editor: the OPEN row stays, once; a new finding joins it', async () => {
  kit.branch('amend-ways');
  await kit.commit({ 'am/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  assert.match(open!, /^rf-[0-9a-f]{10},am\/a\.js,1,builtin\/debug:debugger,correctness,bug,[^,]+,OPEN,$/);

  const amendM = await kit.git(['commit', '--amend', '-m', 'feat: a, reworded']);
  assert.deepEqual(kit.rows(), [open]);
  assert.match(amendM, /kept 1 Review-Finding record of the amended commit/);
  assert.equal(r.git(['log', '-1', '--format=%s']).trim(), 'feat: a, reworded');

  const file = join(r.dir, '.git', 'amend-message.txt');
  writeFileSync(file, 'feat: a, from a file\n');
  await kit.git(['commit', '--amend', '-F', file]);
  assert.deepEqual(kit.rows(), [open]);

  await kit.git(['commit', '--amend', '--no-edit']);
  assert.deepEqual(kit.rows(), [open]);
  assert.equal(kit.messageRowCount(), 1);

  // An editor that throws the whole message away and writes its own.
  const editor = kit.script('replace-message', 'printf "feat: a, edited\\n" > "$1"');
  await kit.git(['commit', '--amend'], { GIT_EDITOR: editor });
  assert.deepEqual(kit.rows(), [open]);
  assert.equal(r.git(['log', '-1', '--format=%s']).trim(), 'feat: a, edited');

  // Reviewed as the whole commit: the old finding is known, the new one gets its row.
  await kit.commit({ 'am/b.js': `${DEBUGGER_LINE}\n` }, ['--amend', '-m', 'feat: a and b']);
  const rows = kit.rows();
  assert.equal(rows.length, 2, rows.join('\n'));
  assert.equal(rows[0], open);
  assert.match(rows[1]!, /^rf-[0-9a-f]{10},am\/b\.js,1,builtin\/debug:debugger,.*,OPEN,$/);
  assert.equal(r.git(['rev-list', '--count', 'main..HEAD']).trim(), '1');

  const view = await kit.record();
  assert.deepEqual(
    view.mined,
    rows.map((x) => `${idOf(x)} OPEN`),
  );
  assert.equal(view.findings, 2);
  assert.deepEqual(view.counts, counts({ OPEN: 2 }));

  // The amend that removes the line: that finding is gone from the commit, and from the record.
  await kit.commit({ 'am/b.js': 'export const b = 1;\n' }, ['--amend', '-m', 'feat: a, b clean']);
  assert.deepEqual(kit.rows(), [open]);
  assert.equal((await kit.record()).findings, 1);

  // The same with --no-edit, where the message itself still holds the row: it leaves the message.
  const fixed = await kit.commit({ 'am/a.js': 'export const a = 1;\n' }, ['--amend', '--no-edit']);
  assert.deepEqual(kit.rows(), []);
  assert.equal(kit.messageRowCount(), 0);
  assert.equal(r.git(['log', '-1', '--format=%B']).trim(), 'feat: a, b clean', 'the rest of the message stays');
  assert.match(fixed, new RegExp(`the amend fixed a finding: its OPEN row left the message \\(${idOf(open!)}\\)`));
  assert.equal((await kit.record()).findings, 0, 'no stale OPEN row in the record');
});

test('amend after a recorded verdict: the verdict row stays, once, and the finding stays answered', async () => {
  kit.branch('amend-verdict');
  await kit.commit({ 'av/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: av']);
  const [open] = kit.rows();
  const id = idOf(open!);
  const rationale = 'false positive per `grep -n debugger av/a.js` in a fixture';
  await kit.verdict(id, 'REJECT', rationale);
  const recorded = await kit.git(['commit', '--allow-empty', '-m', 'chore: record verdict']);
  assert.match(recorded, new RegExp(`recorded 1 queued verdict: REJECT ${id}`));
  const reject = withVerdict(open!, 'REJECT', rationale);
  assert.deepEqual(kit.rows(), [reject]);
  assert.deepEqual(await kit.queue(), [], 'the commit exists: the entry left the queue');

  await kit.git(['commit', '--amend', '--allow-empty', '-m', 'chore: record the verdict, reworded']);
  assert.deepEqual(kit.rows(), [reject]);
  await kit.git(['commit', '--amend', '--allow-empty', '--no-edit']);
  assert.deepEqual(kit.rows(), [reject]);
  assert.deepEqual(
    kit.allRows().filter((x) => x.startsWith('rf-')),
    [reject, open],
  );

  const view = await kit.record();
  assert.deepEqual(view.mined, [`${id} REJECT`, `${id} OPEN`]);
  assert.deepEqual([view.findings, view.counts, view.human, view.rejectRate], [1, counts({ REJECT: 1 }), 1, 1]);
  const explained = await kit.explain(id);
  assert.equal(explained.state, 'REJECT');
  assert.equal(explained.occurrences, 2);
});

test('amend --no-verify drops the rows: post-rewrite queues them, says so, and the next commit records them', async () => {
  kit.branch('amend-no-verify');
  await kit.commit({ 'nv/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: nv']);
  const [open] = kit.rows();
  const id = idOf(open!);
  await kit.verdict(id, 'DEFER', 'tracked in #12 for the next sprint');
  await kit.git(['commit', '--allow-empty', '-m', 'chore: defer']);
  const defer = withVerdict(open!, 'DEFER', 'tracked in #12 for the next sprint');
  assert.deepEqual(kit.rows(), [defer]);

  const amend = await kit.git(['commit', '--amend', '--allow-empty', '--no-verify', '-m', 'chore: defer, reworded']);
  assert.deepEqual(kit.rows(), []);
  assert.match(
    amend,
    new RegExp(
      `1 Review-Finding record the rewrite left out of its new commit is queued for your next commit: DEFER ${id} \\([0-9a-f]{7} → [0-9a-f]{7}\\)`,
    ),
  );
  assert.deepEqual(
    (await kit.queue()).map((q) => `${q.verdict} ${q.id}`),
    [`DEFER ${id}`],
  );

  await kit.git(['commit', '--allow-empty', '-m', 'chore: next']);
  assert.deepEqual(kit.rows(), [defer]);
  assert.deepEqual(await kit.queue(), []);
  const view = await kit.record();
  assert.deepEqual(view.mined, [`${id} DEFER`, `${id} OPEN`]);
  assert.deepEqual(view.counts, counts({ DEFER: 1 }));
});

test("amend -m keeps an OPEN row no rule here can judge (a reviewer program's), and drops a fixed one", async () => {
  kit.branch('amend-unjudged');
  const foreign = 'rf-00000000aa,au/a.js,1,reviewer/naming:vague-name,style,nit,Vague name,OPEN,';
  await kit.commit({ 'au/a.js': `${DEBUGGER_LINE}\nexport const x = 1;\n` }, [
    '-m',
    `feat: au\n\nReview-Finding: ${foreign}`,
  ]);
  const rows = kit.rows();
  assert.equal(rows.length, 2);
  assert.equal(rows[0], foreign);
  await kit.commit({ 'au/a.js': 'export const x = 1;\n' }, ['--amend', '-m', 'feat: au, without the debugger']);
  assert.deepEqual(kit.rows(), [foreign]);
});
