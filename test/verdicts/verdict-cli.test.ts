import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readQueue } from '../../lib/verdicts/queue.js';
import { DEBUGGER_LINE, addRemote, allTrailerRows, installedRepo, type HookRepo } from '../kit/hooks.js';
import type { TestRepo } from '../kit/repo.js';

const cleanups: Array<{ cleanup(): void }> = [];
after(() =>
  cleanups.forEach((c) => {
    c.cleanup();
  }),
);

let shared: { r: HookRepo; committedId: string; pushedId: string } | undefined;

/** One repository: a finding recorded by a commit, another known only from a blocked push. */
async function setup() {
  if (shared) return shared;
  const r = await installedRepo();
  cleanups.push(r);
  const bare: TestRepo = addRemote(r);
  cleanups.push(bare);
  r.write('src/a.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  await r.run(['commit', '-q', '-m', 'feat: a']);
  const committedId = r.trailers()[0]!.split(',')[0]!;
  r.write('src/b.js', `${DEBUGGER_LINE} // b\n`);
  r.git(['add', '-A']);
  r.git(['commit', '-q', '--no-verify', '-m', 'feat: b']);
  const push = await r.run(['push', 'origin', 'main']);
  assert.equal(push.code, 1);
  const pushedId = (push.stderr.match(/rf-[0-9a-f]{10}/g) ?? []).find((id) => id !== committedId)!;
  assert.ok(pushedId, push.stderr);
  shared = { r, committedId, pushedId };
  return shared;
}

test('verdict --list shows open findings from history and from the blocked push; --json too', async () => {
  const { r, committedId, pushedId } = await setup();
  const list = await r.cli(['verdict', '--list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^Open findings \(2\):$/m);
  assert.match(list.stdout, new RegExp(`^  ${committedId}  src/a\\.js:1  bug  .*commit [0-9a-f]{12}\\)$`, 'm'));
  assert.match(list.stdout, new RegExp(`^  ${pushedId}  src/b\\.js:1  bug  .*push review, not committed\\)$`, 'm'));
  const json = JSON.parse((await r.cli(['verdict', '--list', '--json'])).stdout) as {
    open: Array<{ id: string; origin: string; rule_source: string }>;
    queue: unknown[];
  };
  assert.deepEqual(
    json.open.map((o) => [o.id, o.origin]).sort(),
    [
      [committedId, 'history'],
      [pushedId, 'pre-push'],
    ].sort(),
  );
  assert.equal(json.open[0]!.rule_source, 'builtin/debug:debugger');
  assert.deepEqual(json.queue, []);
});

test('verdict refuses unknown IDs, bad verdicts and empty rationales (exit 2); warns on a REJECT with nothing checkable', async () => {
  const { r, committedId } = await setup();
  const unknown = await r.cli(['verdict', 'rf-abcdefabcd', 'REJECT', '`x` y']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /rf-abcdefabcd is not a finding revtrail knows/);
  assert.match(unknown.stderr, /verdict --list/);
  const short = await r.cli(['verdict', committedId.slice(0, 7), 'REJECT', '`x` y']);
  assert.equal(short.code, 2);
  assert.match(
    short.stderr,
    new RegExp(`"${committedId.slice(0, 7)}" is too short to name a finding: give at least 6 hex digits after rf-`),
  );
  const notId = await r.cli(['verdict', 'fix-7', 'REJECT', '`x` y']);
  assert.equal(notId.code, 2);
  assert.match(notId.stderr, /"fix-7" is not a finding ID/);
  const bad = await r.cli(['verdict', committedId, 'MAYBE', 'x']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /"MAYBE" is not a verdict/);
  assert.equal((await r.cli(['verdict', committedId, 'OPEN', 'x'])).code, 2);
  const empty = await r.cli(['verdict', committedId, 'REJECT', '   ']);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /rationale refused: REJECT needs a rationale/);
  assert.equal((await r.cli(['verdict', committedId, 'REJECT'])).code, 2);
  assert.equal((await r.cli(['verdict'])).code, 2);
  assert.deepEqual(await readQueue(join(r.dir, '.git')), []);

  const weak = await r.cli(['verdict', committedId, 'reject', 'I', 'disagree']);
  assert.equal(weak.code, 0, weak.stderr);
  assert.match(weak.stderr, /warning: REJECT rationale cites nothing checkable/);
  assert.match(weak.stdout, new RegExp(`Queued REJECT for ${committedId} \\(src/a\\.js:1 `));
  const queue = await readQueue(join(r.dir, '.git'));
  assert.equal(queue.length, 1);
  assert.deepEqual(queue[0]!.row, {
    id: committedId,
    file: 'src/a.js',
    line: '1',
    rule_source: 'builtin/debug:debugger',
    category: 'correctness',
    severity: 'bug',
    issue: '`debugger` statement left in',
    verdict: 'REJECT',
    rationale: 'I disagree',
  });
});

test('a unique ID prefix works, a later verdict replaces the queued one, --drop removes it; from a subfolder', async () => {
  const { r, pushedId } = await setup();
  mkdirSync(join(r.dir, 'src', 'deep'), { recursive: true });
  const cwd = join(r.dir, 'src', 'deep');
  const first = await r.cli(['verdict', pushedId.slice(0, 9), 'Defer', 'JIRA-9 next sprint'], { cwd });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, new RegExp(`Queued DEFER for ${pushedId}`));
  const second = await r.cli(['verdict', pushedId, 'ACKNOWLEDGE', 'intended: documented in ADR-3', '--json'], { cwd });
  const json = JSON.parse(second.stdout) as { queued: { verdict: string }; replaced: { verdict: string } };
  assert.equal(json.queued.verdict, 'ACKNOWLEDGE');
  assert.equal(json.replaced.verdict, 'DEFER');
  const list = await r.cli(['verdict', '--list'], { cwd });
  assert.match(list.stdout, new RegExp(`${pushedId}  ACKNOWLEDGE  src/b\\.js:1  "intended: documented in ADR-3"`));
  assert.match(list.stdout, /\[queued: ACKNOWLEDGE\]/);
  assert.equal((await r.cli(['verdict', '--drop', pushedId], { cwd })).code, 0);
  assert.equal((await r.cli(['verdict', '--drop', pushedId], { cwd })).code, 2);
});

test('after the commit that records it, the finding is no longer open and the queue is empty', async () => {
  const { r, committedId, pushedId } = await setup();
  assert.equal((await r.cli(['verdict', pushedId, 'ACCEPT', 'removed the statement in src/b.js'])).code, 0);
  const commit = await r.run(['commit', '--allow-empty', '-m', 'chore: verdicts']);
  assert.equal(commit.code, 0, commit.stderr);
  const rows = allTrailerRows(r);
  assert.ok(
    rows.some(
      (x) => x.startsWith(`${pushedId},src/b.js,1,`) && x.endsWith(',ACCEPT,removed the statement in src/b.js'),
    ),
  );
  assert.ok(rows.some((x) => x.startsWith(`${committedId},`) && x.endsWith(',REJECT,I disagree')));
  const json = JSON.parse((await r.cli(['verdict', '--list', '--json'])).stdout) as {
    open: unknown[];
    queue: unknown[];
  };
  assert.deepEqual(json.open, []);
  assert.deepEqual(json.queue, [], '--list prunes what HEAD carries');
  // A recorded verdict can be followed by another (a DEFER that later became a fix).
  const later = await r.cli(['verdict', committedId, 'ACCEPT', 'fixed in src/a.js']);
  assert.equal(later.code, 0);
  assert.match(later.stdout, /follows the REJECT recorded in/);
});

test('an ID that only `revtrail review` showed can be answered (the latest review counts as open findings)', async () => {
  const r = await installedRepo();
  cleanups.push(r);
  r.write('src/c.js', `${DEBUGGER_LINE} // c\n`);
  r.git(['add', '-A']);
  const reviewed = await r.cli(['review', '--staged', '--format', 'json']);
  assert.equal(reviewed.code, 1, reviewed.stderr);
  const id = (JSON.parse(reviewed.stdout) as { findings: Array<{ id: string }> }).findings[0]!.id;
  const answered = await r.cli(['verdict', id, 'DEFER', 'tracked in #12']);
  assert.equal(answered.code, 0, answered.stderr);
  assert.deepEqual(
    (await readQueue(join(r.dir, '.git'))).map((q) => [q.id, q.verdict]),
    [[id, 'DEFER']],
  );
});
