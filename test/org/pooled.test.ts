/**
 * Pooled calibration (docs/org.md "Pooled calibration", config `calibration.pooled`): three real
 * repositories, their records mined by the real CLI into Parquet files written by DuckDB, and
 * `revtrail review` in the third, whose own answers are too few to calibrate a rule the other two
 * mostly rejected.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../kit/repo.js';
import { message, row } from '../kit/mine.js';
import { AWS_KEY, DEBUGGER_LINE, installedRepo, type HookRepo } from '../kit/hooks.js';
import type { HumanVerdict } from '../../lib/core/vocabulary.js';
import { addTallies } from '../../lib/review/findings/pooled.js';
import { calibrationOf, type PooledRule } from '../../lib/review/findings/calibrate.js';
import { DEFAULT_CALIBRATION } from '../../lib/record/rule-tally.js';

const DEBUGGER = 'builtin/debug:debugger';
const SQL = 'builtin/injection:sql-concat';
const AWS = 'builtin/secrets:aws-access-key';
const SQL_LINE = `export const q = (id) => db.query("SELECT * FROM orders WHERE id = '" + id + "'");`;

let ids = 0;
/** One commit (no hooks) raising a finding of `rule` per verdict and answering it. */
function record(r: HookRepo, rule: string, verdicts: readonly HumanVerdict[]): void {
  const rows = verdicts.flatMap((verdict) => {
    const id = `rf-${(++ids).toString(16).padStart(10, 'd')}`;
    const severity =
      rule === DEBUGGER
        ? ({ category: 'correctness', severity: 'bug' } as const)
        : ({ category: 'security', severity: 'security' } as const);
    const base = { id, rule_source: rule, file: 'src/old.js', issue: 'earlier finding', ...severity };
    return [row(base), row({ ...base, verdict, rationale: verdict === 'REJECT' ? 'false positive here' : 'fixed' })];
  });
  r.commit(message(`chore: answers for ${rule}`, rows), {}, { args: ['--no-verify'] });
}

let work: string;
let gamma: HookRepo;
const made: HookRepo[] = [];
after(() => {
  for (const r of made) r.cleanup();
});

before(async () => {
  work = tempDir();
  for (const name of ['alpha', 'beta']) {
    const r = await installedRepo({ dir: join(work, name) });
    made.push(r);
    record(r, DEBUGGER, ['REJECT', 'REJECT', 'ACCEPT', 'REJECT', 'REJECT']);
    record(r, AWS, Array(5).fill('REJECT'));
    record(r, SQL, Array(5).fill('REJECT'));
  }
  gamma = await installedRepo({ dir: join(work, 'gamma') });
  made.push(gamma);
  // One answer of its own: too few (calibration.minVerdicts 5) to calibrate anything.
  record(gamma, DEBUGGER, ['REJECT']);
  // gamma is mined too: its own partition is left out of the pool (its history counts instead, fresh).
  const mine = await gamma.cli(['org', 'mine', 'alpha', 'beta', 'gamma', '--dir', 'org-files'], { cwd: work });
  assert.equal(mine.code, 0, mine.stderr);
  for (const [branch, files] of [
    ['debug', { 'src/a.js': `${DEBUGGER_LINE}\n` }],
    ['key', { 'config.js': `const key = "${AWS_KEY}";\n` }],
    ['sql', { 'src/q.js': `${SQL_LINE}\n` }],
  ] as const) {
    gamma.git(['checkout', '-q', '-B', branch, 'main']);
    gamma.commit(`feat: ${branch}`, files, { args: ['--no-verify'] });
  }
  gamma.git(['checkout', '-q', 'main']);
});

const configure = (pooled: object | null) =>
  writeFileSync(join(gamma.dir, 'revtrail.config.json'), JSON.stringify(pooled ? { calibration: { pooled } } : {}));
const review = (branch: string) => gamma.cli(['review', '--range', `main..${branch}`]);

test('off by default: a rule the other repositories reject still blocks where its own answers are few', async () => {
  configure(null);
  const run = await review('debug');
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /^REQUEST_CHANGES$/m);
  assert.doesNotMatch(run.stdout + run.stderr, /not blocking|pooled/);
});

test('pooled: the other repositories numbers plus its own demote the rule; the review no longer blocks', async () => {
  configure({ dir: join(work, 'org-files') });
  for (const round of ['cold', 'warm']) {
    const run = await review('debug');
    assert.equal(run.code, 0, `${round}: ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^COMMENT$/m);
    // 4 of 5 in alpha and beta, 1 of 1 here: 9 of 11 (gamma's own partition is not counted twice).
    assert.ok(
      run.stdout.includes(
        `not blocking: 9 of 11 answered findings of this rule were rejected in this history and 2 other repositories (revtrail stats --rule ${DEBUGGER}; revtrail org stats)`,
      ),
      run.stdout,
    );
    assert.doesNotMatch(run.stderr, /pooled calibration/);
  }
  // The second review read the tallies from the derived cache, keyed by the files' signatures.
  const derived = readFileSync(join(gamma.dir, '.git', 'revtrail', 'derived-v1.json'), 'utf8');
  assert.match(derived, /pooled-rules-v1/);
  const json = JSON.parse((await gamma.cli(['review', '--range', 'main..debug', '--format', 'json'])).stdout) as {
    event: string;
    findings: Array<{ rule_source: string; calibration?: object }>;
  };
  assert.equal(json.event, 'COMMENT');
  assert.deepEqual(json.findings.find((f) => f.rule_source === DEBUGGER)?.calibration, {
    rejected: 9,
    verdicts: 11,
    rate: 9 / 11,
    repositories: 2,
  });
});

test('pooled: a credential rule and a security rule rejected everywhere still block', async () => {
  configure({ dir: join(work, 'org-files') });
  for (const branch of ['key', 'sql']) {
    const run = await review(branch);
    assert.equal(run.code, 1, `${branch}: ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^REQUEST_CHANGES$/m);
    assert.doesNotMatch(run.stdout, /not blocking/);
  }
});

