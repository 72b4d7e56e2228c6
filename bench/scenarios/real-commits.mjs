// The commit-msg hook on commits people really made (issue 41): vue core's own last 10 commits
// that change packages/runtime-core, each staged onto its parent in a checkout of vue core, with
// a bundle of one decision on `packages/runtime-core/**` holding an import rule (resolved through
// vue's tsconfig paths) and a syntax-tree rule, so the full review runs on each. Timed: the hook
// process (`revtrail hook commit-msg`), beside `node -e 0` in the same rounds, and the parse
// floor: a node process that loads ast-grep and parses the commit's changed TypeScript files of
// runtime-core, so the goal (1.5x `node -e 0` plus that parse) is a row of its own. vue's own hooks
// run through simple-git-hooks after an `npm install` this offline bench cannot do, so the
// process alone is timed, not `git commit`.
//
//   npm run bench -- real-commits [--runs N]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cli, git, median, row, timeOnce } from '../lib.mjs';
import { borrowCached, missing, mirrorOf } from '../real.mjs';

const require = createRequire(import.meta.url);

export const name = 'real-commits';

const DECISION = `---
type: Architecture Decision
id: adr-0001
title: The runtime does not reach into the compiler
x:
  paths: ["packages/runtime-core/**"]
  rules:
    - id: no-compiler-import
      imports: { forbid: ["packages/compiler-*/**", "@vue/compiler-*"] }
      severity: bug
      title: runtime-core imports the compiler
    - id: no-console-log
      ast: console.log($$$)
      language: typescript
      severity: suggestion
      title: A console.log left in the runtime
---
# The runtime does not reach into the compiler
`;

export async function run({ runs = 5 } = {}) {
  const slug = 'vuejs/core';
  const mirror = mirrorOf(slug);
  const scenario = 'commit-msg hook process, vue core: 10 real commits to runtime-core';
  if (!mirror) return [row({ scenario, value: null, kind: 'info', note: missing(slug) })];
  const dir = borrowCached('vue-core', mirror, 'HEAD');
  const tip = git(dir, ['rev-parse', 'main']).trim();
  const commits = git(dir, ['log', '--no-merges', '--format=%H', '-10', tip, '--', 'packages/runtime-core'])
    .trim()
    .split('\n')
    .reverse();
  const msg = join(dir, '.git', 'BENCH_MSG');
  writeFileSync(msg, 'bench change\n');
  const node0 = [];
  const hook = [];
  const parse = [];
  // What the syntax-tree rule cannot do without: ast-grep loaded and each changed file parsed once.
  const parseScript = join(dir, '.git', 'BENCH_PARSE.cjs');
  writeFileSync(
    parseScript,
    `const { parse, Lang } = require(${JSON.stringify(require.resolve('@ast-grep/napi'))});
const { readFileSync } = require('node:fs');
for (const f of process.argv.slice(2)) parse(Lang.TypeScript, readFileSync(f, 'utf8')).root();
`,
  );
  try {
    for (const commit of commits) {
      git(dir, ['reset', '-q', '--hard', `${commit}^`]);
      git(dir, ['clean', '-qfdx']);
      mkdirSync(join(dir, '.okfw', 'decisions'), { recursive: true });
      writeFileSync(join(dir, '.okfw', 'index.md'), '# Decisions\n\n- [ADR 1](decisions/adr-0001.md)\n');
      writeFileSync(join(dir, '.okfw', 'decisions', 'adr-0001.md'), DECISION);
      // The commit's change staged on its parent (a file it deletes is deleted).
      git(dir, ['restore', `--source=${commit}`, '--staged', '--worktree', ':/']);
      const once = () => timeOnce(process.execPath, [cli, 'hook', 'commit-msg', msg], { cwd: dir, okCodes: [0, 1] });
      const changed = git(dir, [
        'diff',
        '--cached',
        '--name-only',
        '--diff-filter=AM',
        '--',
        'packages/runtime-core/**.ts',
      ])
        .split('\n')
        .filter(Boolean)
        .map((f) => join(dir, f));
      once(); // warm-up: the bundle's cache
      for (let i = 0; i < runs; i++) {
        node0.push(timeOnce(process.execPath, ['-e', '0']));
        hook.push(once());
        parse.push(timeOnce(process.execPath, [parseScript, ...changed], { cwd: dir }));
      }
    }
  } finally {
    git(dir, ['reset', '-q', '--hard', tip]);
    git(dir, ['clean', '-qfdx']);
    rmSync(msg, { force: true });
    rmSync(parseScript, { force: true });
  }
  // The goal's floor: 1.5x `node -e 0` plus what the parse adds to a bare node process.
  const parseCost = Math.max(0, median(parse) - median(node0));
  return [
    row({
      scenario,
      value: median(hook),
      floorName: 'node -e 0',
      floor: median(node0),
      target: 1.5,
      note: `median over ${commits.length} commits x ${runs} runs; the goal adds the parse of the changed files (next rows)`,
    }),
    row({
      scenario: '  the parse floor: node loading ast-grep and parsing the changed .ts files',
      value: median(parse),
      floorName: 'node -e 0',
      floor: median(node0),
      kind: 'info',
      note: `the parse adds ${parseCost.toFixed(0)} ms to node's start-up`,
    }),
    row({
      scenario: '  the hook process against 1.5x node -e 0 + the parse (the goal as one ratio)',
      value: median(hook),
      floorName: '1.5x node -e 0 + parse',
      floor: 1.5 * median(node0) + parseCost,
      target: 1,
    }),
  ];
}
