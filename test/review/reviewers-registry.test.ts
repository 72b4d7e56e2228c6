/**
 * The reviewers' table (lib/review/reviewers.ts REVIEWERS): every folder of lib/review/ whose
 * code asks through the finding contract (`askWith`) is a registered transport of its own name
 * with an `open` entry, and no entry opens a reviewer the configuration does not name or a
 * review that asks none (docs/architecture.md "Extension points").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openReviewers, REVIEWERS } from '../../lib/review/reviewers.js';
import { parseConfig } from '../../lib/config/load.js';
import type { Workspace } from '../../lib/workspace/index.js';

const reviewDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'review');

test('every folder of lib/review/ that asks through the contract is the registered transport of its name', () => {
  const asking = readdirSync(reviewDir)
    .filter((d) => statSync(join(reviewDir, d)).isDirectory())
    .filter((d) =>
      readdirSync(join(reviewDir, d))
        .filter((f) => f.endsWith('.js'))
        .some((f) => /\baskWith\(/.test(readFileSync(join(reviewDir, d, f), 'utf8'))),
    );
  assert.ok(asking.length >= 2, `only ${asking.length} transport folders found in ${reviewDir}`);
  assert.deepEqual(
    asking.sort(),
    Object.keys(REVIEWERS).sort(),
    'a transport is not registered, or an entry has no folder',
  );
  for (const name of Object.keys(REVIEWERS))
    assert.equal(typeof REVIEWERS[name as keyof typeof REVIEWERS].open, 'function');
});

async function session(config: unknown): Promise<Workspace> {
  return {
    config: await parseConfig(config, null),
    commonDir: null,
    top: process.cwd(),
    configFile: null,
  } as Workspace;
}

test('no reviewer is opened that the configuration does not name, nor for a review that asks none', async () => {
  const warnings: string[] = [];
  const options = { cwd: process.cwd(), source: { kind: 'text' as const, text: '', name: 'x.diff' } };
  assert.deepEqual(await openReviewers({ session: await session({}), options, minConfidence: 0.8, warnings }), []);
  const configured = await session({
    reviewer: { command: ['/bin/true'], model: { endpoint: 'http://127.0.0.1:9/v1', model: 'm' } },
  });
  assert.deepEqual(
    await openReviewers({
      session: configured,
      options: { ...options, reviewer: false },
      minConfidence: 0.8,
      warnings,
    }),
    [],
  );
  assert.deepEqual(warnings, []);
  // A program from the repository's configuration outside a clone runs only when trusted: never here.
  const runs = await openReviewers({
    session: configured,
    options: { ...options, model: false },
    minConfidence: 0.8,
    warnings,
  });
  assert.deepEqual(runs, []);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /true/);
});
