/**
 * SPEC §9, black-box: the demo works on a fresh machine, where git has no identity configured
 * (a CI container, a new laptop): it must not depend on the user's ~/.gitconfig.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/repo.js';

test('revtrail demo exits 0 with no git identity in the environment or any config file', async () => {
  const parent = tempDir('revtrail-demo-parent-');
  const home = tempDir('revtrail-empty-home-');
  try {
    const r = await runCli(['demo'], {
      cwd: home,
      timeoutMs: 180_000,
      env: {
        TMPDIR: parent,
        HOME: home,
        XDG_CONFIG_HOME: home,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: undefined,
        GIT_AUTHOR_EMAIL: undefined,
        GIT_COMMITTER_NAME: undefined,
        GIT_COMMITTER_EMAIL: undefined,
        EMAIL: undefined,
      },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /recorded CI pass for [0-9a-f]{12} in refs\/notes\/revtrail-ci/);
    const folder = readdirSync(parent).find((f) => f.startsWith('revtrail-demo-'));
    assert.ok(folder);
    assert.deepEqual(readdirSync(join(parent, folder, 'app', '.revtrail', 'candidates')), ['builtin-debug-debugger.md']);
  } finally {
    rmSync(parent, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
