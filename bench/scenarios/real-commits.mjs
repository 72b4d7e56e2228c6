// The commit-msg hook on commits people really made (issues 41 and 59): vue core's own last 24
// commits to its packages before the pinned commit of bench/real-rules/vue/project.json, each
// staged onto its parent in a checkout of vue core, with the bundle its maintainers would write
// (bench/real-rules/vue/.okfw: 8 decisions, 10 rules of every kind, `pattern`, `ast` and
// `imports` resolved through vue's tsconfig paths), so the full review runs on each. Timed, in
// the same rounds and alternated: the hook process (`revtrail hook commit-msg`), `node -e 0`,
// and the parse floor (a node process that loads ast-grep and parses the commit's changed
// TypeScript files of the packages), so every row is a ratio to `node -e 0` of the same run.
// vue's own hooks run through simple-git-hooks after an `npm install` this offline bench cannot
// do, so the process alone is timed, not `git commit` (`revtrail doctor --timing` times the chain
// on a clone that has its dependencies: docs/hooks.md "Timing the chain").
//
//   npm run bench -- real-commits [--runs N]
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cli, git, median, root, row, timeOnce } from '../lib.mjs';
import { borrowCached, missing, mirrorOf } from '../real.mjs';

const require = createRequire(import.meta.url);

export const name = 'real-commits';

/** Commits replayed: at least 24 timed, as issue 59 asks. */
const COMMITS = 24;
const project = join(root, 'bench', 'real-rules', 'vue');

/** The bundle's rule count by kind, for the row's name. */
function ruleKinds() {
  const kinds = { pattern: 0, ast: 0, imports: 0 };
  const dir = join(project, '.okfw', 'decisions');
  for (const f of readdirSync(dir))
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const key = /^\s+(?:- )?(pattern|ast|imports):/.exec(line)?.[1];
      if (key) kinds[key]++;
    }
  return kinds;
}

export async function run({ runs = 5 } = {}) {
  const { slug, rev, paths } = JSON.parse(readFileSync(join(project, 'project.json'), 'utf8'));
  const mirror = mirrorOf(slug);
  const kinds = ruleKinds();
  const rules = kinds.pattern + kinds.ast + kinds.imports;
  const scenario = `commit-msg hook process, vue core: ${COMMITS} real commits, its maintainers' bundle (${rules} rules: ${kinds.pattern} pattern, ${kinds.ast} ast, ${kinds.imports} imports)`;
  if (!mirror) return [row({ scenario, value: null, kind: 'info', note: missing(slug) })];
  const dir = borrowCached('vue-core-real-commits', mirror, rev);
  const tip = git(dir, ['rev-parse', 'main']).trim();
  const commits = git(dir, ['log', '--no-merges', '--format=%H', `-${COMMITS}`, tip, '--', ...paths])
    .trim()
    .split('\n')
    .reverse();
  const msg = join(dir, '.git', 'BENCH_MSG');
  const node0 = [];
  const hook = [];
  const parse = [];
  /** Per commit, the hook's median over the runs: the slowest is a row of its own. */
  const perCommit = [];
  // What the syntax-tree rules cannot do without: ast-grep loaded and each changed file parsed once.
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
      cpSync(join(project, '.okfw'), join(dir, '.okfw'), { recursive: true });
      // The commit's change staged on its parent (a file it deletes is deleted).
      git(dir, ['restore', `--source=${commit}`, '--staged', '--worktree', ':/']);
      // A fresh message each time, as `git commit -m` hands the hook (the hook writes rows into it).
      const once = () => {
        writeFileSync(msg, 'bench change\n');
        // Each timed run parses as the first review of the change does: what an earlier run kept
        // of the trees (docs/structural.md "Parsed once") is removed, so the warm-up warms only
        // the code cache and a build that keeps no facts is timed on the same footing.
        rmSync(join(dir, '.git', 'revtrail', 'tree-facts-v1'), { recursive: true, force: true });
        return timeOnce(process.execPath, [cli, 'hook', 'commit-msg', msg], { cwd: dir, okCodes: [0, 1] });
      };
      const changed = git(dir, ['diff', '--cached', '--name-only', '--diff-filter=AM', '--', 'packages/**.ts'])
        .split('\n')
        .filter((f) => f && !f.endsWith('.d.ts'))
        .map((f) => join(dir, f));
      once(); // warm-up: the bundle's cache
      const mine = [];
      for (let i = 0; i < runs; i++) {
        node0.push(timeOnce(process.execPath, ['-e', '0']));
        mine.push(once());
        parse.push(timeOnce(process.execPath, [parseScript, ...changed], { cwd: dir }));
      }
      hook.push(...mine);
      perCommit.push({ commit, ms: median(mine), files: changed.length });
    }
  } finally {
    git(dir, ['reset', '-q', '--hard', tip]);
    git(dir, ['clean', '-qfdx']);
    rmSync(msg, { force: true });
    rmSync(parseScript, { force: true });
  }
  const floor = median(node0);
  // The goal's floor: 1.5x `node -e 0` plus what the parse adds to a bare node process.
  const parseCost = Math.max(0, median(parse) - floor);
  const slowest = perCommit.reduce((a, b) => (b.ms > a.ms ? b : a));
  return [
    row({
      scenario,
      value: median(hook),
      floorName: 'node -e 0',
      floor,
      target: 1.5,
      note: `median over ${commits.length} commits x ${runs} runs, alternated with node -e 0 (${node0.length} runs); the goal adds the parse of the changed files (next rows)`,
    }),
    row({
      scenario: '  the slowest of those commits (its median)',
      value: slowest.ms,
      floorName: 'node -e 0',
      floor,
      kind: 'info',
      note: `${slowest.commit.slice(0, 12)}, ${slowest.files} changed .ts files of the packages`,
    }),
    row({
      scenario: '  the parse floor: node loading ast-grep and parsing the changed .ts files',
      value: median(parse),
      floorName: 'node -e 0',
      floor,
      kind: 'info',
      note: `the parse adds ${parseCost.toFixed(0)} ms to node's start-up`,
    }),
    row({
      scenario: '  the hook process against 1.5x node -e 0 + the parse (the goal as one ratio)',
      value: median(hook),
      floorName: '1.5x node -e 0 + parse',
      floor: 1.5 * floor + parseCost,
      target: 1,
    }),
  ];
}
