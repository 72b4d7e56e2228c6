import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { cliPath, throwawayRepos, runCli, tempDir, testEnv, type TestRepo } from '../kit/repo.js';
import { formatRow } from '../../lib/record/row.js';
import { FINDING_KEYS, clock, lines, message, parseJsonl, row, trailer } from '../kit/mine.js';

const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups) c();
});
const repo = throwawayRepos();

/** A small history: an OPEN finding, its ACCEPT, a REJECT of another, on a dated clock. */
function history(r: TestRepo) {
  const t = clock();
  const a = r.commit(
    message('add query', [row({ id: 'rf-000000000a', file: 'src/a.ts', line: '2' })]),
    { 'src/a.ts': lines(3) },
    { env: t.next() },
  );
  const b = r.commit(
    message(
      'fix query',
      [
        row({
          id: 'rf-000000000a',
          file: 'src/a.ts',
          line: '2',
          verdict: 'ACCEPT',
          rationale: 'Parameterized, see `db.query(sql, args)`',
        }),
      ],
      ['Signed-off-by: Ada <ada@example.com>'],
    ),
    { 'src/a.ts': lines(4) },
    { env: t.next() },
  );
  const c = r.commit(
    message('other', [
      row({
        id: 'rf-000000000b',
        file: 'src/b.ts',
        verdict: 'REJECT',
        rationale: 'False positive: `grep -n sql src/b.ts` shows a constant',
      }),
    ]),
    { 'src/b.ts': 'x\n' },
    { env: t.next() },
  );
  return { a, b, c, t };
}

