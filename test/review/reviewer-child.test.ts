/** A reviewer program that exits but leaves a child holding its stdout keeps its answer. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, tempDir } from '../kit/repo.js';
import { reviewSelections } from '../../lib/review/pipeline.js';
import { builtinRules } from '../../lib/review/builtin.js';
import { chunkOf, concept, pipelineOptions, selectionOf } from '../kit/review.js';

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

/** Gone, or a zombie waiting for its reaper: either way no longer running. */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  return !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

test('the answer written before exiting counts; the child left behind is ended', async () => {
  const pidFile = join(dir, 'child.pid');
  const adr = concept('adr-001', []);
  const selection = selectionOf(chunkOf('src/a.ts', ['export const a = 1;'], { start: 1 }), [adr], 1);
  const result = await reviewSelections(
    [selection],
    pipelineOptions({
      builtin: builtinRules(false),
      reviewer: {
        argv: [join(fixturesDir, 'review', 'leaves-child.mjs'), '--pid', pidFile],
        timeoutMs: 5_000,
        required: false,
        label: 'leaves-child.mjs',
      },
    }),
  );
  assert.deepEqual(
    result.warnings.filter((w) => /reviewer/.test(w)),
    [],
  );
  assert.deepEqual(
    result.findings.map((f) => f.rule_source),
    ['reviewer:architecture'],
  );
  assert.match(result.summary, /Answered before leaving\./);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  // SIGKILL is sent before the review returns; the kernel may take a moment to reap the child
  // on a loaded machine, so wait for that (bounded) rather than race it.
  for (let waited = 0; running(pid) && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  assert.equal(running(pid), false, 'the child holding stdout was killed with the process group');
});
