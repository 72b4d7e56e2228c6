/**
 * Calibration over real histories (docs/gate.md "Calibration"): hand-written Review-Finding
 * trailers make a rule's record, then a real push through the installed pre-push hook to a local
 * bare remote (and `review`, the commit-msg hook) shows which rules still block.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestRepo } from '../kit/repo.js';
import { message, row } from '../kit/mine.js';
import { AWS_KEY, DEBUGGER_LINE, addRemote, installedRepo, type HookRepo } from '../kit/hooks.js';
import type { HumanVerdict } from '../../lib/core/vocabulary.js';

const cleanups: Array<{ cleanup(): void }> = [];
after(() =>
  cleanups.forEach((c) => {
    c.cleanup();
  }),
);

const DEBUGGER = 'builtin/debug:debugger';
const SQL = 'builtin/injection:sql-concat';
const AWS = 'builtin/secrets:aws-access-key';
const SQL_LINE = `export const q = (id) => db.query("SELECT * FROM orders WHERE id = '" + id + "'");`;
const RATIONALE: Record<HumanVerdict, string> = {
  REJECT: 'false positive: `grep -n debugger src` shows only test fixtures',
  ACCEPT: 'fixed in the same change',
  DEFER: 'tracked in #12',
  ACKNOWLEDGE: 'documented intent, see README',
};

const ADA = { GIT_AUTHOR_NAME: 'Ada Tester', GIT_AUTHOR_EMAIL: 'ada@example.com' };
const BO = { GIT_AUTHOR_NAME: 'Bo Fixer', GIT_AUTHOR_EMAIL: 'bo@example.com' };

let ids = 0;
/**
 * Commits (no hooks) that raise a finding of `rule` per verdict and answer each: the rule's
 * record; returns the last. Answered by two people in turn (`by` one of them alone): a demotion
 * needs REJECTs from gate.minAuthors (2) people (docs/gate.md "Calibration").
 */
function record(r: TestRepo, rule: string, verdicts: readonly HumanVerdict[], by?: NodeJS.ProcessEnv): string {
  let last = '';
  for (const verdict of verdicts) {
    const id = `rf-${(++ids).toString(16).padStart(10, 'c')}`;
    // Each rule's record carries its own severity: a `security` rule is never demoted unless calibration.security names it.
    const severity =
      rule === DEBUGGER
        ? ({ category: 'correctness', severity: 'bug' } as const)
        : ({ category: 'security', severity: 'security' } as const);
    const base = { id, rule_source: rule, file: 'src/old.js', issue: 'earlier finding', ...severity };
    last = r.commit(
      message(`chore: answers for ${rule}`, [row(base), row({ ...base, verdict, rationale: RATIONALE[verdict] })]),
      {},
      { args: ['--no-verify'], env: by ?? (ids % 2 ? ADA : BO) },
    );
  }
  return last;
}

async function historyRepo(): Promise<HookRepo> {
  const r = await installedRepo();
  cleanups.push(r, addRemote(r));
  return r;
}

/** A branch off main with `files` committed (no hooks), pushed for real through the pre-push hook. */
async function pushBranch(r: HookRepo, branch: string, files: Record<string, string>) {
  r.git(['checkout', '-q', '-B', branch, 'main']);
  r.commit(`feat: ${branch}`, files, { args: ['--no-verify'] });
  const push = await r.run(['push', 'origin', branch]);
  r.git(['checkout', '-q', 'main']);
  return push;
}

const blockedSection = (stderr: string) => stderr.slice(stderr.indexOf('revtrail: push blocked'));
const notBlocking = (rejected: number, verdicts: number, rule: string) =>
  `not blocking: ${rejected} of ${verdicts} answered findings of this rule were rejected in this history (revtrail stats --rule ${rule})`;

// One history for most cases: debugger 5 REJECT of 6 answered, sql-concat 0 of 6, the AWS key rule 6 of 6.
let shared: Promise<HookRepo> | undefined;
function sharedRepo(): Promise<HookRepo> {
  shared ??= (async () => {
    const r = await historyRepo();
    record(r, DEBUGGER, ['REJECT', 'REJECT', 'ACCEPT', 'REJECT', 'REJECT', 'REJECT']);
    record(r, SQL, ['ACCEPT', 'ACCEPT', 'ACCEPT', 'ACCEPT', 'ACCEPT', 'DEFER']);
    record(r, AWS, Array(6).fill('REJECT'));
    assert.equal((await r.run(['push', '-q', '--no-verify', 'origin', 'main'])).code, 0);
    return r;
  })();
  return shared;
}

