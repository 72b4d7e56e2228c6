// Selection and review over a 500-file, 20,000-line staged change against 1,000 concepts
// carrying 2,000 rules, next to `git diff` of the same change; each also without the parsed-
// concept cache (a fresh clone, CI), which the other runs fill on their warm-up run.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { cli, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';
import { generateChange } from '../gen-change.mjs';

export const name = 'select-review';

export async function run({ runs }) {
  const dir = tmp('revtrail-bench-sel-');
  try {
    generateChange(dir, { files: 500, lines: 20000, stage: true });
    generateBundle(join(dir, '.okfw'), { concepts: 1000, rulesPer: 2 });
    const gitDiff = timeMedian(runs, () =>
      timeOnce('git', ['diff', '--staged', '--no-ext-diff', '--no-color'], { cwd: dir }),
    );
    const select = timeMedian(runs, () =>
      timeOnce(process.execPath, [cli, 'knowledge', 'select', '--staged', '--json'], { cwd: dir }),
    );
    const review = timeMedian(runs, () =>
      timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json'], { cwd: dir, okCodes: [0, 1] }),
    );
    // A fresh clone has none of the derived caches: parsed concepts, globs' regexes and rules'
    // needles, the validated config.
    const caches = ['bundle-cache-v1.json', 'derived-v1.json', 'config-cache-v1.json'].map((f) =>
      join(dir, '.git', 'revtrail', f),
    );
    const uncached = (args, okCodes) => () => {
      for (const cache of caches) rmSync(cache, { force: true });
      return timeOnce(process.execPath, [cli, ...args], { cwd: dir, okCodes });
    };
    const selectCold = timeMedian(runs, uncached(['knowledge', 'select', '--staged', '--json'], [0]));
    const reviewCold = timeMedian(runs, uncached(['review', '--staged', '--format', 'json'], [0, 1]));
    // The same change with 200 syntax-tree rules among the 2,000 (docs/structural.md).
    const structuralDir = tmp('revtrail-bench-ast-');
    let structural;
    try {
      generateChange(structuralDir, { files: 500, lines: 20000, stage: true });
      generateBundle(join(structuralDir, '.okfw'), { concepts: 1000, rulesPer: 2, structuralEvery: 5 });
      structural = timeMedian(runs, () =>
        timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json'], {
          cwd: structuralDir,
          okCodes: [0, 1],
        }),
      );
    } finally {
      rmSync(structuralDir, { recursive: true, force: true });
    }
    return [
      row({
        scenario: 'review with 200 ast rules among the 2k',
        value: structural,
        floorName: 'regex-only review',
        floor: review,
        target: 2,
      }),
      row({
        scenario: 'knowledge select 500 files/20k lines/1k concepts',
        value: select,
        floorName: 'git diff',
        floor: gitDiff,
        target: 1000,
        kind: 'ms',
      }),
      row({
        scenario: 'review 500 files/20k lines/2k rules',
        value: review,
        floorName: 'git diff',
        floor: gitDiff,
        target: 500,
        kind: 'ms',
      }),
      row({
        scenario: 'knowledge select, no bundle cache',
        value: selectCold,
        floorName: 'git diff',
        floor: gitDiff,
        target: 1000,
        kind: 'ms',
      }),
      row({
        scenario: 'review, no bundle cache',
        value: reviewCold,
        floorName: 'git diff',
        floor: gitDiff,
        target: 1500,
        kind: 'ms',
      }),
      row({
        scenario: 'knowledge select: fresh clone against warm',
        value: selectCold,
        floorName: 'warm',
        floor: select,
        target: 1.5,
      }),
      row({
        scenario: 'review: fresh clone against warm',
        value: reviewCold,
        floorName: 'warm',
        floor: review,
        target: 1.5,
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
