import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runCli, tempDir, projectRoot } from '../kit/repo.js';
import { passingScenario, RULE } from '../kit/gate.js';

const cleanups: Array<() => void> = [];
after(() =>
  cleanups.forEach((c) => {
    c();
  }),
);
const version = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version as string;

function frontmatter(text: string): Record<string, any> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(m, 'frontmatter');
  return parseYaml(m[1]!) as Record<string, any>;
}

test('a passing rule_source becomes an OKF concept file under .revtrail/candidates/', async () => {
  const s = passingScenario();
  cleanups.push(() => s.repo.cleanup());
  const run = await runCli(['candidates'], { cwd: s.repo.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout,
    'wrote .revtrail/candidates/decisions-adr-001-no-sql-concat.md (kc-decisions-adr-001-no-sql-concat: 2 threads in 2 files)\n',
  );
  const file = join(s.repo.dir, '.revtrail', 'candidates', 'decisions-adr-001-no-sql-concat.md');
  const text = readFileSync(file, 'utf8');
  const fm = frontmatter(text);
  const newest = s.repo.git(['log', '-1', '--format=%cI', s.fixes[1]!]).trim();
  assert.equal(fm.type, 'Knowledge Candidate');
  assert.equal(fm.title, 'SQL built by concatenation');
  assert.match(fm.description, /accepted, fixed and merged into main with CI passing 2 times in 2 files/);
  assert.equal(fm.status, 'draft');
  assert.deepEqual(fm.generated, { by: `revtrail/${version}`, at: newest });
  assert.deepEqual(
    {
      id: fm.x.id,
      rule_source: fm.x.rule_source,
      trust_level: fm.x.trust_level,
      status: fm.x.status,
      generated_at: fm.x.generated_at,
      category: fm.x.category,
    },
    {
      id: 'kc-decisions-adr-001-no-sql-concat',
      rule_source: RULE,
      trust_level: 'inferred',
      status: 'generated',
      generated_at: newest,
      category: 'security',
    },
  );
  assert.deepEqual(fm.x.evidence, [
    {
      finding: 'rf-00000000a1',
      commit: s.raises[0],
      file: 'src/a.ts',
      line: '2',
      fix_commit: s.fixes[0],
      rationale: 'Parameterized query instead of concatenation',
    },
    {
      finding: 'rf-00000000b1',
      commit: s.raises[1],
      file: 'src/b.ts',
      line: '2',
      fix_commit: s.fixes[1],
      rationale: 'Parameterized query instead of concatenation',
    },
  ]);
  assert.equal(fm.x.gate.passed, true);
  assert.deepEqual(fm.x.gate.files, ['src/a.ts', 'src/b.ts']);
  assert.match(text, /\n# SQL built by concatenation\n/);
  assert.match(text, /revtrail never approves/);

  // Same history, same bytes: again here, and in a fresh clone at another time.
  const again = await runCli(['candidates'], { cwd: s.repo.dir });
  assert.match(again.stdout, /^unchanged /);
  assert.equal(readFileSync(file, 'utf8'), text);
  const parent = tempDir();
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const clone = join(parent, 'clone');
  s.repo.git(['clone', '-q', s.repo.dir, clone], { cwd: parent });
  s.repo.git(['fetch', '-q', 'origin', 'refs/notes/revtrail-ci:refs/notes/revtrail-ci'], { cwd: clone });
  // A clone calls the mainline origin/main (origin/HEAD); the config names it as at home.
  writeFileSync(join(clone, 'revtrail.config.json'), JSON.stringify({ mainline: 'main' }));
  const cloned = await runCli(['candidates', '--out', 'elsewhere'], {
    cwd: clone,
    env: { GIT_COMMITTER_DATE: '2030-01-01T00:00:00Z' },
  });
  assert.equal(cloned.code, 0, cloned.stderr);
  assert.equal(readFileSync(join(clone, 'elsewhere', 'decisions-adr-001-no-sql-concat.md'), 'utf8'), text);
});

test('--json lists the candidate model; --out inside the knowledge bundle is refused', async () => {
  const s = passingScenario();
  cleanups.push(() => s.repo.cleanup());
  const run = await runCli(['candidates', '--json', '--out', 'drafts'], { cwd: s.repo.dir });
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(json.candidates[0]), [
    'id',
    'rule_source',
    'title',
    'body',
    'category',
    'evidence',
    'gate',
    'trust_level',
    'status',
    'generated_at',
  ]);
  assert.deepEqual(json.files, [{ file: join('drafts', 'decisions-adr-001-no-sql-concat.md'), changed: true }]);
  for (const out of ['.okfw', '.okfw/candidates', './.okfw/../.okfw/x']) {
    const refused = await runCli(['candidates', '--out', out], { cwd: s.repo.dir });
    assert.equal(refused.code, 2, out);
    assert.match(refused.stderr, /is inside the knowledge bundle/);
    assert.ok(!existsSync(join(s.repo.dir, '.okfw')));
  }
  s.repo.write('revtrail.config.json', JSON.stringify({ knowledge: 'docs/kb' }));
  const custom = await runCli(['candidates', '--out', 'docs/kb/drafts'], { cwd: s.repo.dir });
  assert.equal(custom.code, 2);
});

test('a rule_source that belongs to a bundle document is knowledge already: no candidate, --explain says so', async () => {
  const s = passingScenario();
  cleanups.push(() => s.repo.cleanup());
  s.repo.write(
    '.okfw/index.md',
    '---\ntype: Index\ntitle: Knowledge\n---\n\n- [No SQL concatenation](decisions/adr-001.md)\n',
  );
  s.repo.write(
    '.okfw/decisions/adr-001.md',
    [
      '---',
      'type: Architecture Decision',
      'title: No SQL built by concatenation',
      'x:',
      '  paths: ["src/**"]',
      '  rules:',
      '    - id: no-sql-concat',
      '      pattern: \'"SELECT [^"]*" \\+\'',
      '      severity: security',
      '      category: security',
      '      title: SQL built by concatenation',
      '---',
      '',
      'Use parameterized queries.',
      '',
    ].join('\n'),
  );
  const run = await runCli(['candidates'], { cwd: s.repo.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /^skipped decisions\/adr-001:no-sql-concat: it belongs to .*adr-001.* in the knowledge bundle already$/m,
  );
  assert.ok(
    !existsSync(join(s.repo.dir, '.revtrail', 'candidates')) ||
      readdirSync(join(s.repo.dir, '.revtrail', 'candidates')).length === 0,
  );
  const explained = await runCli(['candidates', '--explain', RULE], { cwd: s.repo.dir });
  assert.match(
    explained.stdout,
    /^candidate: no: this rule_source belongs to .*adr-001.* in the knowledge bundle already \(it is knowledge\)$/m,
  );
});

test('no history, or no passing rule: a clear line and exit 0', async () => {
  const s = passingScenario();
  cleanups.push(() => s.repo.cleanup());
  s.repo.write('revtrail.config.json', JSON.stringify({ gate: { minRecurrence: 3 } }));
  const run = await runCli(['candidates'], { cwd: s.repo.dir });
  assert.equal(run.code, 0);
  const [none, why] = run.stdout.split('\n');
  assert.equal(
    none,
    'no candidates: none of 1 rule source passed the gate (revtrail candidates --explain RULE_SOURCE says why)',
  );
  // No reviewer program and no model: it says where candidates come from, not only docs/gate.md.
  assert.match(
    why!,
    /^candidates are rules the bundle does not state yet, which only a reviewer program, the model reviewer .* or a person names \(revtrail verdict --new/,
  );
  s.repo.write(
    'revtrail.config.json',
    JSON.stringify({ gate: { minRecurrence: 3 }, reviewer: { command: ['node', 'reviewer.js'] } }),
  );
  const withReviewer = await runCli(['candidates'], { cwd: s.repo.dir });
  const lines = withReviewer.stdout.split('\n').filter(Boolean);
  // A reviewer is configured: no word on where rules come from, but what a draft needs and how far each rule is.
  assert.doesNotMatch(withReviewer.stdout, /candidates are rules the bundle does not state yet/);
  assert.equal(lines[1], 'What would make a draft:');
  assert.equal(
    lines.at(-1),
    '  decisions/adr-001:no-sql-concat: 2 of 3 threads meet the thread signals',
    withReviewer.stdout,
  );
});

test('a built-in rule is knowledge already; a rule a document does not hold (a model finding citing it) is a candidate with a rules stanza', async () => {
  const { scenario } = await import('../kit/gate.js');
  const s = scenario();
  cleanups.push(() => s.repo.cleanup());
  const builtin = { rule_source: 'builtin/injection:sql-concat' };
  const cited = {
    rule_source: 'decisions/adr-001:no-raw-sql',
    issue: 'Controller builds its own SQL',
    severity: 'bug',
    category: 'architecture',
  } as const;
  for (const [extra, suffix] of [
    [builtin, 'c'],
    [cited, 'd'],
  ] as const) {
    s.raise(`rf-00000000${suffix}1`, `src/${suffix}1.ts`, extra);
    s.raise(`rf-00000000${suffix}2`, `src/${suffix}2.ts`, extra);
    s.ci(s.fix(`rf-00000000${suffix}1`, `src/${suffix}1.ts`, extra), 'pass');
    s.ci(s.fix(`rf-00000000${suffix}2`, `src/${suffix}2.ts`, extra), 'pass');
  }
  // adr-001 is in the bundle, with another rule: the cited rule is new knowledge for it.
  s.repo.write('.okfw/index.md', '---\ntype: Index\ntitle: Knowledge\n---\n\n- [Layers](decisions/adr-001.md)\n');
  s.repo.write(
    '.okfw/decisions/adr-001.md',
    '---\ntype: Architecture Decision\ntitle: Layers\nx:\n  paths: ["src/**"]\n  rules:\n    - id: no-db-query\n      pattern: "db\\\\.query"\n      severity: bug\n      title: No queries\n---\nControllers call services.\n',
  );
  const run = await runCli(['candidates'], { cwd: s.repo.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /^skipped builtin\/injection:sql-concat: it is one of revtrail's built-in rules \(knowledge already\)$/m,
  );
  assert.match(run.stdout, /^wrote \.revtrail\/candidates\/decisions-adr-001-no-raw-sql\.md /m);
  const text = readFileSync(join(s.repo.dir, '.revtrail', 'candidates', 'decisions-adr-001-no-raw-sql.md'), 'utf8');
  assert.match(text, /Its findings cite decisions\/adr-001, which holds no such rule yet/);
  assert.match(
    text,
    /```yaml\nrules:\n {2}- id: no-raw-sql\n {4}severity: bug\n {4}category: architecture\n {4}title: 'Controller builds its own SQL'\n {4}pattern: 'TODO: [^']+'\n```/,
  );
  const explained = await runCli(['candidates', '--explain', 'builtin/injection:sql-concat'], { cwd: s.repo.dir });
  assert.match(
    explained.stdout,
    /^candidate: no: this rule_source is one of revtrail's built-in rules \(it is knowledge already\)$/m,
  );
});

test('--explain with no argument explains every rule_source of the history', async () => {
  const s = passingScenario();
  cleanups.push(() => s.repo.cleanup());
  const one = await runCli(['candidates', '--explain', RULE], { cwd: s.repo.dir });
  assert.equal(one.code, 0, one.stderr);
  const all = await runCli(['candidates', '--explain'], { cwd: s.repo.dir });
  assert.equal(all.code, 0, all.stderr);
  assert.ok(all.stdout.includes(one.stdout.trimEnd()), all.stdout);
  const json = await runCli(['candidates', '--explain', '--json'], { cwd: s.repo.dir });
  assert.equal(json.code, 0, json.stderr);
  const list = JSON.parse(json.stdout) as Array<{ rule_source: string; kind: string }>;
  assert.ok(list.length >= 1 && list.some((e) => e.rule_source === RULE && e.kind === 'rule_source'), json.stdout);
});
