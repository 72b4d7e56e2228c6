// Organisation scale (issue 38, docs/org.md "Bench"): `revtrail org mine` over many generated
// repositories against `git log --format=%B` over the same repositories with the same
// parallelism, the run's peak memory, `org stats` on the mined files, and the views on Spark SQL
// where a Spark is installed (skipped, and said so, where none is).
//
//   ORG_REPOS=200 ORG_COMMITS=2000 npm run bench -- org --runs 1
//   node bench/scenarios/org.mjs [--repos N] [--commits N] [--runs N]
//
// The repositories (seeds 1..N of bench/gen-history.mjs, about a second each here) are made
// once and kept in the bench cache (bench/lib.mjs cachedFolder). Each round starts from no
// mining cache and no files, then times a re-run with nothing changed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, cachedFolder, cli, median, row, timeOnce, tmp } from '../lib.mjs';
import { nodePeak } from './mine.mjs';

export const name = 'org';

const generator = join(dirname(fileURLToPath(import.meta.url)), '..', 'gen-history.mjs');

/** Runs `commands` (argv lists) at most `jobs` at once; wall milliseconds of the whole. */
async function parallel(commands, jobs, options = {}) {
  const start = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < commands.length) {
      const [cmd, ...args] = commands[next++];
      await new Promise((resolve, reject) => {
        const child = spawn(cmd, args, { ...options, env: benchEnv, stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')}: ${code}`))));
      });
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** N repositories of `commits` commits each, in the bench cache. */
async function repositories(repos, commits, jobs) {
  const key = `${repos}x${commits} ${createHash('sha256').update(readFileSync(generator)).digest('hex').slice(0, 16)}`;
  let made = 0;
  const base = cachedFolder(`org-${repos}x${commits}`, key, (dir) => {
    const commands = Array.from({ length: repos }, (_, i) => [
      process.execPath,
      generator,
      join(dir, `r${String(i + 1).padStart(3, '0')}`),
      String(commits),
      '--seed',
      String(i + 1),
    ]);
    // cachedFolder's make is synchronous: generate in a child that runs the commands in parallel.
    const script = join(tmp('revtrail-bench-orggen-'), 'gen.mjs');
    writeFileSync(
      script,
      `import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
const commands = ${JSON.stringify(commands)};
let next = 0;
const once = (c, a) => new Promise((r) => spawn(c, a, { stdio: ['ignore', 'ignore', 'inherit'] }).on('close', r));
// One retry: on a machine shared with other work a generator run has failed once for no reason of its own.
const worker = async () => { while (next < commands.length) { const [c, ...a] = commands[next++]; if ((await once(c, a)) === 0) continue; rmSync(a[1], { recursive: true, force: true }); if ((await once(c, a)) !== 0) throw new Error(a.join(' ')); } };
await Promise.all(Array.from({ length: ${jobs} }, worker));
`,
    );
    const start = Date.now();
    const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('bench: generating the repositories failed');
    made = Date.now() - start;
    rmSync(join(script, '..'), { recursive: true, force: true });
  });
  const list = Array.from({ length: repos }, (_, i) => join(base, `r${String(i + 1).padStart(3, '0')}`));
  return { base, list, made };
}

/** Which Spark is here: `spark-sql` or `pyspark` on PATH, or null. */
function sparkHere() {
  for (const tool of ['spark-sql', 'pyspark']) {
    const r = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return tool;
  }
  return null;
}

/**
 * The views of docs/org.md on Spark SQL over the same files, compared with DuckDB's answer of
 * `SELECT * FROM rule_org ORDER BY rule_source`: where spark-sql exists.
 */
function sparkCompare(tool, dir, duckRows) {
  if (tool !== 'spark-sql') return { same: null, note: `${tool} found; the comparison runs through spark-sql only` };
  const views = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'org.md'), 'utf8');
  const sql = /```sql\n([\s\S]*?)```/.exec(views.slice(views.indexOf('## Views')))?.[1] ?? '';
  const tables = ['records', 'threads', 'rules']
    .map((t) => `CREATE OR REPLACE TEMPORARY VIEW ${t} USING parquet OPTIONS (path '${dir}/repo=*/${t}.parquet');`)
    .join('\n');
  const query = `${tables}\n${sql}\nSELECT rule_source, repositories, findings, human_verdicts, rejected FROM rule_org ORDER BY rule_source;`;
  const r = spawnSync('spark-sql', ['-S', '-e', query], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) return { same: false, note: `spark-sql exited ${r.status}: ${r.stderr.slice(0, 200)}` };
  const spark = r.stdout.trim().split('\n').filter(Boolean);
  const duck = duckRows.map((x) =>
    [x.rule_source, x.repositories, x.findings, x.human_verdicts, x.rejected].join('\t'),
  );
  return { same: JSON.stringify(spark) === JSON.stringify(duck), note: `${duck.length} rules compared` };
}

export async function run({ runs = 1, repos, commits } = {}) {
  const count = repos ?? Number(process.env.ORG_REPOS ?? 20);
  const size = commits ?? Number(process.env.ORG_COMMITS ?? 2000);
  const jobs = availableParallelism();
  const { list, made } = await repositories(count, size, jobs);
  const work = tmp('revtrail-bench-org-');
  const from = join(work, 'repos.txt');
  writeFileSync(from, list.join('\n') + '\n');
  const dir = join(work, 'files');
  const clear = () => {
    rmSync(dir, { recursive: true, force: true });
    for (const r of list) rmSync(join(r, '.git', 'revtrail'), { recursive: true, force: true });
  };
  const floors = [];
  const firsts = [];
  const again = [];
  const stats = [];
  for (let i = 0; i < runs; i++) {
    floors.push(
      await parallel(
        list.map((r) => ['git', '-C', r, 'log', '--format=%B']),
        jobs,
      ),
    );
    clear();
    firsts.push(timeOnce(process.execPath, [cli, 'org', 'mine', '--from', from, '--dir', dir], { cwd: work }));
    again.push(timeOnce(process.execPath, [cli, 'org', 'mine', '--from', from, '--dir', dir], { cwd: work }));
    stats.push(timeOnce(process.execPath, [cli, 'org', 'stats', '--dir', dir, '--json'], { cwd: work }));
  }
  clear();
  const peak = nodePeak(work, ['org', 'mine', '--from', from, '--dir', dir]);
  const duck = JSON.parse(
    spawnSync(
      process.execPath,
      [cli, 'org', 'query', 'SELECT * FROM rule_org ORDER BY rule_source', '--dir', dir, '--json'],
      {
        cwd: work,
        env: benchEnv,
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      },
    ).stdout,
  ).rows;
  const tool = sparkHere();
  const spark = tool ? sparkCompare(tool, dir, duck) : null;
  const total = (count * size).toLocaleString('en');
  const f = median(floors);
  const rows = [
    row({
      scenario: `org mine, first run (${count} repositories x ${size.toLocaleString('en')} commits = ${total}, ${jobs} at once)`,
      value: median(firsts),
      floorName: `git log --format=%B, ${jobs} at once`,
      floor: f,
      target: 1.5,
      note: made ? `the repositories took ${(made / 1000).toFixed(0)} s to generate` : '',
    }),
    row({
      scenario: 'org mine, nothing changed',
      value: median(again),
      floorName: `git log --format=%B, ${jobs} at once`,
      floor: f,
      kind: 'info',
    }),
    row({ scenario: 'org mine peak memory (node, DuckDB included)', value: peak.rss, kind: 'MiB', target: 256 }),
    row({ scenario: 'org stats on the mined files', value: median(stats), kind: 'ms', target: 2000 }),
    row({
      scenario:
        spark === null
          ? 'views on Spark SQL: skipped: no Spark here'
          : `views on Spark SQL (${tool}): ${spark.same === null ? 'not compared' : spark.same ? 'same answer as DuckDB' : 'DIFFERENT from DuckDB'}`,
      value: duck.length,
      kind: 'info',
      unit: 'rules',
      note: spark?.note ?? '',
    }),
  ];
  rmSync(work, { recursive: true, force: true });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (flag) => {
    const at = args.indexOf(flag);
    return at >= 0 ? Number(args[at + 1]) : undefined;
  };
  const { printTable } = await import('../lib.mjs');
  const rows = await run({ runs: option('--runs') ?? 1, repos: option('--repos'), commits: option('--commits') });
  printTable(rows);
  for (const r of rows) if (r.note) console.log(`  ${r.scenario}: ${r.note}`);
}
