// `npm run bench [-- scenario ...] [--runs N]`: every scenario, or the named ones, as one table.
import { readdirSync } from 'node:fs';
import { printTable } from './lib.mjs';

// Every file in scenarios/ is a scenario; the default run takes the ones that time revtrail
// against its floors (the slow or setup-heavy ones run only when named).
const byName = readdirSync(new URL('./scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4))
  .sort();
// quality (recall and precision, not a timing), peers (installs other tools) and server (the
// first push's history, through pre-receive) run when named, as do mine-scale (a 1,000,000-commit
// history, generated once in about 11 minutes), server-load (20 concurrent pushes) and
// real-commits (vue core's own commits; git/git's first push is a first-push row): the real
// projects are read from a fetched mirror (bench/real.mjs), never cloned over the network. first-push is in the default run:
// issue 28's table has rows for it.
const all = ['startup', 'select-review', 'hooks', 'first-push', 'mine', 'hostile'].filter((n) => byName.includes(n));
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
const chosen = args.filter((a, i) => !a.startsWith('--') && (runsAt < 0 || i !== runsAt + 1));
const names = chosen.length ? chosen : all;

const rows = [];
for (const name of names) {
  if (!byName.includes(name)) {
    console.error(`bench: unknown scenario "${name}"; scenarios: ${byName.join(', ')}`);
    process.exit(2);
  }
  const scenario = await import(`./scenarios/${name}.mjs`);
  process.stderr.write(`bench: ${name}...\n`);
  rows.push(...(await scenario.run({ runs })));
}
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores, median of ${runs} runs\n`);
printTable(rows);
for (const r of rows) if (r.note) console.log(`  ${r.scenario}: ${r.note}`);
