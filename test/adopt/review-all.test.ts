/**
 * `revtrail review --all` (docs/review.md "The whole tree"): every tracked file at HEAD reviewed as
 * if added, with every rule kind; what is not committed (an untracked file, an edit) is not HEAD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, throwawayRepos } from '../kit/repo.js';

const repos = throwawayRepos();

const ADR = `---
type: Architecture Decision
id: adr-1
title: Controllers go through services
x:
  paths: ["src/**"]
  rules:
    - id: no-todo
      pattern: 'TODO\\(nobody\\)'
      in: comments
      severity: nit
      title: Unowned TODO
    - id: no-query
      ast: db.query($$$)
      language: typescript
      severity: bug
      title: Controller queries the database
    - id: no-db-import
      imports: { forbid: ["src/db/**"] }
      severity: bug
      title: Controller imports the database layer
---
Body.
`;

interface Report {
  event: string;
  findings: Array<{ rule_source: string; path: string; line: number }>;
  knowledge_docs: Array<{ path: string }>;
}

test('review --all --format json: every tracked file at HEAD, each rule kind, nothing uncommitted', async () => {
  const r = repos();
  const files: Record<string, string> = {
    '.okfw/index.md': '- [adr](adr-1.md)\n',
    '.okfw/adr-1.md': ADR,
    'src/db/index.ts': 'export const db = { query: (q: string) => q };\n',
    'src/controllers/user.ts': "import { db } from '../db';\n\nexport const find = () =>\n  db.query('select 1');\n",
    'src/notes.ts': '// TODO(nobody): tidy\nexport const x = 1;\n',
    'docs/readme.md': 'debugger;\n',
  };
  // Enough plain files that a hook's time budget would matter on a slow machine; none may be left out.
  for (let i = 0; i < 120; i++) files[`src/lib/m${i}.ts`] = `export const v${i} = ${i};\n`;
  r.commit('tree', files);
  r.write('src/untracked.ts', '// TODO(nobody): not committed\n');
  r.write('src/notes.ts', 'export const x = 2;\n');
  const run = await runCli(['review', '--all', '--format', 'json'], { cwd: r.dir });
  const out = JSON.parse(run.stdout) as Report;
  assert.equal(run.code, 1, run.stderr);
  const tracked = r.git(['ls-files']).trim().split('\n').sort();
  assert.deepEqual([...new Set(out.knowledge_docs.map((d) => d.path))].sort(), tracked);
  assert.deepEqual(
    out.findings.map((f) => [f.rule_source, f.path, f.line]),
    [
      ['adr-1:no-db-import', 'src/controllers/user.ts', 1],
      ['adr-1:no-query', 'src/controllers/user.ts', 4],
      ['adr-1:no-todo', 'src/notes.ts', 1],
    ],
  );
  assert.equal(out.event, 'REQUEST_CHANGES');
  // Not a TTY: no progress line on stderr.
  assert.equal(run.stderr, '');
  // A tree larger than a batch is reviewed batch by batch (here: a few hundred bytes each), to the same report.
  const batched = await runCli(['review', '--all', '--format', 'json'], {
    cwd: r.dir,
    env: { REVTRAIL_WHOLE_TREE_BATCH_BYTES: '300' },
  });
  const inBatches = JSON.parse(batched.stdout) as Report & { summary: string };
  assert.equal(batched.code, 1, batched.stderr);
  assert.deepEqual(inBatches.findings, out.findings);
  assert.deepEqual(inBatches.knowledge_docs, out.knowledge_docs);
  assert.equal(inBatches.summary, (out as Report & { summary: string }).summary);
  assert.equal(inBatches.event, out.event);
});

test('review --all with another diff source is a usage error', async () => {
  const r = repos();
  r.commit('one', { 'a.txt': 'a\n' });
  const run = await runCli(['review', '--all', '--staged'], { cwd: r.dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--all reviews the whole tree at HEAD/);
});
