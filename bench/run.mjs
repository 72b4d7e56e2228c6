// `npm run bench [-- scenario ...] [--runs N]`: every scenario, or the named ones, as one table.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli as ownCli, printTable, useCli } from './lib.mjs';

// Every file in scenarios/ is a scenario; the default run takes the ones that time revtrail
// against its floors (the slow or setup-heavy ones run only when named).
const byName = readdirSync(new URL('./scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4))
  .sort();
// quality (recall and precision, not a timing), peers (installs other tools) and server (the
// first push's history, through pre-receive) run when named, as do mine-scale (a 1,000,000-commit
// history, generated once in about 11 minutes), server-load (20 concurrent pushes) and
// real-commits (vue core's own commits with its maintainers' bundle; git/git's and vue core's first pushes are first-push rows) and real-rules
// (the team's own rules on flask and vue core: bench/real-rules/README.md): the real
// projects are read from a fetched mirror (bench/real.mjs), never cloned over the network. first-push is in the default run:
// issue 28's table has rows for it.
const all = ['startup', 'select-review', 'hooks', 'first-push', 'mine', 'hostile'].filter((n) => byName.includes(n));
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
// --against DIR: the same scenarios also time another checkout's build (its bin/revtrail.js, built
// there), in the order this, that, that, this, so that drift in the machine's load falls on both.
const againstAt = args.indexOf('--against');
const against = againstAt >= 0 ? resolve(args[againstAt + 1] ?? '') : null;
const valueAt = new Set([runsAt, againstAt].filter((i) => i >= 0).map((i) => i + 1));
const chosen = args.filter((a, i) => !a.startsWith('--') && !valueAt.has(i));
const names = chosen.length ? chosen : all;
if (against && !existsSync(join(against, 'bin', 'revtrail.js'))) {
  console.error(`bench: --against ${against}: no bin/revtrail.js there (a checkout, built)`);
  process.exit(2);
}

const rows = [];
for (const name of names) {
  if (!byName.includes(name)) {
    console.error(`bench: unknown scenario "${name}"; scenarios: ${byName.join(', ')}`);
    process.exit(2);
  }
  const scenario = await import(`./scenarios/${name}.mjs`);
  if (!against) {
    process.stderr.write(`bench: ${name}...\n`);
    rows.push(...(await scenario.run({ runs })));
    continue;
  }
  const builds = [
    ['this', ownCli],
    ['against', join(against, 'bin', 'revtrail.js')],
  ];
  for (const [label, path] of [builds[0], builds[1], builds[1], builds[0]]) {
    process.stderr.write(`bench: ${name} (${label})...\n`);
    useCli(path);
    for (const r of await scenario.run({ runs })) rows.push({ ...r, scenario: `${r.scenario} [${label}]` });
  }
  useCli(ownCli);
}
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores, median of ${runs} runs\n`);
if (against)
  console.log(
    `[this]: ${ownCli}; [against]: ${join(against, 'bin', 'revtrail.js')}; each twice, this-that-that-this\n`,
  );
printTable(rows);
for (const r of rows) if (r.note) console.log(`  ${r.scenario}: ${r.note}`);
