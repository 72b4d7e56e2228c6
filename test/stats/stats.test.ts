import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { makeRepo, runCli, type TestRepo } from '../kit/repo.js';
import { clock, message, row } from '../kit/mine.js';
import { computeStats, flagOf } from '../../lib/stats/compute.js';

const cleanups: Array<() => void> = [];
after(() =>
  cleanups.forEach((c) => {
    c();
  }),
);

const BO = { GIT_AUTHOR_NAME: 'Bo Fixer', GIT_AUTHOR_EMAIL: 'bo@example.com' };

/**
 * noisy:rule  4 REJECT of 8 human verdicts (50%: investigate)
 * good:rule   0 REJECT of 11 (performing well)
 * mid:rule    1 REJECT of 5 (20%: no flag)
 * open:rule   only OPEN (no rate)
 */
function history(): TestRepo {
  const r = makeRepo();
  cleanups.push(() => r.cleanup());
  const t = clock(Date.UTC(2024, 0, 15) / 1000);
  let n = 0;
  const id = () => `rf-${(++n).toString(16).padStart(10, '0')}`;
  const add = (rule: string, verdicts: Array<'ACCEPT' | 'REJECT' | 'DEFER' | 'ACKNOWLEDGE'>, step = 3600) => {
    for (const v of verdicts) {
      const fid = id();
      // Findings of severity bug: a rule of `security` findings is never calibrated unless calibration.security names it.
      const kind = { category: 'correctness', severity: 'bug' } as const;
      r.commit(message('raise', [row({ id: fid, rule_source: rule, ...kind })]), {}, { env: t.next(step) });
      const rationale =
        v === 'REJECT' ? 'False positive: `grep x` shows nothing' : v === 'ACCEPT' ? 'Fixed' : 'Tracked in #1';
      // Answered by two people in turn (n odd: the repository's own author): calibration counts people.
      r.commit(
        message('verdict', [row({ id: fid, rule_source: rule, verdict: v, rationale, ...kind })]),
        {},
        { env: { ...t.next(step), ...(n % 2 ? {} : BO) } },
      );
    }
  };
  add('noisy:rule', ['REJECT', 'REJECT', 'REJECT', 'REJECT', 'ACCEPT', 'ACCEPT', 'DEFER', 'ACKNOWLEDGE']);
  add('good:rule', Array(11).fill('ACCEPT'), 24 * 3600 * 3);
  add('mid:rule', ['REJECT', 'ACCEPT', 'ACCEPT', 'DEFER', 'ACCEPT']);
  r.commit(message('raise', [row({ id: id(), rule_source: 'open:rule' })]), {}, { env: t.next() });
  return r;
}

