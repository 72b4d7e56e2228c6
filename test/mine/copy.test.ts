/**
 * A cached re-run copies its records to stdout with blocking writes (lib/mine/sink.ts
 * copyToFd); a stdout that is non-blocking gets the rest through the stream, byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cliPath, runCli, testEnv, throwawayRepos } from '../kit/repo.js';
import { message, row } from '../kit/mine.js';

const repos = throwawayRepos();

/**
 * `revtrail mine 2>&1`, read late: stdout and stderr are one pipe, so the stream on stderr (the
 * REVTRAIL_DEBUG line comes first) makes stdout non-blocking too (Node sets O_NONBLOCK on it).
 */
function mineIntoOnePipe(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'exec "$0" "$1" mine 2>&1', process.execPath, cliPath], {
      cwd,
      env: testEnv({ REVTRAIL_DEBUG: '1' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out: Buffer[] = [];
    child.stdout.pause();
    // Read only once the pipe has long been full: a write then fails with EAGAIN.
    setTimeout(() => child.stdout.resume(), 300);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output: Buffer.concat(out).toString('utf8') }));
  });
}

test('a cached re-run into a non-blocking pipe prints every byte --no-cache prints', async () => {
  const r = repos();
  // About 300 KB of records: several times what a pipe holds.
  for (let c = 0; c < 8; c++) {
    const rows = Array.from({ length: 100 }, (_, i) =>
      row({ id: `rf-${String(c * 100 + i).padStart(10, '0')}`, issue: `issue ${i} ${'x'.repeat(200)}` }),
    );
    r.commit(message(`c${c}`, rows), { 'a.txt': `${c}\n` });
  }
  const truth = await runCli(['mine', '--no-cache'], { cwd: r.dir });
  assert.ok(truth.stdout.length > 256 * 1024, String(truth.stdout.length));
  await runCli(['mine'], { cwd: r.dir });
  const direct = await runCli(['mine'], { cwd: r.dir, env: { REVTRAIL_DEBUG: '1' } });
  assert.match(direct.stderr, /mine cache: replay/);
  assert.equal(direct.stdout, truth.stdout);
  const late = await mineIntoOnePipe(r.dir);
  assert.equal(late.code, 0, late.output.slice(0, 500));
  // The debug line, the records, then the notices (what --no-cache writes to stderr).
  const debug = /^revtrail: mine cache: replay .*\n/.exec(direct.stderr)![0];
  assert.equal(late.output, `${debug}${truth.stdout}${truth.stderr}`);
});

test('a reader that stops early (mine | head) ends revtrail as it ends git: status 141, nothing on stderr', async () => {
  const r = repos();
  const rows = Array.from({ length: 400 }, (_, i) =>
    row({ id: `rf-${String(i).padStart(10, '0')}`, issue: `issue ${i} ${'x'.repeat(200)}` }),
  );
  r.commit(message('c', rows), { 'a.txt': 'a\n' });
  for (const args of ['mine --no-cache', 'mine', 'mine']) {
    const run = spawnSync(
      'bash',
      ['-c', `set -o pipefail; "$0" "$1" ${args} | head -c 1 >/dev/null`, process.execPath, cliPath],
      {
        cwd: r.dir,
        env: testEnv(),
        encoding: 'utf8',
      },
    );
    assert.equal(run.stderr, '', args);
    assert.equal(run.status, 141, `${args}: ${run.stderr}`);
  }
});
