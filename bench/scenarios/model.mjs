// The model reviewer's own cost (docs/model.md): a 100-file, 4,000-line staged change against 100
// concepts, reviewed with the demo's stand-in server (deterministic, answers at once, so the
// model's time is ~0 and what is left is revtrail's: request building, HTTP, validation, the
// cache), beside the same review without the model; then a re-review served from the cache.
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { root, row, timeMedian, timeOnce, tmp, cli } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';
import { generateChange } from '../gen-change.mjs';

export const name = 'model';
const FILES = 100;

export async function run({ runs }) {
  const { startStandIn } = await import(join(root, 'dist', 'lib', 'demo', 'stand-in-model.js'));
  const standIn = await startStandIn();
  const dir = tmp('revtrail-bench-model-');
  try {
    generateChange(dir, { files: FILES, lines: 4000, stage: true });
    generateBundle(join(dir, '.okfw'), { concepts: 100, rulesPer: 2 });
    writeFileSync(
      join(dir, 'revtrail.config.json'),
      JSON.stringify({
        reviewer: { model: { endpoint: standIn.endpoint, model: 'bench-stand-in', timeoutMs: 600000 } },
      }),
    );
    const cacheDir = join(dir, '.git', 'revtrail', 'model-answers-v1');
    const review =
      (extra = []) =>
      () =>
        timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json', ...extra], {
          cwd: dir,
          okCodes: [0, 1],
        });
    const without = timeMedian(runs, review(['--no-model']));
    const asked = timeMedian(runs, () => {
      rmSync(cacheDir, { recursive: true, force: true });
      return review()();
    });
    const cached = timeMedian(runs, review());
    const perChunk = (asked - without) / FILES;
    const perCached = (cached - without) / FILES;
    return [
      row({
        scenario: `model reviewer, ${FILES} chunks asked (stand-in server)`,
        value: asked,
        floorName: 'review --no-model',
        floor: without,
        kind: 'info',
      }),
      // Includes the loopback round trip and the stand-in's own JSON work: an upper bound of revtrail's part.
      row({
        scenario: 'model reviewer: cost per chunk asked (adapter + loopback HTTP)',
        value: perChunk,
        kind: 'info',
      }),
      row({
        scenario: `model reviewer, ${FILES} chunks from the cache`,
        value: cached,
        floorName: 'review --no-model',
        floor: without,
        target: 1.3,
      }),
      row({ scenario: 'model reviewer: cost per chunk from the cache', value: perCached, kind: 'ms', target: 1 }),
    ];
  } finally {
    standIn.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