test('a rule with 5 REJECT of 6 answered findings does not block a push; a rule with 0 of 6 does', async () => {
  const r = await sharedRepo();
  const push = await pushBranch(r, 'both', { 'src/a.js': `${DEBUGGER_LINE}\n`, 'src/q.js': `${SQL_LINE}\n` });
  assert.equal(push.code, 1, push.stderr);
  const blocked = blockedSection(push.stderr);
  assert.match(blocked, /revtrail: push blocked: 1 blocking finding\b/);
  assert.match(blocked, /src\/q\.js:1 security SQL built by concatenation .*\(builtin\/injection:sql-concat\) rf-/);
  assert.doesNotMatch(blocked, /builtin\/debug:debugger/);
  // The demoted finding is still named, with why it does not block and the command that shows the answers.
  assert.match(
    push.stderr,
    /refs\/heads\/both: 1 finding of rules calibrated by history, not blocking:\n {2}src\/a\.js:1 bug `debugger` statement left in \(builtin\/debug:debugger\) rf-[0-9a-f]{10}\n/,
  );
  assert.ok(push.stderr.includes(notBlocking(5, 6, DEBUGGER)), push.stderr);

  // Without the SQL line the push goes through, the debugger finding noted.
  r.git(['checkout', '-q', 'both']);
  r.git(['rm', '-q', 'src/q.js']);
  r.commit('fix: no sql', {}, { args: ['--no-verify'] });
  const through = await r.run(['push', 'origin', 'both']);
  r.git(['checkout', '-q', 'main']);
  assert.equal(through.code, 0, through.stderr);
  assert.match(through.stderr, /refs\/heads\/both: COMMENT: 1 non-blocking finding/);
  assert.ok(through.stderr.includes(notBlocking(5, 6, DEBUGGER)), through.stderr);
  // `stats --rule` is the one command that shows those answers.
  const stats = await r.cli(['stats', '--rule', DEBUGGER]);
  assert.equal(stats.code, 0, stats.stderr);
  assert.equal(
    (stats.stdout.match(/^ {2}rf-c+[0-9a-f]+ +REJECT +src\/old\.js:1 +[0-9a-f]{12} +false positive/gm) ?? []).length,
    5,
    stats.stdout,
  );
});

test('a credential rule with a high reject rate still blocks', async () => {
  const r = await sharedRepo();
  const push = await pushBranch(r, 'key', { 'config.js': `const key = "${AWS_KEY}";\n` });
  assert.equal(push.code, 1, push.stderr);
  assert.match(
    blockedSection(push.stderr),
    /config\.js:1 security AWS access key ID committed \(builtin\/secrets:aws-access-key\) rf-/,
  );
  assert.doesNotMatch(push.stderr, /not blocking/);
  const stats = JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout);
  const aws = stats.rules.find((x: { rule_source: string }) => x.rule_source === AWS);
  assert.deepEqual([aws.reject_rate, aws.human_verdicts, aws.calibrated, aws.calibrated_since], [1, 6, false, null]);
  assert.match(
    (await r.cli(['stats'])).stdout,
    /^builtin\/secrets:aws-access-key .* 100\.0% of 6 +investigate +never \(credential or security rule\)$/m,
  );
});