test('mine: one JSONL record per occurrence, newest first, with exactly the documented fields', async () => {
  const r = repo();
  const { a, b, c } = history(r);
  const run = await runCli(['mine'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  const records = parseJsonl(run.stdout);
  assert.deepEqual(
    records.map((x) => [x.commit, x.id, x.verdict]),
    [
      [c, 'rf-000000000b', 'REJECT'],
      [b, 'rf-000000000a', 'ACCEPT'],
      [a, 'rf-000000000a', 'OPEN'],
    ],
  );
  for (const x of records) assert.deepEqual(Object.keys(x), FINDING_KEYS);
  assert.deepEqual(records[1], {
    commit: b,
    date: '2024-01-01T00:02:00+00:00',
    author: 'Ada Tester <ada@example.com>',
    id: 'rf-000000000a',
    file: 'src/a.ts',
    line: '2',
    rule_source: 'builtin/sql:concat',
    category: 'security',
    severity: 'security',
    issue: 'SQL built by concatenation',
    verdict: 'ACCEPT',
    rationale: 'Parameterized, see `db.query(sql, args)`',
    placement: 'trailer',
    grammar: 'csv',
  });
  assert.equal(run.stderr, '');
});

test('mine works from a subfolder and takes revision arguments and --all', async () => {
  const r = repo();
  const { a, b } = history(r);
  r.git(['branch', 'side', a]);
  r.git(['checkout', '-q', 'side']);
  const s = r.commit(
    message('side work', [row({ id: 'rf-000000000c' })]),
    { 'sub/dir/x.ts': 'x\n' },
    { env: clock(Date.UTC(2024, 1, 1) / 1000).next() },
  );
  r.git(['checkout', '-q', 'main']);
  const range = await runCli(['mine', `${a}..${b}`], { cwd: join(r.dir, 'src') });
  assert.deepEqual(
    parseJsonl(range.stdout).map((x) => x.commit),
    [b],
  );
  const all = await runCli(['mine', '--all'], { cwd: r.dir });
  assert.ok(parseJsonl(all.stdout).some((x) => x.commit === s));
  const head = await runCli(['mine'], { cwd: r.dir });
  assert.ok(!parseJsonl(head.stdout).some((x) => x.commit === s));
  const side = await runCli(['mine', 'side'], { cwd: r.dir });
  assert.deepEqual(
    parseJsonl(side.stdout).map((x) => x.commit),
    [s, a],
  );
});

test("a bad revision is a usage error naming git's complaint (exit 2, no stack)", async () => {
  const r = repo();
  history(r);
  const run = await runCli(['mine', 'no-such-branch'], { cwd: r.dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /revtrail: git log cannot read the revisions: .*no-such-branch/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});

test('an empty repository mines nothing and exits 0, in every format', async () => {
  const r = repo();
  for (const [format, expected] of [
    ['jsonl', ''],
    ['csv', 'date,file,line,rule_source,category,severity,issue,verdict,rationale\n'],
  ] as const) {
    const run = await runCli(['mine', '--format', format], { cwd: r.dir });
    assert.deepEqual([run.code, run.stdout], [0, expected]);
  }
  const json = await runCli(['mine', '--format', 'json'], { cwd: r.dir });
  assert.deepEqual(JSON.parse(json.stdout), { records: [], rejected: [], warnings: [] });
  const all = await runCli(['mine', '--all'], { cwd: r.dir });
  assert.deepEqual([all.code, all.stdout], [0, '']);
});

test('bad rows are rejected records, mining goes on; body placement warns; continuation lines unfold', async () => {
  const r = repo();
  const good = formatRow(row({ id: 'rf-00000000d1', issue: 'Long issue that git folds' }));
  const at = good.indexOf(' that');
  const folded = `Review-Finding: ${good.slice(0, at)}\n  ${good.slice(at + 1)}`;
  const fields = formatRow(row({ id: 'rf-00000000d2' })).split(',');
  const msg = [
    'mixed',
    '',
    'Findings written by hand above the sign-off:',
    trailer(row({ id: 'rf-00000000d3' })),
    '',
    'Signed-off-by: Ada <ada@example.com>',
    folded,
    `Review-Finding: ${fields.slice(0, 8).join(',')}`,
    `Review-Finding: ${[...fields, 'x'].join(',')}`,
    'Review-Finding: rf-00000000d4,src/a.ts,1,x:y,style,nit,"unterminated,OPEN,',
    'Review-Finding: security HIGH - src/a.ts:3 hyphen instead of the em dash',
    'Review-Finding: security HIGH \u2014 src/a.ts:3 input reaches the query',
    '',
  ].join('\n');
  const sha = r.commit(msg);
  // git itself sees the block's findings (so they are placement trailer), not the paragraph above.
  const gitView = r.git(['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly,unfold)']);
  assert.match(gitView, /Long issue that git folds/);
  const run = await runCli(['mine'], { cwd: r.dir });
  assert.equal(run.code, 0);
  const records = parseJsonl(run.stdout);
  const findings = records.filter((x) => x.type === undefined);
  assert.deepEqual(
    findings.map((f) => [f.id, f.placement, f.grammar]),
    [
      ['rf-00000000d3', 'body', 'csv'],
      ['rf-00000000d1', 'trailer', 'csv'],
      [findings[2]!.id, 'trailer', 'adr-0029'],
    ],
  );
  assert.equal(findings[1]!.issue, 'Long issue that git folds');
  assert.deepEqual(
    [
      findings[2]!.rule_source,
      findings[2]!.severity,
      findings[2]!.raw_severity,
      findings[2]!.file,
      findings[2]!.line,
      findings[2]!.verdict,
    ],
    ['adr-0029/security:high', 'security', 'HIGH', 'src/a.ts', '3', 'OPEN'],
  );
  const rejected = records.filter((x) => x.type === 'rejected');
  assert.deepEqual(
    rejected.map((x) => [x.commit, String(x.reason).split(' (')[0]]),
    [
      [sha, '8 fields, expected 9'],
      [sha, '10 fields, expected 9'],
      [sha, 'not a CSV record: Quote Not Closed: the parsing is finished with an opening quote at line 1'],
      [sha, 'adr-0029 finding needs " \u2014 "'],
    ],
  );
  assert.match(String(rejected[3]!.reason), /space, em dash U\+2014, space/);
  for (const x of rejected) assert.deepEqual(Object.keys(x), ['type', 'commit', 'raw', 'reason']);
  assert.match(run.stderr, /warning: [0-9a-f]{12}: Review-Finding rf-00000000d3 is in the message body/);
  assert.match(run.stderr, /Review-Finding line not read: 8 fields, expected 9/);
  // A cached re-run (copied from the cache) reports the same warnings and output.
  const again = await runCli(['mine'], { cwd: r.dir });
  assert.deepEqual([again.stdout, again.stderr], [run.stdout, run.stderr]);
  const json = JSON.parse((await runCli(['mine', '--format', 'json'], { cwd: r.dir })).stdout);
  assert.deepEqual(Object.keys(json), ['records', 'rejected', 'warnings']);
  assert.deepEqual([json.records.length, json.rejected.length, json.warnings.length], [3, 4, 1]);
  assert.equal(json.warnings[0].id, 'rf-00000000d3');
});

test('CSV: exactly the feedback-log header, one row per human verdict; OPEN rows only with --include-open', async () => {
  const r = repo();
  history(r);
  const run = await runCli(['mine', '--format', 'csv'], { cwd: r.dir });
  const [header, ...rest] = run.stdout.split('\n');
  assert.equal(header, 'date,file,line,rule_source,category,severity,issue,verdict,rationale');
  const rows = parse(run.stdout, { columns: false }) as string[][];
  assert.ok(rows.every((x) => x.length === 9));
  assert.deepEqual(
    rows.slice(1).map((x) => [x[0], x[7]]),
    [
      ['2024-01-01', 'REJECT'],
      ['2024-01-01', 'ACCEPT'],
    ],
  );
  assert.equal(rows[2]![8], 'Parameterized, see `db.query(sql, args)`');
  assert.ok(rest.length >= 2);
  const open = parse(
    (await runCli(['mine', '--format', 'csv', '--include-open'], { cwd: r.dir })).stdout,
  ) as string[][];
  assert.deepEqual(
    open.slice(1).map((x) => x[7]),
    ['REJECT', 'ACCEPT', 'OPEN'],
  );
});

test('--redact and privacy.redactAuthors: REDACTED and a stable pseudonym of the address; --out writes a file', async () => {
  const r = repo();
  history(r);
  const pseudonym = 'p-' + createHash('sha256').update('ada@example.com').digest('hex').slice(0, 8);
  const run = await runCli(['mine', '--redact'], { cwd: r.dir });
  const records = parseJsonl(run.stdout);
  assert.ok(records.every((x) => x.author === `REDACTED <${pseudonym}>`));
  assert.doesNotMatch(run.stdout, /Ada|ada@example/);
  r.write('revtrail.config.json', JSON.stringify({ privacy: { redactAuthors: true } }));
  const out = join(r.dir, 'out', 'mined.jsonl');
  const viaConfig = await runCli(['mine', '--out', 'out/mined.jsonl'], { cwd: r.dir });
  assert.deepEqual([viaConfig.code, viaConfig.stdout], [0, '']);
  assert.equal(readFileSync(out, 'utf8'), run.stdout);
  const csv = await runCli(['mine', '--format', 'csv'], { cwd: r.dir });
  assert.doesNotMatch(csv.stdout, /ada@example/);
  // A plain `mine` with the cache filled (the path without yargs, lib/start/mine.ts) redacts too.
  for (let i = 0; i < 2; i++) {
    const plain = await runCli(['mine'], { cwd: r.dir });
    assert.equal(plain.stdout, run.stdout);
  }
});

test("a plain cached re-run (no yargs: lib/start/mine.ts) prints what --no-cache prints, its notices included; a bad argument is still the CLI's", async () => {
  const r = repo();
  history(r);
  r.commit('chore: bad row\n\nReview-Finding: rf-1,x\n');
  const reference = await runCli(['mine', '--no-cache'], { cwd: r.dir });
  await runCli(['mine'], { cwd: r.dir });
  const replay = await runCli(['mine'], { cwd: r.dir, env: { REVTRAIL_DEBUG: '1' } });
  assert.match(replay.stderr, /mine cache: replay/);
  assert.equal(replay.stdout, reference.stdout);
  assert.match(reference.stderr, /warning/);
  assert.equal(replay.stderr.replace(/^revtrail: mine cache: .*\n/m, ''), reference.stderr);
  const bad = await runCli(['mine', '--nope'], { cwd: r.dir });
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /nope/);
});

test('detached HEAD and a shallow clone are mined', async () => {
  const r = repo();
  const { a, b } = history(r);
  r.git(['checkout', '-q', '--detach', b]);
  const detached = await runCli(['mine'], { cwd: r.dir });
  assert.deepEqual(
    parseJsonl(detached.stdout).map((x) => x.commit),
    [b, a],
  );
  const parent = tempDir();
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const clone = join(parent, 'shallow');
  r.git(['checkout', '-q', 'main']);
  r.git(['clone', '-q', '--depth', '1', `file://${r.dir}`, clone], { cwd: parent });
  assert.equal(r.git(['rev-parse', '--is-shallow-repository'], { cwd: clone }).trim(), 'true');
  const shallow = await runCli(['mine'], { cwd: clone });
  assert.equal(shallow.code, 0, shallow.stderr);
  assert.deepEqual(
    parseJsonl(shallow.stdout).map((x) => x.id),
    ['rf-000000000b'],
  );
  const all = await runCli(['mine', '--all', '--format', 'csv'], { cwd: clone });
  assert.equal(all.code, 0);
});

test('a message in ISO-8859-1 (i18n.commitEncoding) is read re-encoded to UTF-8', async () => {
  const r = repo();
  r.git(['config', 'i18n.commitEncoding', 'ISO-8859-1']);
  const text = `caf\u00e9\n\n${trailer(row({ id: 'rf-00000000e1', issue: 'Cl\u00e9 en dur dans le code' }))}\n`;
  r.write('msg.txt', Buffer.from(text, 'latin1'));
  r.git(['commit', '-q', '--allow-empty', '-F', 'msg.txt']);
  assert.match(r.git(['cat-file', 'commit', 'HEAD']), /^encoding ISO-8859-1$/m);
  const run = await runCli(['mine'], { cwd: r.dir });
  const [f] = parseJsonl(run.stdout);
  assert.equal(f!.issue, 'Cl\u00e9 en dur dans le code');
});

test('a 1 MB commit message is mined', async () => {
  const r = repo();
  const filler = Array.from(
    { length: 16_000 },
    (_, i) => `line ${i} of a very long description, padded to sixty-four chars`,
  ).join('\n');
  r.write('big.txt', `big\n\n${filler}\n\n${trailer(row({ id: 'rf-00000000f1' }))}\n`);
  r.git(['commit', '-q', '--allow-empty', '-F', 'big.txt']);
  assert.ok(Buffer.byteLength(r.git(['log', '-1', '--format=%B'])) > 1_000_000);
  const run = await runCli(['mine'], { cwd: r.dir });
  assert.deepEqual(
    parseJsonl(run.stdout).map((x) => [x.id, x.placement]),
    [['rf-00000000f1', 'trailer']],
  );
});

/** `git fast-import` input: n commits on main, each with one trailer, one second apart. */
function fastImport(r: TestRepo, n: number, start = 1_700_000_000) {
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) {
    const msg = message(`change ${i}`, [
      row({
        id: `rf-${i.toString(16).padStart(8, '0')}`,
        file: `src/f${i % 7}.ts`,
        line: String(1 + (i % 5)),
        verdict: i % 3 ? 'OPEN' : 'ACCEPT',
        rationale: i % 3 ? '' : 'Fixed, with a comma',
      }),
    ]);
    const content = `export const v = ${i};\n`;
    parts.push(
      `commit refs/heads/main\nmark :${i}\ncommitter Ada Tester <ada@example.com> ${start + i} +0000\n` +
        `data ${Buffer.byteLength(msg)}\n${msg}\n${i > 1 ? `from :${i - 1}\n` : ''}M 100644 inline src/f${i % 7}.ts\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  r.git(['fast-import', '--quiet'], { input: parts.join('') });
  r.git(['reset', '-q', '--hard', 'main']);
}

const cacheDir = (r: TestRepo) => join(r.dir, '.git', 'revtrail', 'mine-cache');
const debug = { REVTRAIL_DEBUG: '1' };

test('the cache: a re-run replays, new commits are read alone, a rewrite is re-read; output always equals --no-cache', async () => {
  const r = repo();
  fastImport(r, 60);
  const reference = (await runCli(['mine', '--no-cache'], { cwd: r.dir })).stdout;
  assert.equal(parseJsonl(reference).length, 60);
  assert.ok(!existsSync(cacheDir(r)), '--no-cache writes no cache');
  const first = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(first.stderr, /mine cache: full/);
  assert.equal(first.stdout, reference);
  const second = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(second.stderr, /mine cache: replay \(60 commits/);
  assert.equal(second.stdout, reference);

  // Two new commits, newer than everything: only they are read.
  const t = clock(1_800_000_000);
  r.commit(message('new 1', [row({ id: 'rf-00000000aa' })]), {}, { env: t.next() });
  r.commit(
    message('new 2', [row({ id: 'rf-00000000ab', verdict: 'DEFER', rationale: 'Tracked in #12' })]),
    {},
    { env: t.next() },
  );
  const incremental = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(incremental.stderr, /mine cache: incremental/);
  assert.equal(incremental.stdout, (await runCli(['mine', '--no-cache'], { cwd: r.dir })).stdout);
  assert.equal(parseJsonl(incremental.stdout).length, 62);

  // A rewrite drops cached commits: everything is read again, and nothing dropped survives.
  r.git(['reset', '-q', '--hard', 'HEAD~3']);
  r.commit(message('rewritten', [row({ id: 'rf-00000000ac' })]), {}, { env: t.next() });
  const rewritten = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(rewritten.stderr, /mine cache: full/);
  const truth = (await runCli(['mine', '--no-cache'], { cwd: r.dir })).stdout;
  assert.equal(rewritten.stdout, truth);
  assert.ok(!/rf-00000000aa|rf-00000000ab/.test(rewritten.stdout));

  // Commits in the same second as the cached tip cannot be ordered safely from the tips: full read.
  const same = clock(1_800_000_000 + 180);
  r.commit(message('same second', [row({ id: 'rf-00000000ad' })]), {}, { env: same.next(0) });
  const tie = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.equal(tie.stdout, (await runCli(['mine', '--no-cache'], { cwd: r.dir })).stdout);

  // Deleting the cache between runs changes nothing.
  rmSync(cacheDir(r), { recursive: true, force: true });
  assert.equal((await runCli(['mine'], { cwd: r.dir })).stdout, tie.stdout);
});

test('the cache: an incremental run copies the cached lines; output, notices and the new entry equal a full run', async () => {
  const r = repo();
  const t = clock();
  /** A commit with a finding in the message body (a warning) and a line no grammar reads (rejected). */
  const noisy = (i: number) =>
    r.commit(
      [
        `noisy ${i}`,
        '',
        trailer(row({ id: `rf-0000b0d${i.toString(16).padStart(3, '0')}` })),
        '',
        trailer(row({ id: `rf-0000c0d${i.toString(16).padStart(3, '0')}` })),
        `Review-Finding: not a row ${i}`,
        '',
      ].join('\n'),
      {},
      { env: t.next() },
    );
  for (let i = 0; i < 7; i++) noisy(i);
  const first = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(first.stderr, /mine cache: full/);
  for (let i = 7; i < 11; i++) noisy(i);
  const truth = await runCli(['mine', '--no-cache'], { cwd: r.dir });
  const incremental = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(incremental.stderr, /mine cache: incremental \(cached commits copied\)/);
  assert.equal(incremental.stdout, truth.stdout);
  // 22 notices: the first ten (the new commits' before the cached ones) and how many more.
  assert.equal(incremental.stderr.replace(/^revtrail: mine cache.*\n/gm, ''), truth.stderr);
  assert.match(truth.stderr, /and 12 more warnings/);
  const entry = () => {
    const dir = cacheDir(r);
    const meta = JSON.parse(readFileSync(join(dir, readdir(dir).find((f) => f.endsWith('.json'))!), 'utf8'));
    return { ...meta, data: readFileSync(join(dir, meta.data), 'utf8') };
  };
  const copied = entry();
  // The replay of the entry the incremental run wrote, through the copy and through the records.
  assert.equal((await runCli(['mine'], { cwd: r.dir })).stdout, truth.stdout);
  const json = (await runCli(['mine', '--format', 'json', '--no-cache'], { cwd: r.dir })).stdout;
  assert.equal((await runCli(['mine', '--format', 'json'], { cwd: r.dir })).stdout, json);
  rmSync(cacheDir(r), { recursive: true, force: true });
  await runCli(['mine'], { cwd: r.dir });
  const full = entry();
  assert.deepEqual(
    [copied.commits, copied.records, copied.bytes, copied.noticeCount, copied.notices, copied.tips],
    [full.commits, full.records, full.bytes, full.noticeCount, full.notices, full.tips],
  );
  assert.equal(copied.data, full.data);
  assert.equal(full.records, parseJsonl(truth.stdout).length);

  // Other formats read the cached commits back as records: the same output as --no-cache.
  noisy(11);
  const csv = (await runCli(['mine', '--format', 'csv', '--include-open', '--no-cache'], { cwd: r.dir })).stdout;
  const viaRecords = await runCli(['mine', '--format', 'csv', '--include-open'], { cwd: r.dir, env: debug });
  assert.match(viaRecords.stderr, /mine cache: incremental\n/);
  assert.equal(viaRecords.stdout, csv);

  // An entry that does not say how many records it holds (written before it kept the count).
  const dir = cacheDir(r);
  const metaFile = join(dir, readdir(dir).find((f) => f.endsWith('.json'))!);
  const { records: _, ...older } = JSON.parse(readFileSync(metaFile, 'utf8'));
  writeFileSync(metaFile, JSON.stringify(older));
  noisy(12);
  const afterOlder = await runCli(['mine'], { cwd: r.dir, env: debug });
  assert.match(afterOlder.stderr, /mine cache: incremental \(cached commits copied\)/);
  assert.equal(afterOlder.stdout, (await runCli(['mine', '--no-cache'], { cwd: r.dir })).stdout);
  assert.equal(entry().records, undefined);
});

test('the cache: --all and other formats come out the same cached or not', async () => {
  const r = repo();
  fastImport(r, 30);
  r.git(['branch', 'other', 'HEAD~5']);
  for (const args of [
    ['--all'],
    ['--format', 'csv', '--include-open'],
    ['--format', 'json', '--redact'],
    ['HEAD~10'],
  ]) {
    const truth = (await runCli(['mine', '--no-cache', ...args], { cwd: r.dir })).stdout;
    assert.equal((await runCli(['mine', ...args], { cwd: r.dir })).stdout, truth, args.join(' '));
    assert.equal((await runCli(['mine', ...args], { cwd: r.dir })).stdout, truth, args.join(' '));
  }
});

/** Runs mine and deletes the cache folder as soon as the first output arrives. */
function mineDeletingCache(r: TestRepo): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'mine'], { cwd: r.dir, env: testEnv() });
    let stdout = '';
    let deleted = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (!deleted) {
        deleted = true;
        rmSync(cacheDir(r), { recursive: true, force: true });
      }
      stdout += d;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
  });
}

test('deleting the cache while mine runs (while it is written, while it is replayed) changes no output', async () => {
  const r = repo();
  fastImport(r, 3000);
  const reference = (await runCli(['mine', '--no-cache'], { cwd: r.dir })).stdout;
  const writing = await mineDeletingCache(r);
  assert.deepEqual([writing.code, writing.stdout === reference], [0, true]);
  assert.equal((await runCli(['mine'], { cwd: r.dir })).stdout, reference);
  assert.ok(existsSync(cacheDir(r)));
  const replaying = await mineDeletingCache(r);
  assert.deepEqual([replaying.code, replaying.stdout === reference], [0, true]);
  assert.equal((await runCli(['mine'], { cwd: r.dir })).stdout, reference);
  // A damaged cache file is a miss, not wrong output.
  const meta = readFileSync(join(cacheDir(r), readdir(cacheDir(r)).find((f) => f.endsWith('.json'))!), 'utf8');
  const data = JSON.parse(meta).data as string;
  writeFileSync(join(cacheDir(r), data), 'garbage\n');
  assert.equal((await runCli(['mine'], { cwd: r.dir })).stdout, reference);
});

import { readdirSync as readdir } from 'node:fs';

test('git log options after --, and a linked worktree sharing the cache of the common dir', async () => {
  const r = repo();
  const { a, b, c } = history(r);
  const since = await runCli(['mine', '--', '--since=2024-01-01T00:01:30Z'], { cwd: r.dir });
  assert.equal(since.code, 0, since.stderr);
  assert.deepEqual(
    parseJsonl(since.stdout).map((x) => x.commit),
    [c, b],
  );
  const wt = join(tempDir(), 'wt');
  cleanups.push(() => rmSync(join(wt, '..'), { recursive: true, force: true }));
  r.git(['worktree', 'add', '-q', '--detach', wt, b]);
  const inWorktree = await runCli(['mine'], { cwd: wt, env: debug });
  assert.deepEqual(
    parseJsonl(inWorktree.stdout).map((x) => x.commit),
    [b, a],
  );
  assert.ok(existsSync(cacheDir(r)), 'the cache lives in the common dir');
  assert.ok(!existsSync(join(wt, '.git', 'revtrail')));
});
