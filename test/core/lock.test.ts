/**
 * Locks whose holder is gone are taken over at once: a SIGKILLed holder on this host (its pid
 * no longer exists) and a lock dated in the future. The real commands run against lock files
 * written the way a killed hook or a moved clock leaves them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '../kit/repo.js';
import { installedRepo, DEBUGGER_LINE } from '../kit/hooks.js';
import { isStale, withLock } from '../../lib/core/fs/lock.js';

/** A pid that existed and no longer does: a process that ran and exited. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  assert.ok(pid && pid > 0);
  return pid;
}

function writeLock(file: string, content: string, mtimeOffsetMs: number): void {
  writeFileSync(file, content);
  const when = new Date(Date.now() + mtimeOffsetMs);
  utimesSync(file, when, when);
}

test('isStale: a dead pid on this host, a lock too old or from the future; a live holder is not', () => {
  const now = Date.now();
  const host = hostname();
  assert.equal(isStale(`${deadPid()} ${host}\n`, now, now, host), true, 'dead pid, this host');
  assert.equal(isStale(`${deadPid()}\n`, now, now, host), true, 'dead pid, old format (pid only)');
  assert.equal(isStale(`${process.ppid} ${host}\n`, now, now, host), false, 'live pid');
  assert.equal(isStale(`${deadPid()} elsewhere\n`, now, now, host), false, 'another host: only age tells');
  assert.equal(isStale(`${process.ppid} elsewhere\n`, now - 60_000, now, host), true, 'too old');
  assert.equal(isStale(`${process.ppid} ${host}\n`, now + 3_600_000, now, host), true, 'from the future');
  assert.equal(isStale('', now, now, host), false, 'being written: its age decides');
});

test("withLock takes a dead holder's lock and a future-dated one at once; waits for a live one", async () => {
  const dir = tempDir();
  const lock = join(dir, 'x.lock');
  writeLock(lock, `${deadPid()} ${hostname()}\n`, 1_000);
  assert.equal(
    await withLock(lock, async () => readFileSync(lock, 'utf8'), { waitMs: 0 }),
    `${process.pid} ${hostname()}\n`,
  );
  assert.equal(existsSync(lock), false, 'released');
  writeLock(lock, `${process.ppid} ${hostname()}\n`, 3_600_000);
  assert.equal(await withLock(lock, async () => 'ran', { waitMs: 0 }), 'ran');
  writeLock(lock, `${process.ppid} ${hostname()}\n`, 0);
  await assert.rejects(
    withLock(lock, async () => 'ran', { waitMs: 50 }),
    /another revtrail process holds/,
  );
  assert.equal(readFileSync(lock, 'utf8'), `${process.ppid} ${hostname()}\n`, "a live holder's lock is left alone");
});

test('a commit after a SIGKILLed hook (dead pid in last-review.lock) and with a future-dated queue lock keeps its rows and its verdicts', async () => {
  const r = await installedRepo();
  r.write('src/a.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  assert.equal((await r.run(['commit', '-m', 'feat: a'])).code, 0);
  const [open] = r.trailers();
  const id = open!.split(',')[0]!;
  assert.equal((await r.cli(['verdict', id, 'REJECT', 'fixture, see `git show HEAD`'])).code, 0);

  const state = join(r.dir, '.git', 'revtrail');
  // A holder killed with SIGKILL a moment ago (its lock is fresh), and a lock from a clock that ran ahead.
  writeLock(join(state, 'last-review.lock'), `${deadPid()} ${hostname()}\n`, 1_000);
  writeLock(join(state, 'verdicts.lock'), `${process.ppid} other-host\n`, 3_600_000);
  r.write('src/b.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-m', 'feat: b']);
  assert.equal(commit.code, 0, commit.stderr);
  assert.doesNotMatch(commit.stderr, /another revtrail process|could not save|did not run to the end/);
  const rows = r.trailers();
  assert.ok(
    rows.some((row) => row.includes(',src/b.js,') && row.endsWith(',OPEN,')),
    rows.join('\n'),
  );
  assert.ok(
    rows.some((row) => row.startsWith(`${id},`) && row.includes(',REJECT,')),
    rows.join('\n'),
  );
  assert.match(readFileSync(join(state, 'last-review.json'), 'utf8'), /src\/b\.js/);
});
