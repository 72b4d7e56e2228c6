/**
 * Adopting a bundle on a real project's history (docs/mining.md "Adopting a rule in a week"):
 * mitt's last 40 mainline commits, replayed from a fetched mirror (test/kit/fetched.ts), with a
 * decision holding a rule of each kind. `rules --backtest` replays them; `baseline` records
 * what the tree holds; a change that touches an old violation then raises nothing, a new one does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../kit/repo.js';
import { notFetched, replayFetched } from '../kit/fetched.js';

const SLUG = 'developit/mitt';
// mitt's main at the fetch; its last 40 first-parent commits are the history.
const TIP = '6b41670516ed8e8b738612f60491995470aa63b3';
const replayed = replayFetched(SLUG, TIP, 40);

const ADR = `---
type: Architecture Decision
id: adr-1
title: The emitter stays small
x:
  paths: ["src/**", "test/**"]
  rules:
    - id: no-bang-get
      pattern: '!\\.get\\('
      severity: nit
      title: A non-null assertion on a map lookup
    - id: no-slice-copy
      ast: $A.slice()
      language: typescript
      severity: nit
      title: A copy of the handler list
    - id: no-sinon
      imports: { forbid: ["sinon"] }
      severity: nit
      title: Tests do not import sinon
---
Body.
`;

interface BacktestJson {
  commits: number;
  rules: Array<{
    rule_source: string;
    kind: string;
    hits: number;
    files: number;
    commits: number;
    authors: number;
    first: Array<{ commit: string; path: string; line: number; text: string }>;
  }>;
}

test('rules --backtest on 40 real commits: the hits of a pattern, a syntax-tree and an import rule', {
  skip: replayed ? false : notFetched(SLUG),
}, async () => {
  const { repo, commits } = replayed!;
  repo.commit('adopt the decision', { '.okfw/index.md': '- [adr](adr-1.md)\n', '.okfw/adr-1.md': ADR });
  const run = await runCli(['rules', '--backtest', '--format', 'json'], { cwd: repo.dir });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as BacktestJson;
  assert.equal(out.commits, 41);
  const by = new Map(out.rules.map((r) => [r.rule_source, r]));
  const shape = (id: string) => {
    const r = by.get(id)!;
    return [r.kind, r.hits, r.files, r.commits, r.authors];
  };
  // What each commit introduced, not what it touched: mitt's own code has these lines once each.
  // The two copies of the handler list came in one commit, in src/index.js; the migration to
  // TypeScript (index.js deleted, index.ts added) carried them over, rewritten: not new.
  assert.deepEqual(shape('adr-1:no-bang-get'), ['regex', 4, 1, 1, 1]);
  assert.deepEqual(shape('adr-1:no-slice-copy'), ['ast', 2, 1, 1, 1]);
  assert.deepEqual(shape('adr-1:no-sinon'), ['imports', 1, 1, 1, 1]);
  // The import came with the first replayed commit, in the test file of that time.
  const first = by.get('adr-1:no-sinon')!.first[0]!;
  assert.deepEqual(
    [first.commit, first.path, first.line, first.text],
    [commits[0]!.replay, 'test/index.js', 3, "import { spy } from 'sinon';"],
  );
  const bang = by.get('adr-1:no-bang-get')!.first.map((h) => `${h.path}:${h.line}`);
  assert.deepEqual(bang, ['src/index.ts:61', 'src/index.ts:76', 'src/index.ts:98', 'src/index.ts:107']);
  // The text form names each rule with its counts and its first lines.
  const text = await runCli(['rules', '--backtest', '--quiet'], { cwd: repo.dir });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^adr-1:no-slice-copy\s+ast\s+2\s+1\s+1\s+1$/m);
  assert.match(text.stdout, /^ {4}test\/index\.js:3 \([0-9a-f]{12}\) {2}import \{ spy \} from 'sinon';$/m);
  assert.match(text.stdout, /41 commits of the mainline replayed/);
  // --max-count takes the newest commits: the bundle's own commit and the one before add nothing.
  const last = JSON.parse(
    (await runCli(['rules', '--backtest', '--max-count', '2', '--json'], { cwd: repo.dir })).stdout,
  ) as BacktestJson;
  assert.equal(last.commits, 2);
  assert.deepEqual(
    last.rules.map((r) => r.hits),
    [0, 0, 0],
  );

  // --since takes git's dates: no commit is from after 2090 (git's dates stop before 2100); 0 commits is a usage error.
  const none = JSON.parse(
    (await runCli(['rules', '--backtest', '--since', '2090-01-01', '--json'], { cwd: repo.dir })).stdout,
  ) as BacktestJson;
  assert.equal(none.commits, 0);
  const zero = await runCli(['rules', '--backtest', '--max-count', '0'], { cwd: repo.dir });
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--max-count must be a whole number above 0/);

  // The baseline: what the tree holds now, recorded once.
  const base = await runCli(['baseline', '--json'], { cwd: repo.dir });
  assert.equal(base.code, 0, base.stderr);
  assert.deepEqual((JSON.parse(base.stdout) as { rules: unknown }).rules, [
    { rule_source: 'adr-1:no-bang-get', entries: 4 },
    { rule_source: 'adr-1:no-sinon', entries: 1 },
    { rule_source: 'adr-1:no-slice-copy', entries: 2 },
  ]);
  const file = JSON.parse(readFileSync(join(repo.dir, '.revtrail/baseline.json'), 'utf8')) as { entries: unknown[] };
  assert.deepEqual(file.entries[0], {
    rule_source: 'adr-1:no-bang-get',
    path: 'src/index.ts',
    text: 'const handlers: Array<GenericEventHandler> | undefined = all!.get(type);',
    occurrence: 0,
  });
  repo.commit('record the baseline');

  // A line added above an old violation, and the violation's own line reindented: nothing raised.
  const source = readFileSync(join(repo.dir, 'src/index.ts'), 'utf8');
  const old =
    '\t\t\tconst handlers: Array<GenericEventHandler> | undefined = all!.get(type);\n\t\t\tif (handlers) {\n\t\t\t\thandlers.push';
  assert.ok(source.includes(old));
  repo.write(
    'src/index.ts',
    source.replace(
      old,
      '\t\t\t// The handlers of this type, if any.\n    const handlers:  Array<GenericEventHandler> | undefined = all!.get(type);\n\t\t\tif (handlers) {\n\t\t\t\thandlers.push',
    ),
  );
  const touched = await runCli(['review', '--format', 'json'], { cwd: repo.dir });
  const quiet = JSON.parse(touched.stdout) as {
    event: string;
    findings: unknown[];
    baselined?: Array<{ line: number }>;
  };
  assert.equal(touched.code, 0, touched.stderr);
  assert.equal(quiet.event, 'APPROVE');
  assert.deepEqual(quiet.findings, []);
  // The review compares the file's two versions: the touched violation is not new, with or
  // without the baseline (docs/review.md "What a change introduces").
  repo.git(['mv', '.revtrail/baseline.json', '.revtrail/kept.json']);
  const bare = JSON.parse((await runCli(['review', '--format', 'json'], { cwd: repo.dir })).stdout) as {
    findings: unknown[];
  };
  assert.equal(bare.findings.length, 0);
  // The whole tree is all added: there the baseline is what keeps old violations out (the test can fail).
  const all = JSON.parse((await runCli(['review', '--all', '--format', 'json'], { cwd: repo.dir })).stdout) as {
    findings: Array<{ rule_source: string }>;
  };
  assert.equal(all.findings.filter((f) => f.rule_source.startsWith('adr-1:')).length, 7);
  repo.git(['mv', '.revtrail/kept.json', '.revtrail/baseline.json']);
  const kept = JSON.parse((await runCli(['review', '--all', '--format', 'json'], { cwd: repo.dir })).stdout) as {
    findings: Array<{ rule_source: string }>;
    baselined: unknown[];
  };
  assert.equal(kept.findings.filter((f) => f.rule_source.startsWith('adr-1:')).length, 0);
  assert.equal(kept.baselined.length, 7);

  // A new violation beside it, of the very same text: one more line than recorded, so it counts.
  repo.write(
    'src/index.ts',
    readFileSync(join(repo.dir, 'src/index.ts'), 'utf8').replace(
      '\t\t\t// The handlers of this type, if any.\n',
      '\t\t\tconst handlers: Array<GenericEventHandler> | undefined = all!.get(type);\n',
    ),
  );
  const fresh = JSON.parse((await runCli(['review', '--format', 'json'], { cwd: repo.dir })).stdout) as {
    findings: Array<{ rule_source: string; line: number }>;
  };
  assert.deepEqual(
    fresh.findings.map((f) => [f.rule_source, f.line]),
    [['adr-1:no-bang-get', 68]],
  );

  // Committed: baseline --check counts what remains and what is new.
  repo.commit('touch the emitter');
  const check = await runCli(['baseline', '--check', '--json'], { cwd: repo.dir });
  assert.equal(check.code, 0, check.stderr);
  assert.deepEqual((JSON.parse(check.stdout) as { rules: unknown[] }).rules[0], {
    rule_source: 'adr-1:no-bang-get',
    entries: 4,
    remaining: 4,
    fixed: 0,
    unrecorded: 1,
  });

  // One old violation fixed: stats and --check count it as fixed.
  repo.commit('no wildcard lookup', {
    'src/index.ts': readFileSync(join(repo.dir, 'src/index.ts'), 'utf8').replace(
      "handlers = all!.get('*');",
      "handlers = all.get('*');",
    ),
  });
  const stats = await runCli(['stats'], { cwd: repo.dir });
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(stats.stdout, /^ {2}adr-1:no-bang-get {2}3 remaining, 1 fixed$/m);
  assert.match(stats.stdout, /^ {2}adr-1:no-slice-copy {2}2 remaining, 0 fixed$/m);
});
