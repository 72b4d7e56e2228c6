/**
 * `revtrail org` end to end (docs/org.md): three real repositories with overlapping findings,
 * mined by the real CLI into one folder of Parquet files and answered by embedded DuckDB. The
 * repositories are made once and shared; each case says what it adds.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { message, row } from '../kit/mine.js';
import { RULE, scenario, trackScenarios, type Scenario } from '../kit/gate.js';

const NOISY = 'reviewer/style:naming';
const LONE = 'reviewer/perf:loop';
const track = trackScenarios();

let alpha: Scenario;
let beta: Scenario;
let gamma: Scenario;
let work: string;
let dir: string;

/** Findings of `rule` raised and answered in one commit (no fix): `verdicts` in order, ids from `prefix`. */
function answered(repo: TestRepo, env: NodeJS.ProcessEnv, rule: string, prefix: string, verdicts: string[]): string {
  const rows = verdicts.map((verdict, i) =>
    row({
      id: `rf-${prefix}${String(i).padStart(10 - prefix.length, '0')}`,
      file: `src/n${i}.ts`,
      rule_source: rule,
      category: 'style',
      severity: 'nit',
      issue: 'name says too little',
      verdict: verdict as 'OPEN',
      rationale: verdict === 'OPEN' ? '' : 'said so',
    }),
  );
  return repo.commit(message(`answers of ${rule}`, rows), {}, { env });
}

/** One accepted, CI-passing fix of RULE in `file`: alone it is one qualifying thread, too few for a candidate. */
function fixedOnce(s: Scenario, id: string, file: string): void {
  s.raise(id, file);
  s.ci(s.fix(id, file), 'pass');
}

before(() => {
  alpha = track(scenario());
  fixedOnce(alpha, 'rf-00000000a1', 'src/a.ts');
  answered(alpha.repo, alpha.time.next(), NOISY, 'aa', ['REJECT', 'REJECT', 'ACCEPT', 'REJECT', 'REJECT']);
  beta = track(scenario());
  fixedOnce(beta, 'rf-00000000b1', 'src/b.ts');
  answered(beta.repo, beta.time.next(), NOISY, 'bb', ['REJECT', 'ACCEPT']);
  gamma = track(scenario());
  fixedOnce(gamma, 'rf-00000000c1', 'src/a.ts');
  answered(gamma.repo, gamma.time.next(), LONE, 'cc', ['OPEN']);
  work = tempDir();
  dir = join(work, 'org-files');
});

const names = () => [`alpha=${alpha.repo.dir}`, `beta=${beta.repo.dir}`, `gamma=${gamma.repo.dir}`];

interface RuleJson {
  rule_source: string;
  repositories: number;
  findings: number;
  open: number;
  counts: Record<string, number>;
  human_verdicts: number;
  reject_rate: number | null;
  flag: string | null;
  noisy_in: string[];
}

test('org stats: per-rule numbers across the three repositories match the hand count', async () => {
  const run = await runCli(['org', 'stats', ...names(), '--dir', dir, '--json'], { cwd: work });
  assert.equal(run.code, 0, run.stderr);
  const stats = JSON.parse(run.stdout) as { repositories: string[]; rules: RuleJson[] };
  assert.deepEqual(stats.repositories, ['alpha', 'beta', 'gamma']);
  const by = Object.fromEntries(stats.rules.map((r) => [r.rule_source, r]));
  assert.deepEqual(Object.keys(by).sort(), [RULE, LONE, NOISY].sort());
  // RULE: one finding each, raised and accepted: 3 threads, 3 ACCEPT, none rejected, n=3 (< 5: too few).
  assert.equal(by[RULE]!.repositories, 3);
  assert.equal(by[RULE]!.findings, 3);
  assert.equal(by[RULE]!.counts.ACCEPT, 3);
  assert.equal(by[RULE]!.reject_rate, 0);
  assert.equal(by[RULE]!.human_verdicts, 3);
  assert.equal(by[RULE]!.flag, 'too few verdicts');
  // NOISY: alpha 4 of 5 rejected (noisy), beta 1 of 2 (n too small to call noisy): 5 of 7 pooled.
  assert.equal(by[NOISY]!.repositories, 2);
  assert.equal(by[NOISY]!.findings, 7);
  assert.equal(by[NOISY]!.counts.REJECT, 5);
  assert.equal(by[NOISY]!.counts.ACCEPT, 2);
  assert.equal(by[NOISY]!.human_verdicts, 7);
  assert.equal(by[NOISY]!.reject_rate, 5 / 7);
  assert.equal(by[NOISY]!.flag, 'investigate');
  assert.deepEqual(by[NOISY]!.noisy_in, ['alpha']);
  // LONE: one open finding in gamma, no verdict: no rate.
  assert.equal(by[LONE]!.open, 1);
  assert.equal(by[LONE]!.reject_rate, null);
  assert.deepEqual(by[LONE]!.noisy_in, []);

  const text = await runCli(['org', 'stats', '--dir', dir], { cwd: work });
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /reviewer\/style:naming: 7 findings in 2 repositories, rejected 71\.4% \(n=7\), investigate\n {2}noisy in: alpha\n/,
  );
});

