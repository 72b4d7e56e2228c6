// Mining memory that does not grow with the history (issue 41): Node's peak RSS for
// `revtrail mine --no-cache` and for a first `revtrail mine` (which writes the cache) on a generated
// history of 1,000,000 commits (about 209,000 Review-Finding lines) against the same on 100,000,
// the median of `--runs` each. Target: within 10 %.
//
//   npm run bench -- mine-scale            (generating the 1,000,000 commits takes about 11 minutes once)
//   node bench/scenarios/mine-scale.mjs [--runs N]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { median, printTable, row } from '../lib.mjs';
import { history, nodePeak } from './mine.mjs';

export const name = 'mine-scale';

export async function run({ runs = 3 } = {}) {
  const small = history(100_000);
  const large = history(1_000_000);
  const rows = [];
  for (const [label, args, clear] of [
    ['mine --no-cache', ['mine', '--no-cache'], false],
    ['mine, first run (writes the cache)', ['mine'], true],
  ]) {
    const peaks = { small: [], large: [] };
    for (let i = 0; i < runs; i++)
      for (const [key, dir] of [
        ['small', small],
        ['large', large],
      ]) {
        if (clear) rmSync(join(dir, '.git', 'revtrail'), { recursive: true, force: true });
        peaks[key].push(nodePeak(dir, args).rss);
      }
    rows.push(
      row({
        scenario: `${label} peak memory, 1,000,000 commits`,
        value: median(peaks.large),
        floorName: 'the same on 100,000',
        floor: median(peaks.small),
        target: 1.1,
        unit: 'MiB',
      }),
    );
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const rows = await run({ runs: at >= 0 ? Number(args[at + 1]) : 3 });
  printTable(rows);
}
