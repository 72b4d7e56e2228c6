/**
 * The real `@commitlint/cli` with `@commitlint/config-conventional` (body and footer lines at
 * most 100 columns) accepts every commit revtrail's hooks wrote: a commit, an amend and a
 * rebase squash, each carrying rows longer than 100 columns, folded (docs/trailers.md
 * "Folding"). The same commits with `trailers.foldAt: 0` fail it, and every reader gets the
 * rows back exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { installedRepo, DEBUGGER_LINE, type HookRepo } from '../kit/hooks.js';
import { projectRoot, runProcess } from '../kit/repo.js';

const require = createRequire(join(projectRoot, 'package.json'));
const commitlintBin = require.resolve('@commitlint/cli/cli.js');
const conventional = require.resolve('@commitlint/config-conventional');

// Long enough that no row's stretch before its first lone space (id, path, line, rule, category,
// severity, the issue's first word) fits in 100 columns: those rows fold after a comma between
// fields (docs/trailers.md "Folding").
const DIR = 'src/controllers/administration/accounts/user-profile-settings/';
const LONG = `${DIR}ctl.js`;
const SHORT = 'src/q.js';
const SQL = 'const q = "SELECT * FROM users WHERE id = " + userId;';

function commitlint(r: HookRepo, from: string) {
  return runProcess(process.execPath, [commitlintBin, '--from', from, '--to', 'HEAD'], { cwd: r.dir });
}

function script(r: HookRepo, name: string, body: string): string {
  const file = join(r.dir, '.git', name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function history(foldAt?: number) {
  const files: Record<string, string> = {
    'commitlint.config.cjs': `module.exports = { extends: [${JSON.stringify(conventional)}] };\n`,
  };
  if (foldAt !== undefined) files['revtrail.config.json'] = JSON.stringify({ trailers: { foldAt } });
  const r = await installedRepo({ files });
  const start = r.git(['rev-parse', 'HEAD']).trim();
  r.write(LONG, `${DEBUGGER_LINE}\n${SQL}\n`);
  r.write(SHORT, `${SQL}\n`); // a row that folds at a space in its issue text
  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-m', 'feat: a controller']);
  assert.equal(commit.code, 0, commit.stderr);
  // An amend that adds a finding keeps the amended commit's rows and adds its own.
  r.write(LONG.replace('.js', '-two.js'), `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  const amend = await r.run(['commit', '--amend', '--no-edit']);
  assert.equal(amend.code, 0, amend.stderr);
  // Two more commits squashed by a rebase: the squash message carries both commits' rows.
  for (const n of ['three', 'four']) {
    r.write(LONG.replace('.js', `-${n}.js`), `${DEBUGGER_LINE}\n`);
    r.git(['add', '-A']);
    const c = await r.run(['commit', '-m', `feat: ${n}`]);
    assert.equal(c.code, 0, c.stderr);
  }
  const seq = script(r, 'seq', `sed -i -e '3s/^pick/squash/' "$1"`);
  const editor = script(r, 'editor', `sed -i -e '/^feat: four$/d' "$1"`);
  const rebase = await r.run(['rebase', '-i', start], { env: { GIT_SEQUENCE_EDITOR: seq, GIT_EDITOR: editor } });
  assert.equal(rebase.code, 0, rebase.stderr);
  return { r, start };
}

test('commitlint config-conventional passes commits the hooks wrote (commit, amend, rebase squash), rows folded at 100', async () => {
  const { r, start } = await history();
  const bodies = r.git(['log', '--format=%B', `${start}..HEAD`]);
  const longest = Math.max(...bodies.split('\n').map((l) => l.length));
  assert.ok(longest <= 100, `a line of ${longest} columns`);
  assert.match(bodies, /^ {2}\S/m, 'some row is folded at a space');
  assert.match(bodies, /^Review-Finding: rf-[0-9a-f]+,$/m, 'some row is folded after a comma');
  const lint = await commitlint(r, start);
  assert.equal(lint.code, 0, lint.stdout + lint.stderr);

  // Every reader reads the folded rows back exactly: mining (every line), lint, the gate's
  // view (verdict --list reads history through record/history.ts).
  const mined = await r.cli(['mine', '--format', 'json', '--no-cache']);
  assert.equal(mined.code, 0, mined.stderr);
  const { records, rejected } = JSON.parse(mined.stdout) as {
    records: Array<{ file: string; placement: string; issue: string }>;
    rejected: unknown[];
  };
  assert.deepEqual(rejected, []);
  assert.equal(records.length, 6); // commit 3, amend 1, the squash 2
  for (const rec of records) {
    assert.ok(rec.file.startsWith(`${DIR}ctl`) || rec.file === SHORT, rec.file);
    assert.equal(rec.placement, 'trailer');
  }
  assert.ok(records.some((x) => x.issue === 'SQL built by concatenation or interpolation'));
  for (const rev of ['HEAD', 'HEAD~1']) {
    const message = r.git(['log', '-1', '--format=%B', rev]);
    const linted = await r.cli(['trailers', 'lint', '-'], { input: message });
    assert.equal(linted.code, 0, linted.stdout + linted.stderr);
    assert.match(linted.stdout + linted.stderr, / 0 errors, 0 warnings/);
  }
  const open = await r.cli(['verdict', '--list', '--json']);
  assert.equal(open.code, 0, open.stderr);
  assert.equal((open.stdout.match(/user-profile-settings\/ctl/g) ?? []).length >= 5, true, open.stdout);
  // Each row once: the amend and the squash did not add a second copy folded another way.
  const ids = records.map((x) => JSON.stringify(x));
  assert.equal(new Set(ids).size, ids.length);
});

test('the same history with trailers.foldAt 0 fails commitlint (the test can tell)', async () => {
  const { r, start } = await history(0);
  const lint = await commitlint(r, start);
  assert.notEqual(lint.code, 0);
  assert.match(lint.stdout + lint.stderr, /max-line-length/);
});
