/**
 * The organisation files and their views without git (docs/org.md "Schema", "Views"): partitions
 * written from made-up histories by the real writer and read back by embedded DuckDB. The page's
 * SQL is the code's; the files carry their schema version; and the pooled numbers of the views
 * are, for any histories, the sums of what lib/record/rule-tally.ts says per repository.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { projectRoot, tempDir } from '../kit/repo.js';
import type { CommitResult, MinedFinding } from '../../lib/mine/types.js';
import { ruleTallies } from '../../lib/gate/threads.js';
import { attachFolder } from '../../lib/org/engine.js';
import { openEngine, type Engine } from '../../lib/core/duckdb.js';
import { writePartition } from '../../lib/org/partition.js';
import { SCHEMA_VERSION, VIEWS_SQL, columnsOf } from '../../lib/org/schema.js';
import { orgStats } from '../../lib/org/stats.js';

let engine: Engine;
before(async () => {
  engine = await openEngine();
});
after(() => engine.close());

const VERDICTS = ['OPEN', 'ACCEPT', 'REJECT', 'DEFER', 'ACKNOWLEDGE'] as const;

function finding(commit: number, id: string, rule: string, verdict: (typeof VERDICTS)[number]): MinedFinding {
  return {
    commit: commit.toString(16).padStart(40, '0'),
    date: new Date(Date.UTC(2024, 0, 1) + commit * 60_000).toISOString().replace('.000Z', '+00:00'),
    author: `Dev ${commit % 3} <dev${commit % 3}@example.com>`,
    id,
    file: 'src/a.ts',
    line: '1',
    rule_source: rule,
    category: 'style',
    severity: 'nit',
    issue: "it's a finding",
    verdict,
    rationale: verdict === 'OPEN' ? '' : 'because',
    placement: 'trailer',
    grammar: 'csv',
  };
}

/** A history newest commit first, one occurrence per commit, from (thread, rule, verdict) steps oldest first. */
function history(steps: ReadonlyArray<readonly [number, number, number]>, base: number): CommitResult[] {
  return steps
    .map(([thread, rule, verdict], i) => {
      const f = finding(base + i, `rf-${String(thread).padStart(10, '0')}`, `reviewer/r${rule}`, VERDICTS[verdict]!);
      return { commit: f.commit, findings: [f], rejected: [], warnings: [] };
    })
    .reverse();
}

async function write(dir: string, name: string, commits: CommitResult[]) {
  await writePartition(engine, dir, {
    source: { name, remote: name === 'one' ? null : `git@example.com:${name}.git` },
    commits,
    tallies: ruleTallies(commits),
    redact: false,
    stamp: { schema_version: SCHEMA_VERSION, repository: name, remote: null, refs: '', mainline: null, redact: false },
  });
}

test('docs/org.md gives the views exactly as revtrail runs them', () => {
  const page = readFileSync(join(projectRoot, 'docs', 'org.md'), 'utf8');
  const block = /```sql\n([\s\S]*?)```/.exec(page.slice(page.indexOf('\n## Views\n')))?.[1];
  assert.equal(block, VIEWS_SQL);
});

test('the files hold every column of the schema, typed, and say their schema version', async () => {
  const dir = tempDir();
  await write(dir, 'one', history([[1, 1, 0]], 0));
  await attachFolder(engine, dir);
  for (const table of ['records', 'threads', 'rules'] as const) {
    const file = join(dir, 'repo=one', `${table}.parquet`);
    const { rows } = await engine.rows(`DESCRIBE SELECT * FROM read_parquet('${file}', hive_partitioning = false)`);
    assert.deepEqual(
      rows.map((r) => [r.column_name, r.column_type]),
      columnsOf(table).map(([n, t]) => [n, t === 'TIMESTAMPTZ' ? 'TIMESTAMP WITH TIME ZONE' : t]),
      table,
    );
    const meta = await engine.rows(
      `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${file}') WHERE decode(key) LIKE 'revtrail_%' ORDER BY 1`,
    );
    assert.deepEqual(meta.rows, [
      { k: 'revtrail_schema_version', v: String(SCHEMA_VERSION) },
      { k: 'revtrail_table', v: table },
    ]);
  }
  // Text comes back exactly (a quote in it, no escaping left behind), and the commit time as a UTC timestamp.
  const { rows } = await engine.rows(
    "SELECT issue, repository, remote, schema_version, strftime(commit_time AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M') AS t FROM records",
  );
  assert.deepEqual(rows, [
    { issue: "it's a finding", repository: 'one', remote: null, schema_version: SCHEMA_VERSION, t: '2024-01-01 00:00' },
  ]);
});

test('the pooled view is the sum of each repository’s tally, whatever the histories (property)', async () => {
  const step = fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 4 }));
  const histories = fc.array(fc.array(step, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 3 });
  await fc.assert(
    fc.asyncProperty(histories, async (repos) => {
      const dir = tempDir();
      const expected = new Map<string, { findings: number; verdicts: number; rejected: number; repos: number }>();
      for (const [i, steps] of repos.entries()) {
        const commits = history(steps, i * 1000);
        await write(dir, `r${i}`, commits);
        for (const t of ruleTallies(commits)) {
          const e = expected.get(t.rule_source) ?? { findings: 0, verdicts: 0, rejected: 0, repos: 0 };
          e.findings += t.findings;
          e.verdicts += t.verdicts;
          e.rejected += t.rejected;
          e.repos += 1;
          expected.set(t.rule_source, e);
        }
      }
      const parts = await attachFolder(engine, dir);
      const stats = await orgStats(engine, parts);
      assert.deepEqual(
        stats.rules.map((r) => [
          r.rule_source,
          r.repositories,
          r.findings,
          r.human_verdicts,
          r.counts.REJECT,
          r.reject_rate,
        ]),
        [...expected]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([rule, e]) => [
            rule,
            e.repos,
            e.findings,
            e.verdicts,
            e.rejected,
            e.verdicts ? e.rejected / e.verdicts : null,
          ]),
      );
    }),
    { numRuns: 25 },
  );
});
