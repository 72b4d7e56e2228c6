// `revtrail rules --backtest` over 5,000 real commits (issue 56): vue core's mainline, with a
// bundle of one decision holding a rule of each kind (a pattern, a syntax-tree rule and an import
// rule, on `packages/**`), and again with the pattern alone. Each is timed beside `git log -p`
// over the same commits (first parent, --full-index), back to back in the same rounds, so the
// ratio says what the replay adds to reading the history. The syntax-tree and import rules parse
// every changed TypeScript file of every commit; the pattern-only row shows the stream's own cost.
//
//   npm run bench -- backtest [--runs N]       (N defaults to 5; each run replays 5,000 commits)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backToBack, cli, row, timeOnce } from '../lib.mjs';
import { borrow, missing, mirrorOf } from '../real.mjs';

export const name = 'backtest';

const COMMITS = 5000;

const decision = (rules) => `---
type: Architecture Decision
id: adr-0001
title: Packages keep their layers
x:
  paths: ["packages/**"]
  rules:
${rules}
---
# Packages keep their layers
`;

const PATTERN = `    - id: no-ts-ignore
      pattern: '@ts-ignore'
      severity: nit
      title: ts-ignore instead of a typed fix`;
const STRUCTURAL = `    - id: no-server-renderer
      imports: { forbid: ["packages/server-renderer/**", "@vue/server-renderer"] }
      severity: bug
      title: A package imports the server renderer
    - id: no-console-log
      ast: console.log($$$)
      language: typescript
      severity: nit
      title: console.log left in`;

export async function run({ runs = 5 } = {}) {
  const slug = 'vuejs/core';
  const mirror = mirrorOf(slug);
  const scenario = `rules --backtest, vue core: ${COMMITS} commits, a rule of each kind`;
  if (!mirror) return [row({ scenario, value: null, kind: 'info', note: missing(slug) })];
  // Objects borrowed from the mirror; the bundle is in the work tree, not in history.
  const { dir } = borrow(mirror, 'HEAD');
  mkdirSync(join(dir, '.okfw'), { recursive: true });
  writeFileSync(join(dir, '.okfw', 'index.md'), '# Decisions\n\n- [ADR 1](adr-0001.md)\n');
  const logP = () =>
    timeOnce('git', ['log', '-p', '--first-parent', '--full-index', `--max-count=${COMMITS}`, 'HEAD'], { cwd: dir });
  const backtest = () =>
    timeOnce(process.execPath, [cli, 'rules', '--backtest', `--max-count=${COMMITS}`, '--json', '--quiet'], {
      cwd: dir,
    });
  const rows = [];
  try {
    for (const [label, rules] of [
      ['a rule of each kind', `${PATTERN}\n${STRUCTURAL}`],
      ['the pattern alone', PATTERN],
    ]) {
      writeFileSync(join(dir, '.okfw', 'adr-0001.md'), decision(rules));
      const { floor, value } = backToBack(runs, logP, backtest);
      rows.push(
        row({
          scenario: `rules --backtest, vue core: ${COMMITS} commits, ${label}`,
          value,
          floorName: 'git log -p',
          floor,
          kind: 'info',
          note: `ratio ${(value / floor).toFixed(1)}x; first parent, the same commits`,
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
