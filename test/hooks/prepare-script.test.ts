/**
 * docs/hooks.md, black-box: install adds the "prepare" script that sets the hooks up in fresh clones
 * (revtrail's own bin, which reaches husky under pnpm too) to a package.json without one, and
 * uninstall removes exactly what install added — whatever the file's layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, throwawayRepos } from '../kit/repo.js';

const newRepo = throwawayRepos();

const SETUP = 'revtrail install --from-prepare || true';
const layouts: Array<[string, string]> = [
  ['compact, as JSON.stringify writes it', JSON.stringify({ name: 'app', version: '1.0.0' })],
  ['compact with scripts', JSON.stringify({ name: 'app', scripts: { test: 'node --test' } })],
  [
    'arrays kept on one line',
    '{\n  "name": "app",\n  "files": ["bin", "lib"],\n  "scripts": {\n    "test": "node --test"\n  }\n}\n',
  ],
  ['one-line scripts object in a multi-line file', '{\n  "name": "app",\n  "scripts": { "test": "node --test" }\n}'],
  ['empty scripts, tabs and CRLF', '{\r\n\t"name": "app",\r\n\t"scripts": {}\r\n}\r\n'],
];

for (const [layout, original] of layouts) {
  test(`package.json ${layout}: install adds only the prepare script, uninstall gives back every byte`, async () => {
    const repo = newRepo();
    repo.commit('chore: start', { 'package.json': original });
    const installed = await runCli(['install'], { cwd: repo.dir });
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(
      installed.stdout,
      /added "prepare": "revtrail install --from-prepare \|\| true" to package\.json \(npm install sets the hooks up in fresh clones\)/,
    );
    const after = readFileSync(join(repo.dir, 'package.json'), 'utf8');
    const before = JSON.parse(original) as { scripts?: Record<string, string> };
    assert.deepEqual(JSON.parse(after), { ...before, scripts: { ...before.scripts, prepare: SETUP } });
    assert.ok(after.includes('"files": ["bin", "lib"]') || !original.includes('"files"'), 'arrays are not re-laid out');
    assert.equal(after.includes('\n'), original.includes('\n'), 'a one-line file stays on one line');

    const removed = await runCli(['uninstall'], { cwd: repo.dir });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /removed "prepare": "revtrail install --from-prepare \|\| true" from package\.json/);
    assert.equal(readFileSync(join(repo.dir, 'package.json'), 'utf8'), original);
    assert.equal(repo.git(['status', '--porcelain']), '');
  });
}