test('--no-calibration and calibration.enabled: false restore blocking', async () => {
  const r = await sharedRepo();
  r.git(['checkout', '-q', '-B', 'off', 'main']);
  r.commit('feat: off', { 'src/b.js': `${DEBUGGER_LINE}\n` }, { args: ['--no-verify'] });
  try {
    const calibrated = await r.cli(['review', '--range', 'main..off']);
    assert.equal(calibrated.code, 0, calibrated.stdout + calibrated.stderr);
    assert.match(calibrated.stdout, /^COMMENT$/m);
    assert.ok(calibrated.stdout.includes(`  ${notBlocking(5, 6, DEBUGGER)}`), calibrated.stdout);
    const off = await r.cli(['review', '--range', 'main..off', '--no-calibration']);
    assert.equal(off.code, 1, off.stdout);
    assert.match(off.stdout, /^REQUEST_CHANGES$/m);
    assert.doesNotMatch(off.stdout, /not blocking/);

    writeFileSync(join(r.dir, 'revtrail.config.json'), JSON.stringify({ calibration: { enabled: false } }));
    const push = await r.run(['push', 'origin', 'off']);
    assert.equal(push.code, 1, push.stderr);
    assert.match(
      blockedSection(push.stderr),
      /src\/b\.js:1 bug `debugger` statement left in \(builtin\/debug:debugger\)/,
    );
    const json = JSON.parse((await r.cli(['review', '--range', 'main..off', '--format', 'json'])).stdout);
    assert.equal(json.event, 'REQUEST_CHANGES');
    assert.equal(json.findings[0].calibration, undefined);
  } finally {
    rmSync(join(r.dir, 'revtrail.config.json'), { force: true });
    r.git(['checkout', '-q', 'main']);
  }
});

test('the numbers the review calibrates with equal stats --format json for the same history; JSON and SARIF carry them', async () => {
  const r = await sharedRepo();
  r.git(['checkout', '-q', '-B', 'numbers', 'main']);
  r.commit('feat: numbers', { 'src/c.js': `${DEBUGGER_LINE}\n` }, { args: ['--no-verify'] });
  try {
    const stats = JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout);
    const rule = stats.rules.find((x: { rule_source: string }) => x.rule_source === DEBUGGER);
    const json = JSON.parse((await r.cli(['review', '--range', 'main..numbers', '--format', 'json'])).stdout);
    assert.equal(json.event, 'COMMENT');
    const [finding] = json.findings;
    assert.deepEqual(finding.calibration, {
      rejected: rule.counts.REJECT,
      verdicts: rule.human_verdicts,
      rate: rule.reject_rate,
    });
    assert.deepEqual(finding.calibration, { rejected: 5, verdicts: 6, rate: 5 / 6 });
    assert.equal(rule.calibrated, true);
    const sarif = JSON.parse((await r.cli(['review', '--range', 'main..numbers', '--format', 'sarif'])).stdout);
    const [result] = sarif.runs[0].results;
    // A calibrated finding keeps its severity's level (bug: error); the calibration is in its properties.
    assert.equal(result.level, 'error');
    assert.deepEqual(result.properties.calibration, { rejected: 5, verdicts: 6, rate: 5 / 6 });
    assert.equal(sarif.runs[0].properties.event, 'COMMENT');
    // candidates --explain shows the same numbers.
    const explained = JSON.parse((await r.cli(['candidates', '--explain', DEBUGGER, '--json'])).stdout);
    assert.deepEqual(
      [
        explained.calibration.rejected,
        explained.calibration.verdicts,
        explained.calibration.calibrated,
        explained.calibration.rejecting_people,
      ],
      [5, 6, true, 2],
    );
    assert.equal(explained.calibration.since.commit, rule.calibrated_since.commit);
    assert.match(
      (await r.cli(['candidates', '--explain', DEBUGGER])).stdout,
      /^calibration: not blocking: 5 of 6 answered findings were rejected; since REJECT rf-c+[0-9a-f]+ in [0-9a-f]{12}$/m,
    );
  } finally {
    r.git(['checkout', '-q', 'main']);
  }
});

test('the commit-msg hook: a demoted rule neither blocks (commitMsg.block) nor goes unsaid; it is still recorded', async () => {
  const r = await sharedRepo();
  r.git(['checkout', '-q', '-B', 'local', 'main']);
  writeFileSync(join(r.dir, 'revtrail.config.json'), JSON.stringify({ commitMsg: { block: true } }));
  try {
    r.write('src/d.js', `${DEBUGGER_LINE}\n`);
    r.git(['add', 'src/d.js']);
    const commit = await r.run(['commit', '-m', 'feat: d']);
    assert.equal(commit.code, 0, commit.stderr);
    assert.match(commit.stderr, /revtrail: COMMENT: 1 finding, 1 recorded/);
    assert.ok(commit.stderr.includes(`    ${notBlocking(5, 6, DEBUGGER)}`), commit.stderr);
    assert.match(r.trailers()[0]!, /^rf-[0-9a-f]{10},src\/d\.js,1,builtin\/debug:debugger,correctness,bug,.*,OPEN,$/);
    // The rule with 0 of 6 rejected still aborts the commit.
    r.write('src/q.js', `${SQL_LINE}\n`);
    r.git(['add', 'src/q.js']);
    const blocked = await r.run(['commit', '-m', 'feat: q']);
    assert.equal(blocked.code, 1, blocked.stderr);
    assert.match(blocked.stderr, /commit aborted \(commitMsg\.block\): 1 blocking finding/);
  } finally {
    rmSync(join(r.dir, 'revtrail.config.json'), { force: true });
    r.git(['reset', '-q', '--hard']);
    r.git(['checkout', '-q', 'main']);
  }
});