test('stats --format json: findings (threads) per latest verdict, reject rate over answered threads, flags', async () => {
  const r = history();
  const run = await runCli(['stats', '--format', 'json'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const by = Object.fromEntries(report.rules.map((x: { rule_source: string }) => [x.rule_source, x]));
  assert.deepEqual(Object.keys(by), ['good:rule', 'mid:rule', 'noisy:rule', 'open:rule']);
  const since = by['noisy:rule'].calibrated_since;
  assert.deepEqual(by['noisy:rule'], {
    rule_source: 'noisy:rule',
    findings: 8,
    open: 0,
    counts: { OPEN: 0, ACCEPT: 2, REJECT: 4, DEFER: 1, ACKNOWLEDGE: 1 },
    human_verdicts: 8,
    reject_rate: 0.5,
    flag: 'investigate',
    calibrated: true,
    // Four REJECTs are too few; the fifth verdict (an ACCEPT: 4 of 5) crossed the threshold.
    calibrated_since: { commit: since.commit, date: since.date, finding: 'rf-0000000005', verdict: 'ACCEPT' },
    // Who gave each thread's latest verdict; its REJECTs come from two people (gate.minAuthors 2).
    answered_by: [
      { person: 'ada@example.com', ACCEPT: 1, REJECT: 2, DEFER: 1, ACKNOWLEDGE: 0 },
      { person: 'bo@example.com', ACCEPT: 1, REJECT: 2, DEFER: 0, ACKNOWLEDGE: 1 },
    ],
    rejecting_people: 2,
  });
  assert.match(
    r.git(['log', '-1', '--format=%B', since.commit]),
    /^verdict\n\nReview-Finding: rf-0000000005,.*,ACCEPT,/,
  );
  assert.deepEqual(report.calibration, {
    enabled: true,
    minVerdicts: 5,
    demoteAbove: 0.3,
    security: [],
    minAuthors: 2,
  });
  assert.deepEqual(
    [by['good:rule'].reject_rate, by['good:rule'].flag, by['good:rule'].calibrated],
    [0, 'performing well', false],
  );
  assert.deepEqual([by['mid:rule'].reject_rate, by['mid:rule'].flag, by['mid:rule'].calibrated], [0.2, null, false]);
  assert.deepEqual(
    [by['open:rule'].reject_rate, by['open:rule'].flag, by['open:rule'].human_verdicts],
    [null, null, 0],
  );
  assert.deepEqual(report.total.counts, { OPEN: 1, ACCEPT: 16, REJECT: 5, DEFER: 2, ACKNOWLEDGE: 1 });
  assert.deepEqual([report.total.findings, report.total.open, report.total.human_verdicts], [25, 1, 24]);
  assert.ok(report.timeline.length >= 2);
  assert.equal(
    report.timeline.reduce(
      (n: number, m: { counts: Record<string, number> }) => n + Object.values(m.counts).reduce((a, b) => a + b, 0),
      0,
    ),
    49,
  );
  assert.deepEqual(JSON.parse((await runCli(['stats', '--json'], { cwd: r.dir })).stdout), report);
});

test('stats text and csv', async () => {
  const r = history();
  const text = await runCli(['stats'], { cwd: r.dir });
  assert.match(text.stdout, /^rule_source +findings +OPEN +ACCEPT +REJECT +DEFER +ACKNOWLEDGE +reject rate/);
  assert.match(
    text.stdout,
    /^noisy:rule +8 +0 +2 +4 +1 +1 +50\.0% of 8 +investigate +since ACCEPT rf-0000000005 in [0-9a-f]{12}$/m,
  );
  assert.match(text.stdout, /^good:rule .* 0\.0% of 11 +performing well$/m);
  assert.match(text.stdout, /^open:rule .* -$/m);
  const csv = parse((await runCli(['stats', '--format', 'csv'], { cwd: r.dir })).stdout) as string[][];
  assert.deepEqual(csv[0], [
    'rule_source',
    'findings',
    'open',
    'accept',
    'reject',
    'defer',
    'acknowledge',
    'human_verdicts',
    'reject_rate',
    'flag',
    'calibrated',
    'calibrated_since',
  ]);
  assert.deepEqual(csv[3]!.slice(0, 11), [
    'noisy:rule',
    '8',
    '0',
    '2',
    '4',
    '1',
    '1',
    '8',
    '0.5000',
    'investigate',
    'true',
  ]);
  assert.match(csv[3]![11]!, /^[0-9a-f]{40}$/);
  assert.deepEqual(csv[1]!.slice(10), ['false', '']);
});

test('stats --rule RULE: that rule, each of its findings with its verdict; an unknown rule is an input error naming the rules', async () => {
  const r = history();
  const json = JSON.parse((await runCli(['stats', '--rule', 'mid:rule', '--format', 'json'], { cwd: r.dir })).stdout);
  assert.deepEqual(
    json.rules.map((x: { rule_source: string }) => x.rule_source),
    ['mid:rule'],
  );
  assert.deepEqual([json.total.findings, json.total.counts.REJECT], [5, 1]);
  assert.deepEqual(
    json.threads.map((t: { state: string }) => t.state),
    ['REJECT', 'ACCEPT', 'ACCEPT', 'DEFER', 'ACCEPT'],
  );
  assert.match(json.threads[0].verdict_commit, /^[0-9a-f]{40}$/);
  assert.equal(json.threads[0].rationale, 'False positive: `grep x` shows nothing');
  const text = await runCli(['stats', '--rule', 'mid:rule'], { cwd: r.dir });
  assert.match(text.stdout, /^mid:rule +5 +0 +3 +1 +1 +0 +20\.0% of 5$/m);
  assert.match(text.stdout, /^5 findings of mid:rule, oldest first/m);
  assert.match(
    text.stdout,
    /^ {2}rf-[0-9a-f]{10} +REJECT +src\/a\.ts:1 +[0-9a-f]{12} +False positive: `grep x` shows nothing$/m,
  );
  const unknown = await runCli(['stats', '--rule', 'nope:rule'], { cwd: r.dir });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no finding of rule nope:rule in this history/);
  assert.match(unknown.stderr, /good:rule, mid:rule, noisy:rule, open:rule/);
});

test('stats --html writes one self-contained page with its charts', async () => {
  const r = history();
  const run = await runCli(['stats', '--html', 'report.html'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, `wrote ${join(r.dir, 'report.html')}\n`, 'where the page is, in full');
  assert.equal(run.stdout, '', 'the page, not the table as well');
  const json = await runCli(['stats', '--html', 'report.html', '--format', 'json'], { cwd: r.dir });
  assert.equal(json.code, 0, json.stderr);
  assert.ok(Array.isArray(JSON.parse(json.stdout).rules), 'a data format asked for with it is printed');
  const html = readFileSync(join(r.dir, 'report.html'), 'utf8');
  assert.match(html, /^<!doctype html>/);
  assert.match(html, /Reject rate per rule/);
  assert.match(html, /Findings raised and answered per month/);
  assert.equal((html.match(/<svg class="time"/g) ?? []).length, 1);
  assert.equal((html.match(/<svg class="spark"/g) ?? []).length, 4, 'a trend per rule');
  assert.match(html, /noisy:rule/);
  // Calibration shows beside the rate and in the table, and the rate carries its n.
  assert.match(html, /50\.0% of 8 · investigate · calibrated: not blocking/);
  assert.match(html, /<td>since ACCEPT rf-0000000005 in [0-9a-f]{12}<\/td>/);
  // Who answered each rule, and how many people its REJECTs come from against gate.minAuthors.
  assert.match(
    html,
    /<tr data-rule="noisy:rule"><td>.*?<\/td><td><ul class="people"><li data-person="ada@example\.com">ada@example\.com \(ACCEPT 1, REJECT 2, DEFER 1\)<\/li><li data-person="bo@example\.com">bo@example\.com \(ACCEPT 1, REJECT 2, ACKNOWLEDGE 1\)<\/li><\/ul><\/td><td data-people="2">2 \/ 2<\/td><\/tr>/,
  );
  assert.doesNotMatch(html, /<script|<link|<img|@import|url\(|https?:\/\//i);
});

test('stats on an empty repository: a line, exit 0; thresholds are strict', async () => {
  const r = makeRepo();
  cleanups.push(() => r.cleanup());
  const run = await runCli(['stats'], { cwd: r.dir });
  assert.deepEqual([run.code, run.stdout], [0, 'no Review-Finding trailers in the history\n']);
  assert.deepEqual(
    [flagOf(0.3), flagOf(0.3001), flagOf(0.1), flagOf(0.0999), flagOf(null)],
    [null, 'investigate', null, 'performing well', null],
  );
  assert.deepEqual(computeStats([]).rules, []);
});

test('copies are one finding: a cherry-picked OPEN row after the verdict neither reopens it nor counts again', () => {
  const at = (commit: string, date: string, verdict: 'OPEN' | 'REJECT', rationale = '') => ({
    commit,
    findings: [
      {
        commit,
        date,
        author: 'A <a@x>',
        id: 'rf-00000000f1',
        file: 'a.ts',
        line: '1',
        rule_source: 'x:y',
        category: 'style',
        severity: 'nit',
        issue: 'i',
        verdict,
        rationale,
        placement: 'trailer' as const,
        grammar: 'csv' as const,
      },
    ],
    rejected: [],
    warnings: [],
  });
  // git log order, newest first: a copy of the REJECT (merge), a copy of the OPEN (cherry-pick), the REJECT, the OPEN.
  const report = computeStats([
    at('c4', '2024-03-02T00:00:00Z', 'REJECT', 'see `x`'),
    at('c3', '2024-03-01T00:00:00Z', 'OPEN'),
    at('c2', '2024-02-01T00:00:00Z', 'REJECT', 'see `x`'),
    at('c1', '2024-01-01T00:00:00Z', 'OPEN'),
  ]);
  assert.deepEqual(report.total, {
    findings: 1,
    open: 0,
    counts: { OPEN: 0, ACCEPT: 0, REJECT: 1, DEFER: 0, ACKNOWLEDGE: 0 },
    human_verdicts: 1,
    reject_rate: 1,
  });
  assert.deepEqual(
    report.timeline.map((m) => [m.month, m.counts.OPEN, m.counts.REJECT]),
    [
      ['2024-01', 1, 0],
      ['2024-02', 0, 1],
    ],
  );
});
