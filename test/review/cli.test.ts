/** `revtrail review` end to end: real repositories, the real CLI, real reviewer programs. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, runCli, tempDir, throwawayRepos, type TestRepo } from '../kit/repo.js';
import { formatRow } from '../../lib/record/row.js';
import { findingRow } from '../../lib/report/trailer-rows.js';
import { enqueueVerdict } from '../../lib/verdicts/queue.js';
import { noDrops, type ReviewResult } from '../../lib/review/types.js';
import { sarifProblems } from '../kit/sarif.js';

const newRepo = throwawayRepos();

const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
const program = (name: string) => join(fixturesDir, 'review', name);

/** A repository with the starter bundle of `revtrail init`, committed. */
async function starterRepo(): Promise<TestRepo> {
  const repo = newRepo();
  const init = await runCli(['init'], { cwd: repo.dir });
  assert.equal(init.code, 0, init.stderr);
  repo.commit('Start', { 'README.md': '# app\n', 'src/controllers/.keep': '' });
  return repo;
}

async function reviewJson(
  repo: TestRepo,
  args: string[],
  options: { cwd?: string; input?: string } = {},
): Promise<{ code: number; result: ReviewResult; stderr: string }> {
  const run = await runCli(['review', '--format', 'json', ...args], {
    cwd: options.cwd ?? repo.dir,
    input: options.input,
  });
  assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
  return { code: run.code, result: JSON.parse(run.stdout) as ReviewResult, stderr: run.stderr };
}

const CONTROLLER = [
  // Through a service: the starter ADR's import boundary (src/db/**) has nothing to say here.
  "import { db } from '../services/db.js';",
  '',
  'export async function listUsers(req, res) {',
  '  const rows = await db.query("SELECT id, name FROM users WHERE active = $1", [true]);',
  `  const awsKey = '${AWS}';`,
  '  res.json(rows);',
  '}',
  '',
].join('\n');

