/**
 * The policy copy (lib/flows/policy-tree.ts, docs/server.md "Which policy"): exactly the config,
 * the bundle and the doc map with its documents, regular files only, kept per content.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { throwawayRepos } from '../kit/repo.js';
import { copyPolicy } from '../../lib/flows/policy-tree.js';

const repos = throwawayRepos();

test("a commit's policy: config, bundle, doc map and its .md documents; no symlink, no code; one copy per content", async () => {
  const r = repos();
  r.write('revtrail.config.json', JSON.stringify({ knowledge: 'kb', docMap: 'map.yaml' }));
  r.write('kb/index.md', '# Knowledge\n');
  r.write('kb/notes.txt', 'kept: the bundle folder is copied whole\n');
  symlinkSync('/etc/hostname', join(r.dir, 'kb', 'link.md'));
  r.write('map.yaml', 'mappings:\n  - paths: ["src/**"]\n    docs: [docs/adr, README.md]\n');
  r.write('docs/adr/0001.md', '# One\n');
  r.write('docs/adr/diagram.png', 'png');
  r.write('README.md', '# Read me\n');
  r.write('src/code.js', 'export {};\n');
  r.write('.okfw/index.md', '# not the configured bundle\n');
  const first = r.commit('start');
  const commonDir = join(r.dir, '.git');

  const copy = await copyPolicy(r.dir, commonDir, first);
  const has = (p: string) => existsSync(join(copy.dir, p));
  for (const p of ['revtrail.config.json', 'kb/index.md', 'kb/notes.txt', 'map.yaml', 'docs/adr/0001.md', 'README.md'])
    assert.ok(has(p), p);
  for (const p of ['kb/link.md', 'docs/adr/diagram.png', 'src/code.js', '.okfw/index.md']) assert.ok(!has(p), p);
  assert.equal(readFileSync(join(copy.dir, 'kb', 'index.md'), 'utf8'), '# Knowledge\n');
  assert.deepEqual(copy.warnings, [
    `policy of ${first.slice(0, 12)}: kb/link.md is not a regular file (a symlink?); the server does not read it`,
  ]);

  // Code changes only: the same copy, and what it left out is said again.
  const second = r.commit('code', { 'src/code.js': 'export const x = 1;\n' });
  const again = await copyPolicy(r.dir, commonDir, second);
  assert.equal(again.dir, copy.dir);
  assert.deepEqual(again.warnings, copy.warnings);
  // A changed document: another copy.
  const third = r.commit('doc', { 'docs/adr/0001.md': '# One, changed\n' });
  const changed = await copyPolicy(r.dir, commonDir, third);
  assert.notEqual(changed.dir, copy.dir);
  assert.equal(readFileSync(join(changed.dir, 'docs', 'adr', '0001.md'), 'utf8'), '# One, changed\n');
});

test('a config that points outside the tree, or cannot be read, falls back to .okfw; package.json#revtrail is read', async () => {
  const r = repos();
  r.write('revtrail.config.json', JSON.stringify({ knowledge: '../../etc' }));
  r.write('.okfw/index.md', '# Default\n');
  const outside = r.commit('outside');
  const a = await copyPolicy(r.dir, join(r.dir, '.git'), outside);
  assert.ok(existsSync(join(a.dir, '.okfw', 'index.md')));
  assert.equal(a.knowledge, join(a.dir, '.okfw'));
  assert.deepEqual(a.warnings, [
    'the config\'s knowledge "../../etc" is not a folder of the repository; .okfw is read instead',
  ]);
  r.git(['rm', '-q', 'revtrail.config.json']);
  r.write('package.json', JSON.stringify({ name: 'x', revtrail: { knowledge: 'k2' } }));
  r.write('k2/index.md', '# K2\n');
  const pkg = r.commit('pkg');
  const b = await copyPolicy(r.dir, join(r.dir, '.git'), pkg);
  assert.ok(existsSync(join(b.dir, 'k2', 'index.md')));
  assert.ok(existsSync(join(b.dir, 'package.json')));
  assert.ok(!existsSync(join(b.dir, '.okfw')));
  const none = await copyPolicy(r.dir, join(r.dir, '.git'), null);
  assert.deepEqual(none.warnings, []);
});
