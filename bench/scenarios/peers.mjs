// What teams already run in their hooks, next to revtrail, in one run: each tool set up through
// husky on its own copy of the same 10-file / 300-line change (as in hooks.mjs), timed as
// `git commit` with the hooks minus `git commit --no-verify`, in rounds that take every commit
// and `node -e 0` back to back.
//
//   npm run bench -- peers        (run only when named: it installs other tools)
//
// - revtrail commit-msg: `revtrail install` with the 100-concept bench bundle;
// - commitlint commit-msg: @commitlint/cli with @commitlint/config-conventional;
// - secretlint through lint-staged (pre-commit): secretlint with its recommended preset on the
//   staged files.
// The tools are installed once from the npm registry into the bench cache (bench/lib.mjs
// cachedFolder, outside the repository) and reused. Each hook calls its tool the way husky's
// PATH (node_modules/.bin) finds it, without npx, as revtrail's own hook does.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, cachedFolder, cli, git, median, printTable, row, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';

export const name = 'peers';

// Majors pinned: commitlint 21, secretlint 13, lint-staged 17, husky 9 (revtrail's own).
const TOOLS = {
  '@commitlint/cli': '^21.0.0',
  '@commitlint/config-conventional': '^21.0.0',
  secretlint: '^13.0.0',
  '@secretlint/secretlint-rule-preset-recommend': '^13.0.0',
  'lint-staged': '^17.0.0',
  husky: '^9.1.0',
};

function installTools() {
  return cachedFolder('peers', JSON.stringify(TOOLS), (dir) => {
    process.stderr.write(`bench: installing ${Object.keys(TOOLS).join(', ')} into ${dir} (once)\n`);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'revtrail-bench-peers', private: true, dependencies: TOOLS }, null, 2),
    );
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  });
}

const version = (tools, pkg) =>
  JSON.parse(readFileSync(join(tools, 'node_modules', pkg, 'package.json'), 'utf8')).version;

// A commit message every tool accepts (commitlint's conventional type included).
const MESSAGE = 'feat: bench change';