test('threshold edges: n = minVerdicts - 1 blocks, a rate exactly at demoteAbove blocks, just above does not; since names the verdict', async () => {
  const r = await historyRepo();
  // debugger: 3 REJECT of 10 answered = 0.3, exactly the default demoteAbove. sql-concat: 4 of 4, one short of minVerdicts 5.
  record(r, DEBUGGER, [
    'REJECT',
    'ACCEPT',
    'ACCEPT',
    'REJECT',
    'ACCEPT',
    'ACCEPT',
    'ACCEPT',
    'REJECT',
    'ACCEPT',
    'ACCEPT',
  ]);
  record(r, SQL, ['REJECT', 'REJECT', 'REJECT', 'REJECT']);
  assert.equal((await r.run(['push', '-q', '--no-verify', 'origin', 'main'])).code, 0);
  const files = { 'src/a.js': `${DEBUGGER_LINE}\n`, 'src/q.js': `${SQL_LINE}\n` };
  const at = await pushBranch(r, 'at', files);
  assert.equal(at.code, 1, at.stderr);
  assert.match(blockedSection(at.stderr), /push blocked: 2 blocking findings/);
  assert.match(blockedSection(at.stderr), /\(builtin\/debug:debugger\)/);
  assert.match(blockedSection(at.stderr), /\(builtin\/injection:sql-concat\)/);
  assert.doesNotMatch(at.stderr, /not blocking/);

  // One more REJECT each: debugger 4 of 11 (just above 0.3), sql-concat 5 of 5 (n reaches minVerdicts).
  const debuggerCrossed = record(r, DEBUGGER, ['REJECT']);
  const sqlCrossed = record(r, SQL, ['REJECT']);
  // sql-concat's findings are `security`: above the threshold, it still blocks until calibration.security names it.
  const above = await pushBranch(r, 'above', files);
  assert.equal(above.code, 1, above.stderr);
  assert.ok(above.stderr.includes(notBlocking(4, 11, DEBUGGER)), above.stderr);
  assert.match(
    blockedSection(above.stderr),
    /push blocked: 1 blocking finding\b[\s\S]*src\/q\.js:1 security SQL built by concatenation .*\(builtin\/injection:sql-concat\)/,
  );
  assert.doesNotMatch(above.stderr, new RegExp(notBlocking(5, 5, SQL).replace(/[()]/g, '\\$&')));
  assert.equal(
    JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout).rules.find(
      (x: { rule_source: string }) => x.rule_source === SQL,
    ).calibrated,
    false,
  );
  writeFileSync(join(r.dir, 'revtrail.config.json'), JSON.stringify({ calibration: { security: [SQL] } }));
  const named = await r.run(['push', 'origin', 'above']);
  assert.equal(named.code, 0, named.stderr);
  assert.ok(named.stderr.includes(notBlocking(4, 11, DEBUGGER)), named.stderr);
  assert.ok(named.stderr.includes(notBlocking(5, 5, SQL)), named.stderr);
  const stats = JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout);
  rmSync(join(r.dir, 'revtrail.config.json'));
  const by = Object.fromEntries(stats.rules.map((x: { rule_source: string }) => [x.rule_source, x]));
  assert.deepEqual(
    [by[DEBUGGER].calibrated_since.commit, by[DEBUGGER].calibrated_since.verdict],
    [debuggerCrossed, 'REJECT'],
  );
  assert.deepEqual([by[SQL].calibrated_since.commit, by[SQL].calibrated_since.verdict], [sqlCrossed, 'REJECT']);

  // The same edges through the configuration: minVerdicts 6 puts sql-concat's 5 one short again.
  writeFileSync(
    join(r.dir, 'revtrail.config.json'),
    JSON.stringify({ calibration: { minVerdicts: 6, demoteAbove: 4 / 11 } }),
  );
  try {
    const json = JSON.parse((await r.cli(['review', '--range', 'main..above', '--format', 'json'])).stdout);
    assert.equal(json.event, 'REQUEST_CHANGES');
    assert.deepEqual(
      json.findings.map((f: { rule_source: string; calibration?: unknown }) => [f.rule_source, f.calibration ?? null]),
      [
        [DEBUGGER, null], // 4 of 11 is not above 4/11
        [SQL, null], // 5 verdicts < 6
      ],
    );
  } finally {
    rmSync(join(r.dir, 'revtrail.config.json'), { force: true });
  }
});

