import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../kit/repo.js';
import { jsonErrorAt, loadConfig, loadReviewConfig } from '../../lib/config/load.js';
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
  assert.deepEqual(config.commitMsg, { record: true, block: false, blockCredentials: true });
  assert.deepEqual(config.gate, {
    minRecurrence: 2,
    minAuthors: 2,
    credentialAnswers: ['REJECT'],
    credentialAllow: true,
  });
  assert.deepEqual(config.exclude, {});
  assert.deepEqual(config.trailers, { foldAt: 100 });
  assert.deepEqual(config.privacy, { redactAuthors: false });
  assert.deepEqual(config.calibration, { enabled: true, minVerdicts: 5, demoteAbove: 0.3, security: [] });
});

test("this round's keys: the model reviewer, credential answers, excludes and folding are validated", async () => {
  writeFileSync(
    join(dir, 'revtrail.config.json'),
    JSON.stringify({
      reviewer: { model: { endpoint: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-coder:7b' } },
      exclude: { 'builtin/debug:debugger': ['test/**'] },
    }),
  );
  const { config } = await loadConfig(dir);
  assert.deepEqual(config.reviewer.model, {
    endpoint: 'http://127.0.0.1:8080/v1',
    model: 'qwen2.5-coder:7b',
    timeoutMs: 60000,
    maxConcurrency: 1,
    hooks: ['pre-push'],
  });
  assert.deepEqual(config.exclude, { 'builtin/debug:debugger': ['test/**'] });
  for (const [value, pattern] of [
    [{ gate: { credentialAnswers: ['ACCEPT'] } }, /"gate\.credentialAnswers\.0" is invalid/],
    [{ gate: { credentialAnswers: [] } }, /"gate\.credentialAnswers" is invalid/],
    [{ trailers: { foldAt: -1 } }, /"trailers\.foldAt" is invalid/],
    [{ reviewer: { model: { endpoint: 'http://127.0.0.1:1' } } }, /"reviewer\.model\.model" is invalid/],
    [
      { reviewer: { model: { endpoint: 'x', model: 'm', hooks: ['post-commit'] } } },
      /"reviewer\.model\.hooks\.0" is invalid/,
    ],
    [{ exclude: { 'builtin/debug:debugger': 'test/**' } }, /"exclude\.builtin\/debug:debugger" is invalid/],
  ] as const) {
    writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify(value));
    await assert.rejects(loadConfig(dir), pattern);
  }
  rmSync(join(dir, 'revtrail.config.json'));
});

test('calibration: partial values keep the other defaults; bounds and unknown keys are named', async () => {
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ calibration: { minVerdicts: 2 } }));
  assert.deepEqual((await loadConfig(dir)).config.calibration, {
    enabled: true,
    minVerdicts: 2,
    demoteAbove: 0.3,
    security: [],
  });
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ calibration: { enabled: false, demoteAbove: 1 } }));
  assert.deepEqual((await loadConfig(dir)).config.calibration, {
    enabled: false,
    minVerdicts: 5,
    demoteAbove: 1,
    security: [],
  });
  for (const [value, pattern] of [
    [{ demoteAbove: 1.5 }, /"calibration\.demoteAbove" is invalid/],
    [{ demoteAbove: -0.1 }, /"calibration\.demoteAbove" is invalid/],
    [{ minVerdicts: 0 }, /"calibration\.minVerdicts" is invalid/],
    [{ minVerdicts: 2.5 }, /"calibration\.minVerdicts" is invalid/],
    [{ minVerdicts: 1e12 }, /"calibration\.minVerdicts" is invalid: must be at most/],
    [{ enabled: 'yes' }, /"calibration\.enabled" is invalid/],
    [{ demoteabove: 0.5 }, /unknown key "calibration\.demoteabove"/],
  ] as const) {
    writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ calibration: value }));
    await assert.rejects(loadConfig(dir), pattern, JSON.stringify(value));
  }
  rmSync(join(dir, 'revtrail.config.json'));
});

test('package.json#revtrail is read when there is no revtrail.config.json', async () => {
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'x', revtrail: { chunkLines: 50, commitMsg: { block: true } } }),
  );
  const { config, file } = await loadConfig(dir);
  assert.equal(file, join(dir, 'package.json'));
  assert.equal(config.chunkLines, 50);
  assert.deepEqual(config.commitMsg, { record: true, block: true, blockCredentials: true });
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

test('a timeout past what Node timers keep is an error, not a 1 ms timeout', async () => {
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ reviewer: { timeoutMs: 3000000000 } }));
  await assert.rejects(loadConfig(dir), /"reviewer\.timeoutMs" is invalid: must be at most 2147483647/);
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ reviewer: { timeoutMs: 2147483647 } }));
  assert.equal((await loadConfig(dir)).config.reviewer.timeoutMs, 2147483647);
});

test('every number has an upper bound', async () => {
  for (const [key, value] of [
    ['chunkLines', 1e12],
    ['maxKnowledgeTokens', 1e12],
  ] as const) {
    writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ [key]: value }));
    await assert.rejects(loadConfig(dir), new RegExp(`"${key}" is invalid: must be at most`));
  }
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ gate: { minRecurrence: 1e12 } }));
  await assert.rejects(loadConfig(dir), /"gate\.minRecurrence" is invalid: must be at most/);
});