/** A repository with a baseline commit and the staged change; `setup` adds the tool and its hook. */
function benchRepo(prefix, setup) {
  const dir = tmp(prefix);
  git(dir, ['init', '-q', '-b', 'main']);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  setup(dir);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--no-verify', '-m', 'chore: baseline']);
  for (let f = 0; f < 10; f++) {
    mkdirSync(join(dir, `src/mod${f}`), { recursive: true });
    writeFileSync(
      join(dir, `src/mod${f}/f.ts`),
      Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i} + ${f};`).join('\n') + '\n',
    );
  }
  git(dir, ['add', '-A']);
  return dir;
}

function huskyHook(dir, tools, hook, body) {
  symlinkSync(join(tools, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(tools, 'node_modules', 'husky', 'bin.js')], {
    cwd: dir,
    env: benchEnv,
    stdio: 'ignore',
  });
  writeFileSync(join(dir, '.husky', hook), `${body}\n`);
  chmodSync(join(dir, '.husky', hook), 0o755);
}

export async function run({ runs = 5 } = {}) {
  const tools = installTools();
  const repos = {
    revtrail: benchRepo('revtrail-bench-peers-revtrail-', (dir) => {
      generateBundle(join(dir, '.okfw'), { concepts: 100, rulesPer: 2 });
      mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
      const shim = join(dir, 'node_modules', '.bin', 'revtrail');
      writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
      chmodSync(shim, 0o755);
      git(dir, ['add', '-A']);
      git(dir, ['commit', '-q', '-m', 'chore: bundle']);
      timeOnce(process.execPath, [cli, 'install'], { cwd: dir });
    }),
    commitlint: benchRepo('revtrail-bench-peers-commitlint-', (dir) => {
      writeFileSync(
        join(dir, 'commitlint.config.mjs'),
        "export default { extends: ['@commitlint/config-conventional'] };\n",
      );
      huskyHook(dir, tools, 'commit-msg', 'commitlint --edit "$1"');
    }),
    secretlint: benchRepo('revtrail-bench-peers-secretlint-', (dir) => {
      writeFileSync(
        join(dir, '.secretlintrc.json'),
        JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] }) + '\n',
      );
      writeFileSync(join(dir, '.lintstagedrc.json'), JSON.stringify({ '*': 'secretlint' }) + '\n');
      huskyHook(dir, tools, 'pre-commit', 'lint-staged');
    }),
  };
  try {
    const commit = (dir, verify) => {
      const ms = timeOnce('git', ['commit', '-q', ...(verify ? [] : ['--no-verify']), '-m', MESSAGE], { cwd: dir });
      git(dir, ['reset', '-q', '--soft', 'HEAD~1']);
      return ms;
    };
    const node0 = [];
    const plain = Object.fromEntries(Object.keys(repos).map((k) => [k, []]));
    const hooked = Object.fromEntries(Object.keys(repos).map((k) => [k, []]));
    // Every hook really runs: each blocks what it is there to block...
    const blocked = (dir, message) =>
      spawnSync('git', ['commit', '-q', '-m', message], { cwd: dir, env: benchEnv }).status !== 0;
    if (!blocked(repos.commitlint, 'not a conventional subject'))
      throw new Error('bench peers: commitlint did not run');
    // (a made-up Slack bot token, put together here so that no scanner flags this file)
    const token = ['xox', 'b-123456789012-1234567890123-', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('');
    writeFileSync(join(repos.secretlint, 'src/mod0/token.ts'), `export const slack = "${token}";\n`);
    git(repos.secretlint, ['add', '-A']);
    if (!blocked(repos.secretlint, MESSAGE)) throw new Error('bench peers: secretlint did not run');
    git(repos.secretlint, ['rm', '-q', '--cached', 'src/mod0/token.ts']);
    rmSync(join(repos.secretlint, 'src/mod0/token.ts'));
    // ...and lets the bench change through (a warm-up of each).
    for (const dir of Object.values(repos)) commit(dir, true);
    for (let i = 0; i < runs; i++) {
      node0.push(timeOnce(process.execPath, ['-e', '0']));
      for (const [k, dir] of Object.entries(repos)) {
        plain[k].push(commit(dir, false));
        hooked[k].push(commit(dir, true));
      }
    }
    const floor = median(node0);
    const overhead = (k) => median(hooked[k]) - median(plain[k]);
    const ours = overhead('revtrail');
    return [
      row({
        scenario: 'revtrail commit-msg (100 concepts)',
        value: ours,
        floorName: 'node -e 0',
        floor,
        target: 1.5,
        note: `git commit without hooks ${median(plain.revtrail).toFixed(0)} ms`,
      }),
      row({
        scenario: `commitlint ${version(tools, '@commitlint/cli')} commit-msg (config-conventional)`,
        value: overhead('commitlint'),
        floorName: 'node -e 0',
        floor,
        kind: 'info',
        note: `${(overhead('commitlint') / ours).toFixed(1)}x revtrail's cost`,
      }),
      row({
        scenario: `secretlint ${version(tools, 'secretlint')} via lint-staged ${version(tools, 'lint-staged')} (pre-commit)`,
        value: overhead('secretlint'),
        floorName: 'node -e 0',
        floor,
        kind: 'info',
        note: `${(overhead('secretlint') / ours).toFixed(1)}x revtrail's cost`,
      }),
    ];
  } finally {
    for (const dir of Object.values(repos)) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--runs');
  const runs = at >= 0 ? Number(process.argv[at + 1]) : 5;
  const rows = await run({ runs });
  console.log(`node ${process.version}, median of ${runs} runs\n`);
  printTable(rows);
  for (const r of rows) if (r.note) console.log(`  ${r.scenario}: ${r.note}`);
}
