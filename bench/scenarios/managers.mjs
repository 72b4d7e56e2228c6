// `git commit --no-verify` under lefthook and the pre-commit framework, with the team's hooks
// alone and after `revtrail install --lefthook|--pre-commit` (docs/hooks.md, "Other hook
// managers"): revtrail adds commit-msg and pre-push only, both skipped by --no-verify, so the
// commit costs what the manager's own hooks did; --record-hooks, shown beside it, adds a manager
// launch per record-keeping hook. Runs when named (it installs lefthook from the npm registry
// once, into the bench cache; pre-commit is Debian's /usr/bin/pre-commit, a row says when absent).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backToBack, cachedFolder, cli, git, row, timeOnce, tmp } from '../lib.mjs';

export const name = 'managers';

const LEFTHOOK_VERSION = '2.2.4';

function shim(dir) {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const file = join(dir, 'node_modules', '.bin', 'revtrail');
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(file, 0o755);
}

function repo(files) {
  const dir = tmp('revtrail-bench-manager-');
  git(dir, ['init', '-q', '-b', 'main']);
  shim(dir);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--no-verify', '-m', 'start']);
  return dir;
}

/** `git commit --no-verify` of an empty change, undone after. */
const noVerify = (dir, env) => () => {
  const ms = timeOnce('git', ['commit', '-q', '--allow-empty', '--no-verify', '-m', 'bench'], { cwd: dir, env });
  git(dir, ['reset', '-q', '--soft', 'HEAD~1']);
  return ms;
};

/** The team's hooks, then revtrail's as `install` adds them: the --no-verify commit of each, back to back. */
function measure(runs, { files, install, managerInstall, env }) {
  const team = repo(files);
  managerInstall(team);
  const ours = repo(files);
  timeOnce(process.execPath, [cli, ...install], { cwd: ours });
  git(ours, ['add', '-A']);
  git(ours, ['commit', '-q', '--no-verify', '-m', 'revtrail']);
  managerInstall(ours);
  return backToBack(runs, noVerify(team, env), noVerify(ours, env));
}

export async function run({ runs }) {
  const rows = [];
  const lefthookDir = cachedFolder(`lefthook-${LEFTHOOK_VERSION}`, LEFTHOOK_VERSION, (dir) =>
    // From the cache folder: lefthook's postinstall runs `lefthook install` in the folder npm
    // started from, which must not be a repository of the bench's caller.
    execFileSync('npm', ['install', '--prefix', dir, `lefthook@${LEFTHOOK_VERSION}`, '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: 'ignore',
    }),
  );
  const lefthook = join(lefthookDir, 'node_modules', '.bin', 'lefthook');
  // git's hook files call $LEFTHOOK_BIN first: the pinned lefthook, never one on PATH.
  const lhEnv = { LEFTHOOK_BIN: lefthook };
  const lhFiles = {
    'lefthook.yml':
      'pre-commit:\n  commands:\n    lint:\n      run: "true"\ncommit-msg:\n  commands:\n    commitlint:\n      run: "true"\n',
  };
  const lhInstall = (dir) => timeOnce(lefthook, ['install'], { cwd: dir, env: lhEnv });
  for (const [label, install, kind] of [
    ['', ['install', '--lefthook'], 'ratio'],
    [' --record-hooks', ['install', '--lefthook', '--record-hooks'], 'info'],
  ]) {
    const { floor, value } = measure(runs, { files: lhFiles, install, managerInstall: lhInstall, env: lhEnv });
    rows.push(
      row({
        scenario: `lefthook ${LEFTHOOK_VERSION}: commit --no-verify, revtrail${label}`,
        value,
        floorName: "the team's hooks alone",
        floor,
        target: kind === 'ratio' ? 1.15 : null,
        kind,
      }),
    );
  }
  const preCommit = '/usr/bin/pre-commit';
  if (!existsSync(preCommit)) {
    rows.push(
      row({
        scenario: 'pre-commit: commit --no-verify',
        value: 0,
        floor: 0,
        kind: 'info',
        note: 'no /usr/bin/pre-commit (apt-get install pre-commit)',
      }),
    );
    return rows;
  }
  const pcHome = tmp('revtrail-bench-pre-commit-home-');
  const pcEnv = { PRE_COMMIT_HOME: pcHome };
  const pcFiles = {
    '.pre-commit-config.yaml':
      'repos:\n  - repo: local\n    hooks:\n      - id: lint\n        name: lint\n        entry: "true"\n        language: system\n',
  };
  const pcInstall = (dir) => timeOnce(preCommit, ['install'], { cwd: dir, env: pcEnv });
  for (const [label, install, kind] of [
    ['', ['install', '--pre-commit'], 'ratio'],
    [' --record-hooks', ['install', '--pre-commit', '--record-hooks'], 'info'],
  ]) {
    const { floor, value } = measure(runs, { files: pcFiles, install, managerInstall: pcInstall, env: pcEnv });
    rows.push(
      row({
        scenario: `pre-commit: commit --no-verify, revtrail${label}`,
        value,
        floorName: "the team's hooks alone",
        floor,
        target: kind === 'ratio' ? 1.15 : null,
        kind,
      }),
    );
  }
  return rows;
}