describe('revtrail review (done criteria)', () => {
  test('--staged: an ADR rule violation with its citation and a leaked key; exit 1', async () => {
    const repo = await starterRepo();
    repo.write('src/controllers/users.js', CONTROLLER);
    repo.git(['add', '-A']);
    const text = await runCli(['review', '--staged'], { cwd: repo.dir });
    assert.equal(text.code, 1, text.stderr);
    const lines = text.stdout.trim().split('\n');
    // Each finding line ends with its ID (what `revtrail verdict` takes); the rule's message is under it.
    assert.deepEqual(
      lines
        .map((l) => l.replace(/ rf-[0-9a-f]{10}$/, ' rf-ID'))
        .map((l) => (l.startsWith('    An AWS') ? '    An AWS…' : l)),
      [
        'src/controllers/users.js:4 bug Controller queries the database directly (adr-0001:no-db-query) rf-ID',
        '    Move the query into a repository and call it through a service.',
        'src/controllers/users.js:5 security AWS access key ID committed (builtin/secrets:aws-access-key) rf-ID',
        '    An AWS…',
        '',
        '2 findings in 1 file (1 security, 1 bug).',
        'REQUEST_CHANGES',
      ],
    );
    assert.doesNotMatch(text.stdout + text.stderr, /\x1b\[/, 'NO_COLOR and no TTY: no colour');

    const { code, result } = await reviewJson(repo, ['--staged']);
    assert.equal(code, 1);
    assert.equal(result.event, 'REQUEST_CHANGES');
    const adr = result.findings.find((f) => f.rule_source === 'adr-0001:no-db-query')!;
    assert.deepEqual(adr.citations, ['adr-0001']);
    assert.equal(adr.category, 'architecture');
    assert.match(adr.id, /^rf-[0-9a-f]{10}$/);
    assert.deepEqual(result.knowledge_docs, [{ path: 'src/controllers/users.js', piece: 1, documents: ['adr-0001'] }]);
    assert.deepEqual(result.dropped, noDrops());
    assert.deepEqual(result.warnings, []);
  });

  test('the same change with only a nit: COMMENT, exit 0', async () => {
    const repo = await starterRepo();
    repo.write(
      '.okfw/decisions/adr-0001-controllers-do-not-talk-to-the-database.md',
      repo
        .git(['show', 'HEAD:.okfw/decisions/adr-0001-controllers-do-not-talk-to-the-database.md'])
        .replace('severity: bug', 'severity: nit'),
    );
    repo.commit('ADR-0001: direct queries are a nit for now');
    repo.write('src/controllers/users.js', CONTROLLER.replace(`'${AWS}'`, 'process.env.AWS_KEY'));
    repo.git(['add', '-A']);
    const run = await runCli(['review', '--staged'], { cwd: repo.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^src\/controllers\/users\.js:4 nit Controller queries the database directly \(adr-0001:no-db-query\) rf-[0-9a-f]{10}\n {4}Move the query into a repository/m,
    );
    assert.match(run.stdout, /\nCOMMENT\n$/);
  });

  test('--format sarif is valid SARIF 2.1.0 and keeps the exit code', async () => {
    const repo = await starterRepo();
    repo.write('src/controllers/users.js', CONTROLLER);
    repo.git(['add', '-A']);
    const run = await runCli(['review', '--staged', '--format', 'sarif'], { cwd: repo.dir });
    assert.equal(run.code, 1, run.stderr);
    const sarif = JSON.parse(run.stdout);
    assert.deepEqual(sarifProblems(sarif), []);
    const results = sarif.runs[0].results as Array<{
      ruleId: string;
      level: string;
      partialFingerprints: { revtrailFindingId: string };
    }>;
    assert.deepEqual(
      results.map((r) => [r.ruleId, r.level]),
      [
        ['adr-0001:no-db-query', 'error'],
        ['builtin/secrets:aws-access-key', 'error'],
      ],
    );
    assert.match(results[0]!.partialFingerprints.revtrailFindingId, /^rf-[0-9a-f]{10}$/);
    assert.match(sarif.runs[0].tool.driver.version, /^\d+\.\d+\.\d+/);
  });
});

describe('revtrail review (diff sources)', () => {
  test('no changes: APPROVE, exit 0', async () => {
    const repo = await starterRepo();
    const run = await runCli(['review'], { cwd: repo.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'No findings.\nAPPROVE\n');
  });

  test('no changes: the bundle, read while git writes the diff, says nothing; with a change its warning shows', async () => {
    const repo = newRepo();
    repo.commit('Start', { 'revtrail.config.json': '{"knowledge": "nowhere"}\n' });
    const empty = await runCli(['review'], { cwd: repo.dir });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, 'No findings.\nAPPROVE\n');
    assert.equal(empty.stderr, '');
    repo.write('a.js', 'export const a = 1;\n');
    const changed = await runCli(['review'], { cwd: repo.dir });
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stderr, /knowledge bundle nowhere does not exist/);
  });

  test('default: all uncommitted changes against HEAD (staged and not), from a subfolder', async () => {
    const repo = await starterRepo();
    repo.write('src/a.test.js', "it.only('focus', () => {});\n");
    repo.git(['add', '-A']);
    repo.write('src/b.js', 'export function f() {\n  debugger;\n}\n');
    repo.git(['add', '-N', 'src/b.js']);
    const { code, result } = await reviewJson(repo, [], { cwd: join(repo.dir, 'src') });
    assert.equal(code, 1);
    assert.deepEqual(
      result.findings.map((f) => `${f.path}:${f.line} ${f.rule_source}`),
      ['src/a.test.js:1 builtin/tests:focused-test', 'src/b.js:2 builtin/debug:debugger'],
    );
  });

  test('--soft-tests: a focused test alone COMMENTs', async () => {
    const repo = await starterRepo();
    repo.write('src/a.test.js', "it.only('focus', () => {});\n");
    repo.git(['add', '-A']);
    assert.equal((await runCli(['review', '--staged'], { cwd: repo.dir })).code, 1);
    const soft = await runCli(['review', '--staged', '--soft-tests'], { cwd: repo.dir });
    assert.equal(soft.code, 0, soft.stderr);
    assert.match(soft.stdout, /COMMENT\n$/);
  });

  test('--range A..B and A...B; verdicts in the history of B suppress', async () => {
    const repo = await starterRepo();
    const base = repo.git(['rev-parse', 'HEAD']).trim();
    repo.commit('Add helper', { 'src/helper.js': 'export const run = (cmd) => exec(`sh -c ${cmd}`);\n' });
    const first = await reviewJson(repo, ['--range', `${base}..HEAD`]);
    assert.equal(first.code, 1);
    const [f] = first.result.findings;
    assert.equal(f!.rule_source, 'builtin/injection:shell-exec');
    const row = formatRow({
      id: f!.id,
      file: f!.path,
      line: String(f!.line),
      rule_source: f!.rule_source,
      category: f!.category,
      severity: f!.severity,
      issue: f!.title,
      verdict: 'REJECT',
      rationale: 'cmd is a constant: `rg "run(" src` shows one caller with a literal',
    });
    repo.commit('Record verdict', {}, { args: ['-m', `Review-Finding: ${row}`] });
    for (const range of [`${base}..HEAD`, `${base}...HEAD`]) {
      const { code, result } = await reviewJson(repo, ['--range', range]);
      assert.equal(code, 0, range);
      assert.equal(result.event, 'APPROVE');
      assert.deepEqual(
        result.suppressed.map((s) => [s.id, s.verdict]),
        [[f!.id, 'REJECT']],
      );
    }
    // Reviewing up to the commit before the verdict: not suppressed there.
    assert.equal((await reviewJson(repo, ['--range', `${base}..HEAD~1`])).code, 1);
  });

  test('a verdict queued by `revtrail verdict` suppresses before any commit records it; ACCEPT does not', async () => {
    const repo = await starterRepo();
    repo.write('src/a.js', 'export function f() {\n  debugger;\n}\n');
    repo.git(['add', '-A']);
    const before = await reviewJson(repo, ['--staged']);
    const [f] = before.result.findings;
    const commonDir = join(repo.dir, '.git');
    const queue = (verdict: 'ACCEPT' | 'ACKNOWLEDGE', rationale: string) =>
      enqueueVerdict(commonDir, {
        id: f!.id,
        verdict,
        rationale,
        row: findingRow(f!, verdict, rationale)!,
        queuedAt: new Date().toISOString(),
      });
    await queue('ACCEPT', 'fixed by removing it in the next commit');
    assert.equal((await reviewJson(repo, ['--staged'])).code, 1);
    await queue('ACKNOWLEDGE', 'documented intent: DEBUG-7 until 2025-12');
    const after = await reviewJson(repo, ['--staged']);
    assert.equal(after.code, 0);
    assert.deepEqual(
      after.result.suppressed.map((s) => [s.id, s.verdict, s.rationale]),
      [[f!.id, 'ACKNOWLEDGE', 'documented intent: DEBUG-7 until 2025-12']],
    );
    const text = await runCli(['review', '--staged'], { cwd: repo.dir });
    assert.match(
      text.stdout,
      /Suppressed by verdicts \(1\):\n {2}src\/a\.js:2 bug `debugger` statement left in \(builtin\/debug:debugger\) rf-[0-9a-f]{10} \[ACKNOWLEDGE\]/,
    );
    assert.match(text.stdout, /APPROVE\n$/);
  });

  test('--diff FILE and --diff - (stdin); a --diff works outside any repository', async () => {
    const repo = await starterRepo();
    const diff = [
      'diff --git a/src/x.ts b/src/x.ts',
      'index 1111111..2222222 100644',
      '--- a/src/x.ts',
      '+++ b/src/x.ts',
      '@@ -10,2 +10,3 @@ export function f() {',
      '   const a = 1;',
      '+  debugger;',
      '   return a;',
      '',
    ].join('\n');
    const file = join(repo.dir, 'change.diff');
    writeFileSync(file, diff);
    const fromFile = await reviewJson(repo, ['--diff', 'change.diff']);
    assert.deepEqual(
      fromFile.result.findings.map((f) => `${f.path}:${f.line}`),
      ['src/x.ts:11'],
    );
    const fromStdin = await reviewJson(repo, ['--diff', '-'], { input: diff });
    assert.deepEqual(
      fromStdin.result.findings.map((f) => f.id),
      fromFile.result.findings.map((f) => f.id),
    );
    const outside = tempDir();
    try {
      writeFileSync(join(outside, 'c.diff'), diff);
      const run = await runCli(['review', '--diff', 'c.diff'], { cwd: outside });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /src\/x\.ts:11 bug `debugger` statement left in \(builtin\/debug:debugger\)/);
    } finally {
      (await import('node:fs')).rmSync(outside, { recursive: true, force: true });
    }
  });

  test('--knowledge DIR is taken from where the user is', async () => {
    const repo = await starterRepo();
    repo.write('kb/index.md', '- [Rule](r.md)\n');
    repo.write(
      'kb/r.md',
      '---\ntype: Rule\nid: no-todo\npaths: ["**/*.js"]\nrules:\n  - {id: todo, pattern: "TODO", in: comments, severity: nit, category: style, title: TODO left}\n---\nNo TODOs.\n',
    );
    repo.write('src/a.js', '// TODO later\n');
    repo.git(['add', '-A']);
    const { code, result } = await reviewJson(repo, ['--staged', '--knowledge', '../kb'], {
      cwd: join(repo.dir, 'src'),
    });
    assert.equal(code, 0);
    assert.deepEqual(
      result.findings.map((f) => f.rule_source),
      ['no-todo:todo'],
    );
    assert.equal(result.event, 'COMMENT');
  });
});

