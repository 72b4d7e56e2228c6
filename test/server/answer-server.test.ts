/**
 * A server rejection is answerable from the pusher's clone (docs/server.md "Answering the
 * server"): a push that also changes the bundle is reviewed by the server with the policy main
 * had before it, and names a finding the clone's own hooks never saw. The rejection prints the
 * verdict command with `--policy-from`; run as printed, it queues the answer, the next commit
 * records it, and the next push passes. Real git, a bare repository with the server hook, a clone
 * with revtrail's hooks installed.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../kit/repo.js';
import { addRemote, installedRepo } from '../kit/hooks.js';

test('a finding only the server policy raises: the printed command answers it from the clone, and the next push passes', async () => {
  const r = await installedRepo();
  const bare = addRemote(r);
  after(() => {
    r.cleanup();
    bare.cleanup();
  });
  const first = await r.run(['push', '-q', 'origin', 'main']);
  assert.equal(first.code, 0, first.stderr);
  bare.git(['symbolic-ref', 'HEAD', 'refs/heads/main']);
  const installed = await runCli(['install', '--server', bare.dir], { cwd: tempDir() });
  assert.equal(installed.code, 0, installed.stderr);
  const policy = bare.git(['rev-parse', 'refs/heads/main']).trim();

  // One commit drops the bundle's rule and adds code it flagged: the clone's hooks review with
  // the new bundle and see nothing; the server reviews with main's and blocks.
  rmSync(join(r.dir, '.okfw', 'decisions'), { recursive: true });
  writeFileSync(join(r.dir, '.okfw', 'index.md'), '# Knowledge\n');
  r.write('src/controllers/user.js', 'export const all = () => db.query("select * from users");\n');
  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-q', '-m', 'feat: users (and no more rule)']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.deepEqual(r.trailers(), [], 'the clone saw no finding');
  const blocked = await r.run(['push', 'origin', 'main']);
  assert.equal(blocked.code, 1, blocked.stderr);
  assert.match(blocked.stderr, /Controller queries the database directly/);
  const printed =
    /remote: +(revtrail verdict (rf-[0-9a-f]{10}) REJECT\|DEFER\|ACKNOWLEDGE "…" --policy-from ([0-9a-f]{40}))/.exec(
      blocked.stderr,
    );
  assert.ok(printed, blocked.stderr);
  const [, , id, from] = printed;
  assert.equal(from, policy, 'the policy named is the commit main had before the push');
  assert.match(blocked.stderr, new RegExp(`revtrail review --range \\S+ --policy-from ${policy}`));

  // Without the server's policy the clone does not know the finding (what the rejection fixes).
  const unknown = await r.cli(['verdict', id!, 'REJECT', 'x']);
  assert.equal(unknown.code, 2, unknown.stdout + unknown.stderr);
  assert.match(unknown.stderr, /is not a finding revtrail knows on this branch/);

  // The printed command, with a verdict and a reason filled in.
  const answered = await r.cli([
    'verdict',
    id!,
    'REJECT',
    'the rule is retired in this very push: see `git show HEAD -- .okfw`',
    '--policy-from',
    from!,
  ]);
  assert.equal(answered.code, 0, answered.stdout + answered.stderr);
  assert.match(answered.stdout, new RegExp(`^Queued REJECT for ${id} \\(src/controllers/user\\.js:1 `));
  const recorded = await r.run(['commit', '-q', '--allow-empty', '-m', 'chore: record review verdicts']);
  assert.equal(recorded.code, 0, recorded.stderr);
  assert.ok(
    r.trailers().some((row) => row.startsWith(`${id},src/controllers/user.js,1,adr-0001`) && row.includes(',REJECT,')),
    r.trailers().join('\n'),
  );
  const through = await r.run(['push', 'origin', 'main']);
  assert.equal(through.code, 0, through.stderr);
  assert.equal(bare.git(['rev-parse', 'refs/heads/main']).trim(), r.git(['rev-parse', 'HEAD']).trim());
});
