/**
 * Writes the file system refuses: a full disk, a read-only mount, a file where revtrail's folder
 * should be. Each says what happened in one or two lines (never "internal error … report it"),
 * and a commit message is never lost or half-written.
 *
 * Tests run as root, where chmod stops no write: the folder case uses a file in the way; full
 * and read-only file systems are real ones (a small tmpfs, a read-only bind mount) in a private
 * mount namespace (`unshare -m`), skipped with the reason where the machine does not allow it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, runProcess, tempDir } from '../kit/repo.js';
import { installedRepo, DEBUGGER_LINE } from '../kit/hooks.js';

function namespaceProblem(): string | null {
  const probe = tempDir();
  try {
    const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=16k tmpfs '${probe}'`], {
      encoding: 'utf8',
    });
    if (r.error) return `unshare is not available (${r.error.message})`;
    return r.status === 0
      ? null
      : `no private mount namespace here (unshare -m: ${r.stderr.trim() || `exit ${r.status}`})`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const noNamespace = namespaceProblem();

const NO_INTERNAL = /internal error|report it|did not run to the end/;

/** A repository with one recorded finding (so `verdict` knows an ID) and a staged change with another. */
async function repoWithFinding() {
  const r = await installedRepo();
  r.write('src/a.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  assert.equal((await r.run(['commit', '-m', 'feat: a'])).code, 0);
  const id = r.trailers()[0]!.split(',')[0]!;
  r.write('src/b.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  return { r, id };
}

test('a file where .git/revtrail should be: verdict says so in two lines; a commit keeps its rows', async () => {
  const { r, id } = await repoWithFinding();
  const state = join(r.dir, '.git', 'revtrail');
  rmSync(state, { recursive: true, force: true });
  writeFileSync(state, 'not a folder\n');

  const verdict = await r.cli(['verdict', id, 'REJECT', 'fixture, see `git show HEAD`']);
  assert.equal(verdict.code, 2, verdict.stderr);
  const lines = verdict.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 2, verdict.stderr);
  assert.match(
    lines[0]!,
    /^revtrail: cannot (read|write) .*\.git\/revtrail.*: a file is where a folder should be \((ENOTDIR|EEXIST)\)$/,
  );
  assert.match(lines[1]!, /move it aside/);

  const commit = await r.run(['commit', '-m', 'feat: b']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.doesNotMatch(commit.stderr, NO_INTERNAL);
  assert.ok(
    r.trailers().some((row) => row.includes(',src/b.js,')),
    'the OPEN row is in the commit',
  );
});

test('a full disk under the message file: the message is unchanged, two lines say why, no "recorded"', {
  skip: noNamespace ?? false,
}, async () => {
  const { r } = await repoWithFinding();
  const mnt = tempDir();
  const script = [
    'set -e',
    `mount -t tmpfs -o size=16k tmpfs '${mnt}'`,
    `printf 'feat: b\\n' > '${mnt}/MSG'`,
    `head -c 1000000 /dev/zero > '${mnt}/fill' 2>/dev/null || true`,
    'set +e',
    `'${process.execPath}' '${cliPath}' hook commit-msg '${mnt}/MSG'`,
    'echo "exit=$?"',
    `cat '${mnt}/MSG'`,
  ].join('\n');
  const run = await runProcess('unshare', ['-m', 'sh', '-c', script], { cwd: r.dir });
  rmSync(mnt, { recursive: true, force: true });
  assert.match(run.stdout, /^exit=0\nfeat: b\n$/, run.stderr);
  assert.doesNotMatch(run.stderr, NO_INTERNAL);
  assert.doesNotMatch(run.stderr, /recorded as Review-Finding/);
  assert.match(
    run.stderr,
    /^revtrail: warning: the Review-Finding trailer was not added: cannot write .*MSG: no space left on the device \(ENOSPC\); the commit goes on with your message unchanged\n {2}Free some disk space/m,
  );
});

test('a read-only .git/revtrail: verdict names the file and the remedy; the commit-msg hook keeps the commit going', {
  skip: noNamespace ?? false,
}, async () => {
  const { r, id } = await repoWithFinding();
  const state = join(r.dir, '.git', 'revtrail');
  mkdirSync(state, { recursive: true });
  const ro = `mount --bind '${state}' '${state}' && mount -o remount,bind,ro '${state}'`;
  const cli = (args: string) => `'${process.execPath}' '${cliPath}' ${args}`;
  const script = [
    `${ro} || exit 99`,
    `${cli(`verdict ${id} REJECT 'fixture, see \`git show HEAD\`'`)}; echo "verdict=$?"`,
    `printf 'feat: b\\n' > MSG2 && ${cli('hook commit-msg MSG2')}; echo "hook=$?"`,
  ].join('\n');
  const run = await runProcess('unshare', ['-m', 'sh', '-c', script], { cwd: r.dir });
  assert.match(run.stdout, /verdict=2\n/, run.stderr);
  assert.match(run.stdout, /hook=0\n/, run.stderr);
  assert.match(
    run.stderr,
    /^revtrail: cannot write .*\.git\/revtrail\/verdicts\.(jsonl|lock).*: the file system is read-only \(EROFS\)\n {2}The repository is mounted read-only/m,
  );
  assert.doesNotMatch(run.stderr, NO_INTERNAL);
});

test('a read-only .git with no .git/revtrail yet: verdict and review with an untracked file give the two typed lines, and leave nothing', {
  skip: noNamespace ?? false,
}, async () => {
  const { r, id } = await repoWithFinding();
  rmSync(join(r.dir, '.git', 'revtrail'), { recursive: true, force: true });
  r.write('src/untracked.js', 'export const u = 1;\n');
  const cli = (args: string) => `'${process.execPath}' '${cliPath}' ${args}`;
  const script = [
    `mount --bind .git .git && mount -o remount,bind,ro .git || exit 99`,
    `${cli(`verdict ${id} REJECT 'fixture, see \`git show HEAD\`'`)} 2>verdict.err; echo "verdict=$?"`,
    `${cli('review')} >/dev/null 2>review.err; echo "review=$?"`,
  ].join('\n');
  const run = await runProcess('unshare', ['-m', 'sh', '-c', script], { cwd: r.dir });
  const { readFileSync, existsSync } = await import('node:fs');
  assert.equal(run.stdout, 'verdict=2\nreview=2\n', run.stderr);
  const verdict = readFileSync(join(r.dir, 'verdict.err'), 'utf8');
  assert.equal(
    verdict,
    `revtrail: cannot write ${join(r.dir, '.git', 'revtrail')}: the file system is read-only (EROFS)\n  The repository is mounted read-only here: run revtrail where .git can be written.\n`,
  );
  const review = readFileSync(join(r.dir, 'review.err'), 'utf8');
  assert.equal(
    review,
    "revtrail: cannot write the repository's object store (.git/objects): the file system is read-only (EROFS)\n  The repository is mounted read-only here: run revtrail where .git can be written.\n",
  );
  assert.equal(existsSync(join(r.dir, '.git', 'revtrail')), false);
});

test('a full disk during verdict: two typed lines, and no 0-byte lock file left behind', {
  skip: noNamespace ?? false,
}, async () => {
  const { r, id } = await repoWithFinding();
  const state = join(r.dir, '.git', 'revtrail');
  mkdirSync(state, { recursive: true });
  const script = [
    `mount -t tmpfs -o size=16k tmpfs '${state}' || exit 99`,
    `head -c 1000000 /dev/zero > '${state}/fill' 2>/dev/null`,
    `'${process.execPath}' '${cliPath}' verdict ${id} REJECT 'fixture, see \`git show HEAD\`'; echo "verdict=$?"`,
    `ls -A '${state}'`,
  ].join('\n');
  const run = await runProcess('unshare', ['-m', 'sh', '-c', script], { cwd: r.dir });
  assert.equal(run.stdout, 'verdict=2\nfill\n', 'only the filler is there');
  assert.equal(
    run.stderr,
    `revtrail: cannot write ${join(state, 'verdicts.lock')}: no space left on the device (ENOSPC)\n  Free some disk space, then run the command again.\n`,
  );
});