test('a configuration of null, a number or a string is rejected with a clear message', async () => {
  for (const text of ['null', '3', '"x"', '[]']) {
    writeFileSync(join(dir, 'revtrail.config.json'), text);
    await assert.rejects(loadConfig(dir), (e: unknown) => {
      assert.ok(e instanceof InputError, text);
      assert.match(e.message, /revtrail\.config\.json: "\(root\)" is invalid: expected an object$/, text);
      assert.match(e.remedy ?? '', /one JSON object/);
      return true;
    });
  }
  writeFileSync(join(dir, 'revtrail.config.json'), '{}');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', revtrail: null }));
  rmSync(join(dir, 'revtrail.config.json'));
  await assert.rejects(loadConfig(dir), /package\.json#revtrail: "\(root\)" is invalid: expected an object/);
  rmSync(join(dir, 'package.json'));
});

test('all unknown keys are named at once, with the bad values beside them', async () => {
  writeFileSync(
    join(dir, 'revtrail.config.json'),
    JSON.stringify({
      knowlege: 'docs',
      commitMsg: { blok: true },
      reviewer: { timeout: 5, timeoutMs: -1 },
      chunkLines: 'x',
    }),
  );
  await assert.rejects(loadConfig(dir), (e: unknown) => {
    assert.ok(e instanceof InputError);
    assert.match(e.message, /: unknown keys "/);
    for (const key of ['knowlege', 'commitMsg.blok', 'reviewer.timeout'])
      assert.ok(e.message.includes(`"${key}"`), `${key} in ${e.message}`);
    assert.match(e.message, /"reviewer\.timeoutMs" is invalid: must be greater than 0/);
    assert.match(e.message, /"chunkLines" is invalid: expected a number/);
    return true;
  });
  rmSync(join(dir, 'revtrail.config.json'));
});

test('the config cache: a hit only for the same text; a changed, broken or removed file is read again', async () => {
  const cacheFile = join(dir, 'cache', 'config-cache-v1.json');
  const cached = (options = { cacheFile }) => loadConfig(dir, options);
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ chunkLines: 50 }));
  assert.equal((await cached()).config.chunkLines, 50);
  assert.ok(existsSync(cacheFile), 'a validated configuration is kept');
  // A hit is the same value validating gives.
  assert.deepEqual(await cached(), await loadConfig(dir));
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ chunkLines: 60 }));
  assert.equal((await cached()).config.chunkLines, 60);
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ chunkLines: -1 }));
  await assert.rejects(cached(), /"chunkLines" is invalid/);
  writeFileSync(join(dir, 'revtrail.config.json'), JSON.stringify({ chunkLines: 60 }));
  assert.equal((await cached()).config.chunkLines, 60, 'the valid text again: from the cache, still right');
  rmSync(join(dir, 'revtrail.config.json'));
  assert.deepEqual(await cached(), {
    config: (await loadConfig(dir)).config,
    file: null,
    source: { file: join(dir, 'package.json'), text: '' },
  });
  // A damaged cache is only a miss.
  writeFileSync(cacheFile, '{"build": 1, "found": ');
  assert.equal((await cached()).file, null);
  // A cache whose text matches but whose content was tampered with by another build is not trusted.
  const entry = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
    build: string;
    found: { config: { chunkLines: number } };
  };
  entry.build = 'another build';
  entry.found.config.chunkLines = 7;
  writeFileSync(cacheFile, JSON.stringify(entry));
  assert.equal((await cached()).config.chunkLines, 400);
  rmSync(join(dir, 'cache'), { recursive: true, force: true });
});

test('a JSON error names line and column (Node 20 gives only a position); a byte order mark is no error', async () => {
  writeFileSync(join(dir, 'revtrail.config.json'), '{\n  "chunkLines": 50\n  "softTests": true\n}\n');
  await assert.rejects(loadConfig(dir), /revtrail\.config\.json:3:3 is not valid JSON: /);
  writeFileSync(join(dir, 'revtrail.config.json'), '{"chunkLines": 50');
  await assert.rejects(loadConfig(dir), /revtrail\.config\.json:1:18 is not valid JSON/);
  assert.deepEqual(jsonErrorAt('{\n\n  x', 'Unexpected token (line 3 column 3)'), { line: 3, column: 3 });
  assert.equal(jsonErrorAt('x', 'something else'), null);
  writeFileSync(join(dir, 'revtrail.config.json'), '\uFEFF{"chunkLines": 50}');
  assert.equal((await loadConfig(dir)).config.chunkLines, 50);
  rmSync(join(dir, 'revtrail.config.json'));
});

test('loadReviewConfig: a config that cannot be used gives the defaults and one line naming it, relative to the top', async () => {
  writeFileSync(join(dir, 'revtrail.config.json'), '{"builtinRules": false, "nope": 1}');
  const found = await loadReviewConfig(dir);
  assert.equal(found.file, null);
  assert.equal(found.config.builtinRules, true);
  assert.equal(
    found.problem,
    'revtrail.config.json: unknown key "nope"; the review ran with the default configuration and the built-in baseline',
  );
  writeFileSync(join(dir, 'revtrail.config.json'), '{"chunkLines": 50}');
  assert.deepEqual(await loadReviewConfig(dir), { ...(await loadConfig(dir)), problem: null, error: null });
  rmSync(join(dir, 'revtrail.config.json'));
});
