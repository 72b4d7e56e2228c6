/**
 * docs/cli.md `ci record`, black-box, on a machine with no git identity in any config file: the
 * identity CI gives in GIT_COMMITTER_* / GIT_AUTHOR_* must reach git, as it does for git itself.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { makeRepo, runCli, tempDir } from '../kit/repo.js';

const home = tempDir('revtrail-empty-home-');
const repo = makeRepo();
after(() => {
  repo.cleanup();
  rmSync(home, { recursive: true, force: true });
});

// No ~/.gitconfig anywhere git might look: the identity is only in the environment.
const ciEnv = { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

test('ci record pass writes the note with the identity of GIT_COMMITTER_* / GIT_AUTHOR_*', async () => {
  const head = repo.commit('feat: built by CI');
  const r = await runCli(['ci', 'record', 'pass'], {
    cwd: repo.dir,
    env: {
      ...ciEnv,
      GIT_AUTHOR_NAME: 'CI Bot',
      GIT_AUTHOR_EMAIL: 'ci@example.com',
      GIT_COMMITTER_NAME: 'CI Bot',
      GIT_COMMITTER_EMAIL: 'ci@example.com',
    },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(repo.git(['notes', '--ref=revtrail-ci', 'show', head]).trim(), 'pass');
  assert.equal(
    repo.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>', 'refs/notes/revtrail-ci']).trim(),
    'CI Bot <ci@example.com>|CI Bot <ci@example.com>',
  );
});

test('ci record honours GIT_DIR and GIT_WORK_TREE like git does', async () => {
  const head = repo.git(['rev-parse', 'HEAD']).trim();
  const elsewhere = tempDir();
  try {
    const r = await runCli(['ci', 'record', 'fail', head], {
      cwd: elsewhere,
      env: { ...ciEnv, GIT_DIR: `${repo.dir}/.git`, GIT_WORK_TREE: repo.dir },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(repo.git(['notes', '--ref=revtrail-ci', 'show', head]).trim(), 'fail');
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