test('org candidates: one finding fixed once in each repository is one candidate naming all three', async () => {
  // Each repository alone has one qualifying thread: below gate.minRecurrence (2), no candidate.
  const alone = await runCli(['candidates', '--json'], { cwd: alpha.repo.dir });
  assert.equal(alone.code, 0, alone.stderr);
  assert.equal((JSON.parse(alone.stdout) as { candidates: unknown[] }).candidates.length, 0);

  const out = join(work, 'drafts');
  const run = await runCli(['org', 'candidates', ...names(), '--json', '--out', out], { cwd: work });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as {
    candidates: Array<{
      rule_source: string;
      status: string;
      trust_level: string;
      repositories: string[];
      evidence: Array<{ finding: string; file: string }>;
      gate: { threads: number; files: string[]; signals: Record<string, boolean> };
    }>;
    files: string[];
  };
  assert.equal(result.candidates.length, 1);
  const [c] = result.candidates;
  assert.equal(c!.rule_source, RULE);
  assert.deepEqual(c!.repositories, ['alpha', 'beta', 'gamma']);
  assert.equal(c!.gate.threads, 3);
  assert.deepEqual(c!.gate.files, ['alpha/src/a.ts', 'beta/src/b.ts', 'gamma/src/a.ts']);
  assert.deepEqual(c!.evidence.map((e) => [e.finding, e.file]).sort(), [
    ['rf-00000000a1', 'alpha/src/a.ts'],
    ['rf-00000000b1', 'beta/src/b.ts'],
    ['rf-00000000c1', 'gamma/src/a.ts'],
  ]);
  assert.ok(Object.values(c!.gate.signals).every(Boolean), JSON.stringify(c!.gate.signals));
  // A draft for a person: never adopted, never approved.
  assert.equal(c!.status, 'generated');
  assert.equal(c!.trust_level, 'inferred');
  assert.equal(result.files.length, 1);
  assert.match(statSync(join(work, result.files[0]!)).isFile() ? 'file' : '', /file/);
});

test('org candidates: one person raising and fixing everywhere is no candidate (several_authors)', async () => {
  const solo: Scenario[] = [];
  for (const [i, file] of ['src/a.ts', 'src/b.ts'].entries()) {
    const s = track(scenario());
    s.raise(`rf-00000000d${i}`, file);
    s.ci(s.fix(`rf-00000000d${i}`, file, {}, { author: 'Ada Tester <ada@example.com>' }), 'pass');
    solo.push(s);
  }
  const run = await runCli(['org', 'candidates', ...solo.map((s, i) => `solo${i}=${s.repo.dir}`), '--json'], {
    cwd: work,
  });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as {
    candidates: unknown[];
    rules: Array<{ rule_source: string; passed: boolean; signals: Array<{ name: string; met: boolean }> }>;
  };
  assert.equal(result.candidates.length, 0);
  const rule = result.rules.find((r) => r.rule_source === RULE)!;
  assert.equal(rule.passed, false);
  assert.deepEqual(
    rule.signals.filter((s) => !s.met).map((s) => s.name),
    ['several_authors'],
  );
});

