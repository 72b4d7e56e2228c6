/**
 * One reading rule and git's own settings (docs/record.md "Counting", "Git's settings"): the
 * push gate, `verdict --list`, `stats` and `mine` agree on which rows count, and rows survive
 * the comment characters and trailer separators git accepts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { addRemote } from '../kit/hooks.js';
import { DEBUGGER_LINE, counts, idOf, recordKit, withVerdict } from '../kit/record.js';

const kit = await recordKit();
const { r } = kit;
const bare = addRemote(r);
after(() => bare.cleanup());
r.git(['push', '-q', '--no-verify', 'origin', 'main']);

test('a verdict row in the message body: every counting consumer reads it as not counted, and says so', async () => {
  kit.branch('body-a');
  await kit.commit({ 'body/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
  const [open] = kit.rows();
  const id = idOf(open!);
  const reject = withVerdict(open!, 'REJECT', 'a fixture as `grep -n debugger body/a.js` shows');
  // A paragraph of rows followed by another: git does not see it as a trailer block.
  const written = await kit.commit({}, [
    '--allow-empty',
    '-m',
    'chore: answer',
    '-m',
    `Review-Finding: ${reject}`,
    '-m',
    'Closing words.',
  ]);
  assert.match(written, /not in git's trailer block|trailer block/);
  assert.deepEqual(kit.rows(), [], "git's trailer view has no row");
  assert.equal(kit.messageRowCount(), 1, 'the row is in the body');
  assert.deepEqual(kit.allRows(), [open]);

  // mine lists it, placement "body", with a warning.
  const mine = await r.cli(['mine', '--format', 'jsonl']);
  assert.equal(mine.code, 0, mine.stderr);
  const records = mine.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; verdict: string; placement: string });
  assert.deepEqual(
    records.filter((x) => x.id === id).map((x) => `${x.verdict} ${x.placement}`),
    ['REJECT body', 'OPEN trailer'],
  );
  assert.match(mine.stderr, new RegExp(`Review-Finding ${id} is in the message body`));

  // stats counts what the gate counts: the finding is open.
  const stats = await r.cli(['stats', '--json']);
  assert.equal(stats.code, 0, stats.stderr);
  const total = (
    JSON.parse(stats.stdout) as { total: { findings: number; counts: Record<string, number>; human_verdicts: number } }
  ).total;
  assert.deepEqual([total.findings, total.counts, total.human_verdicts], [1, counts({ OPEN: 1 }), 0]);
  assert.match(stats.stderr, new RegExp(`1 Review-Finding row is in a message body.*not counted.*${id}`));

  // verdict --list: open; the push gate: blocked on it.
  const list = await r.cli(['verdict', '--list', '--json']);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(
    (JSON.parse(list.stdout) as { open: Array<{ id: string }> }).open.map((o) => o.id),
    [id],
  );
  const push = await r.run(['push', 'origin', 'body-a']);
  assert.equal(push.code, 1, push.stderr);
  assert.match(push.stderr, new RegExp(id));
});

test('core.commentChar=R with an editor commit: git strips every line starting with R, so the rows are written as review-finding and survive', async () => {
  kit.branch('cc-r');
  r.git(['config', 'core.commentChar', 'R']);
  try {
    const editor = kit.script('cc-editor', 'printf "feat: a\\n" > "$1"');
    const stderr = await kit.commit({ 'ccr/a.js': `${DEBUGGER_LINE}\n` }, [], { GIT_EDITOR: editor });
    assert.match(stderr, /1 recorded as Review-Finding trailer/);
    const [open] = kit.rows();
    assert.ok(open, "git's trailer view (key matched case-insensitively) holds the row");
    assert.match(open!, /^rf-[0-9a-f]+,ccr\/a\.js,1,builtin\/debug:debugger,.*,OPEN,$/);
    // Long rows are folded (docs/trailers.md "Folding"): a fold is a newline and one space.
    assert.equal(r.git(['log', '-1', '--format=%B']).replace(/\n /g, ''), `feat: a\n\nreview-finding: ${open}\n\n`);
    // A verdict, then an amend with the editor (git's prepared message holds the old row, which it strips).
    const id = idOf(open!);
    await kit.verdict(id, 'ACKNOWLEDGE', 'intended per ADR-9');
    await kit.commit({}, ['--allow-empty'], {
      GIT_EDITOR: kit.script('cc-editor2', 'printf "chore: record\\n" > "$1"'),
    });
    const ack = withVerdict(open!, 'ACKNOWLEDGE', 'intended per ADR-9');
    assert.deepEqual(kit.rows(), [ack]);
    await kit.git(['commit', '--amend', '--allow-empty'], { GIT_EDITOR: 'true' });
    assert.deepEqual(kit.rows(), [ack], 'amend with the editor keeps the row');
    assert.deepEqual(await kit.queue(), []);
    const view = await kit.record();
    assert.deepEqual([view.findings, view.counts], [1, counts({ ACKNOWLEDGE: 1 })]);
  } finally {
    r.git(['config', '--unset', 'core.commentChar']);
  }
});

test("trailer.separators='=': rows are written and read with ':' whatever the config says", async () => {
  kit.branch('sep');
  r.git(['config', 'trailer.separators', '=']);
  try {
    await kit.commit({ 'sep/a.js': `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a']);
    const body = r.git(['log', '-1', '--format=%B']).replace(/\n /g, ''); // unfolded (docs/trailers.md "Folding")
    const row = /^Review-Finding: (.*)$/m.exec(body)?.[1];
    assert.ok(row, body);
    assert.match(row!, /^rf-[0-9a-f]+,sep\/a\.js,1,builtin\/debug:debugger,.*,OPEN,$/, 'not ",OPEN,="');
    assert.equal(body, `feat: a\n\nReview-Finding: ${row}\n\n`);
    const id = idOf(row!);
    await kit.verdict(id, 'DEFER', 'tracked in #8 for the next release');
    await kit.git(['commit', '--allow-empty', '-m', 'chore: record']);
    const defer = withVerdict(row!, 'DEFER', 'tracked in #8 for the next release');
    assert.equal(
      r.git(['log', '-1', '--format=%B']).replace(/\n /g, ''),
      `chore: record\n\nReview-Finding: ${defer}\n\n`,
    );
    const withColon = (rev: string) =>
      r
        .git(['-c', 'trailer.separators=:', 'log', '-1', '--format=%(trailers:key=Review-Finding,valueonly)', rev])
        .replace(/\n /g, '')
        .split('\n')
        .filter(Boolean);
    assert.deepEqual([withColon('HEAD'), withColon('HEAD~1')], [[defer], [row]]);
    assert.deepEqual(await kit.queue(), [], 'the verdict was recorded: it left the queue');
    const view = await kit.record();
    assert.deepEqual([view.findings, view.counts], [1, counts({ DEFER: 1 })]);
    const list = await r.cli(['verdict', '--list', '--json']);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { open: Array<{ id: string }> }).open.filter((o) => o.id === id),
      [],
    );
  } finally {
    r.git(['config', '--unset', 'trailer.separators']);
  }
});

test('a newline in a file name: the row names the exact path in its escaped form, mine reads it back, verdict answers it', async () => {
  kit.branch('ctl');
  const name = 'ctl/a\nb.js';
  await kit.commit({ [name]: `${DEBUGGER_LINE}\n` }, ['-m', 'feat: a file with a newline in its name']);
  const [open] = kit.rows();
  assert.ok(open, 'recorded');
  assert.match(open!, /^rf-[0-9a-f]+,\/ctl\/a%0Ab\.js,1,builtin\/debug:debugger,.*,OPEN,$/);
  const id = idOf(open!);
  const mined = async () => {
    const mine = await r.cli(['mine', '--format', 'jsonl']);
    assert.equal(mine.code, 0, mine.stderr);
    return mine.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; file: string; verdict: string })
      .filter((x) => x.id === id)
      .map((x) => [x.file, x.verdict]);
  };
  assert.deepEqual(await mined(), [[name, 'OPEN']]);
  await kit.verdict(id, 'REJECT', 'a fixture as `git ls-files ctl` shows');
  await kit.git(['commit', '--allow-empty', '-m', 'chore: record']);
  const reject = withVerdict(open!, 'REJECT', 'a fixture as `git ls-files ctl` shows');
  assert.deepEqual(kit.allRows(), [reject, open]);
  assert.deepEqual(await mined(), [
    [name, 'REJECT'],
    [name, 'OPEN'],
  ]);
  const view = await kit.record();
  assert.deepEqual([view.findings, view.counts], [1, counts({ REJECT: 1 })]);
  // The gate reads the path back exactly: the push is not blocked by it.
  const push = await r.run(['push', 'origin', 'ctl']);
  assert.equal(push.code, 0, push.stderr);
});