test('the commit-msg hook (commitMsg.block): aborted on its own numbers, through with the pooled ones', async () => {
  gamma.git(['checkout', '-q', '-B', 'hook', 'main']);
  const config = (pooled: object | null) =>
    writeFileSync(
      join(gamma.dir, 'revtrail.config.json'),
      JSON.stringify({ commitMsg: { block: true }, ...(pooled ? { calibration: { pooled } } : {}) }),
    );
  try {
    gamma.write('src/h.js', `${DEBUGGER_LINE}\n`);
    gamma.git(['add', 'src/h.js']);
    config(null);
    const blocked = await gamma.run(['commit', '-m', 'feat: h']);
    assert.equal(blocked.code, 1, blocked.stderr);
    assert.match(blocked.stderr, /commit aborted \(commitMsg\.block\): 1 blocking finding/);
    config({ dir: '../org-files' });
    // No derived cache: the hook's own bundle loads DuckDB to read the files (once).
    rmSync(join(gamma.dir, '.git', 'revtrail', 'derived-v1.json'), { force: true });
    const through = await gamma.run(['commit', '-m', 'feat: h']);
    assert.equal(through.code, 0, through.stderr);
    assert.ok(through.stderr.includes('rejected in this history and 2 other repositories'), through.stderr);
  } finally {
    rmSync(join(gamma.dir, 'revtrail.config.json'), { force: true });
    gamma.git(['reset', '-q', '--hard']);
    gamma.git(['checkout', '-q', 'main']);
  }
});

test('a corrupt pooled file or a missing folder: one warning naming it, and the repository own calibration', async () => {
  const bad = join(work, 'org-bad');
  cpSync(join(work, 'org-files'), bad, { recursive: true });
  const file = join(bad, 'repo=beta', 'rules.parquet');
  writeFileSync(file, 'PAR1 this is not a parquet file');
  for (const [dir, named] of [
    ['../org-bad', file],
    ['../no-such-folder', join(work, 'no-such-folder')],
  ] as const) {
    configure({ dir });
    const run = await review('debug');
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^REQUEST_CHANGES$/m);
    const out = run.stdout + run.stderr;
    const lines = out.split('\n').filter((l) => l.includes('pooled calibration'));
    assert.equal(lines.length, 1, out);
    assert.ok(lines[0]!.includes(`pooled calibration: ${named} not read (`), lines[0]);
    assert.match(lines[0]!, /calibrating from this repository's own history$/);
  }
});

test('a URL is no pooled folder: a config error', async () => {
  configure({ dir: 's3://bucket/org-files' });
  const run = await review('debug');
  assert.match(run.stderr, /"calibration\.pooled\.dir" is invalid/);
  assert.doesNotMatch(run.stdout, /not blocking/);
});

test('the pooled sum: numbers add, a rule is one repository where it was answered, exempt anywhere is exempt', () => {
  const pooled = new Map<string, PooledRule>();
  addTallies(pooled, [
    ['r/a', 5, 4, false],
    ['r/s', 5, 5, true],
    ['r/o', 0, 0, false],
  ]);
  addTallies(pooled, [
    ['r/a', 5, 4, false],
    ['r/s', 5, 5, false],
  ]);
  assert.deepEqual(pooled.get('r/a'), { verdicts: 10, rejected: 8, exempt: false, repositories: 2 });
  assert.deepEqual(pooled.get('r/s'), { verdicts: 10, rejected: 10, exempt: true, repositories: 2 });
  assert.equal(pooled.get('r/o')!.repositories, 0);
  const settings = { ...DEFAULT_CALIBRATION, security: [] as string[] };
  const demoted = calibrationOf([], settings, pooled);
  assert.deepEqual([...demoted.keys()], ['r/a']);
  // Named in calibration.security here, a rule another repository holds for a security rule may be demoted.
  assert.deepEqual([...calibrationOf([], { ...settings, security: ['r/s'] }, pooled).keys()].sort(), ['r/a', 'r/s']);
  // The thresholds are the same: 4 answers in all are too few.
  assert.equal(
    calibrationOf([], settings, new Map([['r/a', { ...pooled.get('r/a')!, verdicts: 4, rejected: 4 }]])).size,
    0,
  );
});