test("agreement: one person's REJECTs, however many, never demote a rule when gate.minAuthors is 2; a second person's do, and stats --json names both", async () => {
  const r = await historyRepo();
  // Seven findings of the debugger rule, every one REJECTed by Ada alone: 7 of 7.
  record(r, DEBUGGER, Array(7).fill('REJECT'), ADA);
  assert.equal((await r.run(['push', '-q', '--no-verify', 'origin', 'main'])).code, 0);
  const files = { 'src/a.js': `${DEBUGGER_LINE}\n` };
  const alone = await pushBranch(r, 'alone', files);
  assert.equal(alone.code, 1, alone.stderr);
  assert.match(
    blockedSection(alone.stderr),
    /src\/a\.js:1 bug `debugger` statement left in \(builtin\/debug:debugger\)/,
  );
  assert.doesNotMatch(alone.stderr, /not blocking/);
  const local = JSON.parse((await r.cli(['review', '--range', 'main..alone', '--format', 'json'])).stdout);
  assert.equal(local.event, 'REQUEST_CHANGES');
  assert.equal(local.findings[0].calibration, undefined);
  const one = JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout);
  const ruleOf = (stats: { rules: Array<{ rule_source: string }> }) =>
    stats.rules.find((x) => x.rule_source === DEBUGGER) as unknown as Record<string, unknown>;
  assert.deepEqual(
    [ruleOf(one).calibrated, ruleOf(one).rejecting_people, ruleOf(one).answered_by],
    [false, 1, [{ person: 'ada@example.com', ACCEPT: 0, REJECT: 7, DEFER: 0, ACKNOWLEDGE: 0 }]],
  );
  assert.equal(one.calibration.minAuthors, 2);
  assert.match(
    (await r.cli(['stats'])).stdout,
    /^builtin\/debug:debugger .* 100\.0% of 7 +investigate +not yet: REJECTs from 1 person, needs 2 \(gate\.minAuthors\)$/m,
  );

  // A second person agrees: one REJECT by Bo demotes the rule, in the push and the local review alike.
  const agreed = record(r, DEBUGGER, ['REJECT'], BO);
  assert.equal((await r.run(['push', '-q', '--no-verify', 'origin', 'main'])).code, 0);
  const two = await pushBranch(r, 'two', files);
  assert.equal(two.code, 0, two.stderr);
  assert.ok(two.stderr.includes(notBlocking(8, 8, DEBUGGER)), two.stderr);
  const review = JSON.parse((await r.cli(['review', '--range', 'main..two', '--format', 'json'])).stdout);
  assert.deepEqual(review.findings[0].calibration, { rejected: 8, verdicts: 8, rate: 1 });
  const both = ruleOf(JSON.parse((await r.cli(['stats', '--format', 'json'])).stdout));
  assert.deepEqual(
    [both.calibrated, both.rejecting_people, both.answered_by, (both.calibrated_since as { commit: string }).commit],
    [
      true,
      2,
      [
        { person: 'ada@example.com', ACCEPT: 0, REJECT: 7, DEFER: 0, ACKNOWLEDGE: 0 },
        { person: 'bo@example.com', ACCEPT: 0, REJECT: 1, DEFER: 0, ACKNOWLEDGE: 0 },
      ],
      agreed,
    ],
  );
  assert.match(
    (await r.cli(['stats'])).stdout,
    /^ {2}builtin\/debug:debugger: ada@example\.com \(REJECT 7\), bo@example\.com \(REJECT 1\); REJECTs from 2 people \(gate\.minAuthors 2\)$/m,
  );
});