test('an incremental org run after one new commit re-mines only that repository', async () => {
  // Not a terminal (a pipe, as in CI): plain progress lines, here at the test knob's pace.
  const before = await runCli(['org', 'mine', ...names(), '--dir', dir, '--json'], {
    cwd: work,
    env: { REVTRAIL_PROGRESS_EVERY_MS: '1' },
  });
  assert.equal(before.code, 0, before.stderr);
  assert.match(before.stderr, /^org: [123]\/3 repositories \((alpha|beta|gamma)\)$/m);
  assert.doesNotMatch(before.stderr, /\r|\x1b\[/);
  const fileOf = (name: string) => join(dir, `repo=${name}`, 'records.parquet');
  const stamp = (name: string) => {
    const s = statSync(fileOf(name));
    return `${s.ino}:${s.mtimeMs}`;
  };
  const was = { alpha: stamp('alpha'), beta: stamp('beta'), gamma: stamp('gamma') };
  answered(beta.repo, beta.time.next(), NOISY, 'bc', ['REJECT']);
  const run = await runCli(['org', 'mine', ...names(), '--dir', dir, '--json'], { cwd: work });
  assert.equal(run.code, 0, run.stderr);
  const outcomes = (JSON.parse(run.stdout) as { repositories: Array<{ name: string; state: string }> }).repositories;
  assert.deepEqual(
    outcomes.map((o) => [o.name, o.state]),
    [
      ['alpha', 'unchanged'],
      ['beta', 'mined'],
      ['gamma', 'unchanged'],
    ],
  );
  assert.equal(stamp('alpha'), was.alpha);
  assert.equal(stamp('gamma'), was.gamma);
  assert.notEqual(stamp('beta'), was.beta);
  // The new REJECT is in the answer: beta's NOISY findings are 3 now, 2 of them rejected.
  const q = await runCli(
    [
      'org',
      'query',
      `SELECT findings, rejected FROM rules WHERE repository = 'beta' AND rule_source = '${NOISY}'`,
      '--dir',
      dir,
      '--json',
    ],
    { cwd: work },
  );
  assert.equal(q.code, 0, q.stderr);
  assert.deepEqual((JSON.parse(q.stdout) as { rows: unknown[] }).rows, [{ findings: 3, rejected: 2 }]);
});

test('a missing or corrupt repository is named and skipped; the others are still answered (exit 1)', async () => {
  const broken = join(work, 'broken');
  mkdirSync(broken, { recursive: true });
  // A .git file pointing nowhere: git cannot read it as a repository.
  writeFileSync(join(broken, '.git'), 'gitdir: /nonexistent/revtrail-test\n');
  const other = join(work, 'elsewhere');
  const run = await runCli(['org', 'stats', ...names(), `broken=${broken}`, `gone=${other}`, '--dir', dir, '--json'], {
    cwd: work,
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /skipped repository broken: .*broken is not a git repository/);
  assert.match(run.stderr, /skipped repository gone: .*elsewhere does not exist/);
  const stats = JSON.parse(run.stdout) as {
    repositories: string[];
    rules: RuleJson[];
    skipped: Array<{ name: string }>;
  };
  assert.deepEqual(stats.repositories, ['alpha', 'beta', 'gamma']);
  assert.deepEqual(
    stats.skipped.map((s) => s.name),
    ['broken', 'gone'],
  );
  assert.equal(stats.rules.find((r) => r.rule_source === RULE)!.findings, 3);
});

test('org query: a bad statement is one line naming the problem, exit 2', async () => {
  const run = await runCli(['org', 'query', 'SELECT nope FROM records', '--dir', dir], { cwd: work });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /the query failed: .*nope/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});

test('mine --format parquet writes this repository’s partition, and only once for one history', async () => {
  const out = join(work, 'one-repo');
  const first = await runCli(['mine', '--format', 'parquet', '--out', out], { cwd: alpha.repo.dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /with findings, 7 records as Parquet in /);
  const again = await runCli(['mine', '--format', 'parquet', '--out', out], { cwd: alpha.repo.dir });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /unchanged, the Parquet files in .* stand/);
  // Raised and accepted (2 occurrences of one finding), and five answered NOISY findings.
  const q = await runCli(
    ['org', 'query', 'SELECT count(*) AS n, count(DISTINCT id) AS ids FROM records', '--dir', out, '--json'],
    {
      cwd: work,
    },
  );
  assert.deepEqual((JSON.parse(q.stdout) as { rows: unknown[] }).rows, [{ n: 7, ids: 6 }]);
  const revs = await runCli(['mine', '--format', 'parquet', 'HEAD~1'], { cwd: alpha.repo.dir });
  assert.equal(revs.code, 2);
  assert.match(revs.stderr, /not chosen revisions/);
});
