/**
 * The pre-applypatch hook (docs/hooks.md, "The hooks, and adding one"): `git am` runs no
 * commit-msg, so this hook reviews what a mailed patch adds once it is in the index. Real
 * `git format-patch` and `git am` in a repository with the hooks installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_KEY, DEBUGGER_LINE, installedRepo, type HookRepo } from '../kit/hooks.js';

/** A mailed patch adding `files`: committed without the hooks, formatted, and the commit taken back. */
async function mailedPatch(r: HookRepo, subject: string, files: Record<string, string>): Promise<string> {
  r.commit(subject, files, { env: { REVTRAIL: '0' } });
  const patch = r.git(['format-patch', '-1', '--stdout']);
  r.git(['reset', '-q', '--hard', 'HEAD~1']);
  return patch;
}

const subjects = (r: HookRepo) => r.git(['log', '--format=%s']).trim().split('\n');

test('git am stops at a patch that adds a key (the patch stays applied, nothing committed); a queued REJECT lets git am --continue commit it, without trailers', async () => {
  const r = await installedRepo();
  assert.match(
    readFileSync(join(r.dir, '.husky', 'pre-applypatch'), 'utf8'),
    /"\$revtrail_cli" hook pre-applypatch "\$@"/,
  );
  const before = subjects(r);
  const patch = await mailedPatch(r, 'feat: config', { 'src/config.js': `export const key = "${AWS_KEY}";\n` });

  const stopped = await r.run(['am'], { input: patch });
  assert.equal(stopped.code, 1, stopped.stderr);
  assert.match(
    stopped.stderr,
    /revtrail: commit aborted: a credential in what this commit adds \(commitMsg\.blockCredentials\)/,
  );
  assert.match(
    stopped.stderr,
    /src\/config\.js:1 security AWS access key ID committed \(builtin\/secrets:aws-access-key\) rf-[0-9a-f]{10}/,
  );
  assert.deepEqual(subjects(r), before, 'nothing committed');
  assert.equal(
    r.git(['diff', '--cached', '--name-only']).trim(),
    'src/config.js',
    'the patch stays applied in the index',
  );
  assert.ok(existsSync(join(r.dir, '.git', 'rebase-apply')), 'git am waits for --continue or --skip');

  const id = /rf-[0-9a-f]{10}/.exec(stopped.stderr)![0];
  const verdict = await r.cli(['verdict', id, 'REJECT', 'a published example key (docs/aws.md)']);
  assert.equal(verdict.code, 0, verdict.stderr);
  const resumed = await r.run(['am', '--continue']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /revtrail: APPROVE: 0 findings \(1 more answered by a verdict\)/);
  assert.deepEqual(subjects(r), ['feat: config', ...before]);
  // This hook has no message to write into: the patch's commit carries no Review-Finding row.
  assert.deepEqual(r.trailers(), []);
});

test('a blocking finding: git am goes on and says so by default; with commitMsg.block it stops; REVTRAIL=0 skips the hook', async () => {
  const r = await installedRepo();
  const before = subjects(r);
  const patch = await mailedPatch(r, 'feat: debug', { 'src/d.js': `${DEBUGGER_LINE}\n` });

  const applied = await r.run(['am'], { input: patch });
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stderr, /revtrail: REQUEST_CHANGES: 1 finding\n/);
  assert.match(applied.stderr, /src\/d\.js:1 bug .*builtin\/debug:debugger/);
  assert.match(applied.stderr, /A push with these blocking findings is stopped/);
  assert.deepEqual(subjects(r), ['feat: debug', ...before]);
  assert.deepEqual(r.trailers(), []);

  r.git(['reset', '-q', '--hard', 'HEAD~1']);
  writeFileSync(join(r.dir, 'revtrail.config.json'), JSON.stringify({ commitMsg: { block: true } }));
  const blocked = await r.run(['am'], { input: patch });
  assert.equal(blocked.code, 1, blocked.stderr);
  assert.match(blocked.stderr, /revtrail: commit aborted \(commitMsg\.block\): 1 blocking finding/);
  assert.deepEqual(subjects(r), before);
  assert.equal((await r.run(['am', '--abort'])).code, 0);

  const skipped = await r.run(['am'], { input: patch, env: { REVTRAIL: '0' } });
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.doesNotMatch(skipped.stderr, /revtrail/);
  assert.deepEqual(subjects(r), ['feat: debug', ...before]);
});

test('an install from before this hook keeps working without it, and doctor says it is missing (a warning, not a failure)', async () => {
  const r = await installedRepo();
  r.git(['rm', '-q', '.husky/pre-applypatch']);
  r.git(['commit', '-q', '-m', 'chore: hooks of an older revtrail']);
  const doctor = await r.cli(['doctor']);
  assert.match(doctor.stdout, /^ {2}warn {2}this worktree: no revtrail block in \.husky\/pre-applypatch/m);
  assert.doesNotMatch(doctor.stdout, /FAIL.*pre-applypatch/);
  const patch = await mailedPatch(r, 'feat: a', { 'src/a.js': 'export const a = 1;\n' });
  const applied = await r.run(['am'], { input: patch });
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(subjects(r)[0], 'feat: a');
});
