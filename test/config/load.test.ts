import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/repo.js';
import { loadConfig } from '../../lib/config/load.js';
import { InputError } from '../../lib/core/errors.js';
import { rmSync } from 'node:fs';

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

test('defaults when there is no configuration', async () => {
  const { config, file } = await loadConfig(dir);
  assert.equal(file, null);
  assert.equal(config.knowledge, '.okfw');
  assert.equal(config.maxKnowledgeTokens, 2000);
  assert.equal(config.chunkLines, 400);
  assert.equal(config.minConfidence, 0.8);
  assert.equal(config.builtinRules, true);
  assert.deepEqual(config.reviewer, { timeoutMs: 60000, required: false });
  assert.deepEqual(config.commitMsg, { record: true, block: false });
  assert.deepEqual(config.gate, { minRecurrence: 2 });
  assert.deepEqual(config.privacy, { redactAuthors: false });
});

test('package.json#revtrail is read when there is no revtrail.config.json', async () => {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', revtrail: { chunkLines: 50, commitMsg: { block: true } } }));
  const { config, file } = await loadConfig(dir);
  assert.equal(file, join(dir, 'package.json'));
  assert.equal(config.chunkLines, 50);
  assert.deepEqual(config.commitMsg, { record: true, block: true });
});

test('an unknown or mistyped key is an error naming the key and the file', async () => {
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ commitMsg: { blok: true } }));
  await assert.rejects(loadConfig(dir), (e: unknown) => {
    assert.ok(e instanceof InputError);
    assert.match(e.message, /revtrail\.config\.json: unknown key "commitMsg\.blok"/);
    assert.equal(e.exitCode, 2);
    return true;
  });
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ minConfidence: 'high' }));
  await assert.rejects(loadConfig(dir), /"minConfidence" is invalid/);
  writeFileSync(join(dir, 'revtrail.config.json'), '{ "knowledge": "docs", }');
  await assert.rejects(loadConfig(dir), /is not valid JSON/);
});