describe('revtrail review (bad input)', () => {
  test('a binary file and a 5 MB one-line file: reviewed for credentials only, said in dropped and with --verbose, no crash', async () => {
    const repo = await starterRepo();
    repo.write('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3, 0, 255]));
    repo.write('dist/app.js', `${'var a=1;'.repeat(655_360)}debugger;\n`);
    repo.git(['add', '-A']);
    const started = Date.now();
    const { code, result } = await reviewJson(repo, ['--staged']);
    assert.ok(Date.now() - started < 30_000);
    assert.equal(code, 0);
    assert.equal(result.event, 'APPROVE');
    // The binary file is read as text for the credential rules too (docs/review.md "Git's attributes").
    assert.equal(result.dropped.credentials_only, 2);
    const text = await runCli(['review', '--staged', '--verbose'], { cwd: repo.dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stderr,
      /note: dist\/app\.js: minified \(line 1 has 5242889 characters\); only the credential rules ran/,
    );
    assert.match(
      text.stderr,
      /note: assets\/logo\.png: binary to git \(a NUL byte, binary or -diff in git attributes, or over 8 MiB\), read as latin1 text; only the credential rules ran/,
    );
    assert.match(text.stdout, /2 files checked for credentials only/);
  });

  test('a catastrophically backtracking rule pattern on long and short lines: the review finishes', async () => {
    const repo = await starterRepo();
    repo.write('.okfw/index.md', '- [Evil](evil.md)\n');
    repo.write(
      '.okfw/evil.md',
      '---\ntype: Rule\nid: evil\npaths: ["**"]\nrules:\n  - {id: a, pattern: "(?:a{1,16}){2,16}$", flags: i, severity: nit, category: style, title: evil}\n  - {id: b, pattern: "(a+)+$", severity: nit, category: style, title: evil too}\n---\nEvil.\n',
    );
    repo.commit('Evil rule');
    repo.write('src/a.txt', `${'a'.repeat(60)}!\n${'a'.repeat(3990)}!\n`);
    repo.write('src/b.txt', `${'a'.repeat(100_000)}!\n`);
    repo.git(['add', '-A']);
    const started = Date.now();
    const { code, result } = await reviewJson(repo, ['--staged']);
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
    assert.equal(code, 0);
    assert.ok(
      result.warnings.some((w) => /evil:a took over \d+ ms on src\/a\.txt and was skipped/.test(w)),
      result.warnings.join('\n'),
    );
    // The file with a 100,000-character line is minified: only the credential rules read it.
    assert.equal(result.dropped.credentials_only, 1);
  });

  test('usage and input errors exit 2 with one or two lines', async () => {
    const repo = await starterRepo();
    const cases: Array<[string[], RegExp]> = [
      [['--staged', '--range', 'HEAD~1..HEAD'], /use only one of --staged, --range and --diff/],
      [['--min-confidence', '2'], /--min-confidence must be a number from 0 to 1, not "2"/],
      [['--min-confidence', 'high'], /--min-confidence must be a number from 0 to 1/],
      [['--reviewer', 'node "unterminated'], /--reviewer "node "unterminated": unterminated double quote/],
      [['--diff', 'no-such.diff'], /no-such\.diff/],
      [['--format', 'xml'], /Invalid values|xml/],
    ];
    for (const [args, pattern] of cases) {
      const run = await runCli(['review', ...args], { cwd: repo.dir });
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, pattern, args.join(' '));
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(run.stdout, '');
    }
    const notADiff = await runCli(['review', '--diff', '-'], { cwd: repo.dir, input: 'hello, this is not a diff\n' });
    assert.equal(notADiff.code, 2, notADiff.stderr);
  });

  test('--help lists the options', async () => {
    const repo = await starterRepo();
    const run = await runCli(['review', '--help'], { cwd: repo.dir });
    assert.equal(run.code, 0);
    for (const option of [
      '--staged',
      '--range',
      '--diff',
      '--knowledge',
      '--format',
      '--reviewer',
      '--soft-tests',
      '--min-confidence',
    ])
      assert.ok(run.stdout.includes(option), option);
  });
});

describe('revtrail review (reviewer programs)', () => {
  async function changed(): Promise<TestRepo> {
    const repo = await starterRepo();
    repo.write('src/controllers/users.js', 'export const users = [];\n');
    repo.git(['add', '-A']);
    return repo;
  }

  test('--reviewer CMD (split without a shell): its cited finding counts', async () => {
    const repo = await changed();
    const { code, result } = await reviewJson(repo, [
      '--staged',
      '--reviewer',
      `${program('good.mjs')} --summary 'Small remark.'`,
    ]);
    assert.equal(code, 0);
    assert.equal(result.event, 'COMMENT');
    assert.deepEqual(
      result.findings.map((f) => [f.rule_source, f.citations]),
      [['reviewer:architecture', ['adr-0001']]],
    );
    assert.match(result.summary, /Small remark\./);
  });

  test('--min-confidence 1 drops the reviewer finding (confidence 0.9) and counts it', async () => {
    const repo = await changed();
    const { code, result } = await reviewJson(repo, [
      '--staged',
      '--min-confidence',
      '1',
      '--reviewer',
      program('good.mjs'),
    ]);
    assert.equal(code, 0);
    assert.equal(result.event, 'APPROVE');
    assert.equal(result.dropped.low_confidence, 1);
  });

  test('a missing or not executable program: a warning, the review goes on', async () => {
    const repo = await changed();
    repo.write('tools/review.mjs', '#!/usr/bin/env node\n');
    for (const [cmd, pattern] of [
      ['./no-such-reviewer --x', /reviewer program .*no-such-reviewer --x was not found/],
      ['tools/review.mjs', /is not executable/],
    ] as const) {
      const run = await runCli(['review', '--staged', '--reviewer', cmd], { cwd: repo.dir });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, pattern);
      assert.match(run.stdout, /APPROVE\n$/);
    }
  });

  test('reviewer.required in the config: a crashing program is an error, exit 2', async () => {
    const repo = await changed();
    repo.write(
      'revtrail.config.json',
      JSON.stringify({ reviewer: { command: [program('crash.mjs')], required: true, timeoutMs: 5000 } }),
    );
    assert.equal((await runCli(['trust'], { cwd: repo.dir })).code, 0);
    const run = await runCli(['review', '--staged'], { cwd: repo.dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /is required \(reviewer\.required\) and did not answer/);
    assert.match(run.stderr, /exit 3: TypeError: cannot read the model file/);
  });

  test('reviewer.timeoutMs from the config ends a hanging program', async () => {
    const repo = await changed();
    repo.write(
      'revtrail.config.json',
      JSON.stringify({ reviewer: { command: [program('hang.mjs')], timeoutMs: 500 } }),
    );
    assert.equal((await runCli(['trust'], { cwd: repo.dir })).code, 0);
    const started = Date.now();
    const run = await runCli(['review', '--staged'], { cwd: repo.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - started < 10_000);
    assert.match(run.stderr, /timed out on src\/controllers\/users\.js \(500 ms\)/);
  });
});
