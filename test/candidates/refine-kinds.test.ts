/**
 * Refinements for every rule kind (docs/gate.md "Refinements", SPEC §11), from a history the hooks
 * wrote in a monorepo: an `imports` rule and an `ast` rule flag test files under
 * packages/web/test/, two people answer them with `revtrail verdict --rule … --path … REJECT`
 * (docs/record.md "Answers in bulk"), and `candidates` drafts one exception per rule, scoped to
 * the deepest folder holding the rejected findings, never the rule's whole scope (packages/**).
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allTrailerRows, installedRepo, type HookRepo } from '../kit/hooks.js';
import { authorEnv } from '../kit/gate.js';

const DOC = '.okfw/decisions/adr-0003.md';
const DOC_TEXT = `---
type: Architecture Decision
id: adr-0003
title: Packages reach the database through the data package
x:
  paths: ["packages/**"]
  rules:
    - id: no-pg
      imports: { forbid: ["pg"] }
      severity: bug
      title: A package imports the database driver
    - id: no-console
      ast: console.log($$$)
      language: typescript
      severity: suggestion
      title: console.log left in
---
# Packages reach the database through the data package

Only packages/data talks to the database, and shipped code logs through the logger.
`;
const INDEX = '---\ntype: Index\ntitle: Test bundle\n---\n# Decisions\n\n- [Database access](decisions/adr-0003.md)\n';
const IMPORTS = 'adr-0003:no-pg';
const AST = 'adr-0003:no-console';
const FLAGGED = "import { Pool } from 'pg';\n\nexport const pool = new Pool();\nconsole.log(pool);\n";
const ADA = 'Ada Tester <ada@example.com>';
const BO = 'Bo Fixer <bo@example.com>';
const asPerson = (who: string): NodeJS.ProcessEnv => {
  const [, name, email] = /^(.*?) <(.*)>$/.exec(who)!;
  return { ...authorEnv(who), GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
};

let repo: HookRepo;

before(async () => {
  repo = await installedRepo({ files: { [DOC]: DOC_TEXT, '.okfw/index.md': INDEX } });
  repo.commit('docs: adr-0003');
  // Two test files at different depths under one folder, and shipped code elsewhere that stays open.
  for (const file of ['packages/web/test/a.test.ts', 'packages/web/test/unit/b.test.ts', 'packages/api/src/db.ts'])
    repo.commit(`test: ${file}`, { [file]: FLAGGED });
  const rows = allTrailerRows(repo).filter((l) => l.includes(',OPEN,'));
  for (const rule of [IMPORTS, AST])
    assert.equal(rows.filter((r) => r.includes(`,${rule},`)).length, 3, `three ${rule} findings:\n${rows.join('\n')}`);
});

/** `verdict --rule RULE --path GLOB REJECT …` for both rules, then a commit by `who` that records the answers. */
async function rejectAll(glob: string, who: string): Promise<string[]> {
  const outs: string[] = [];
  for (const rule of [IMPORTS, AST]) {
    const run = await repo.cli([
      'verdict',
      '--rule',
      rule,
      '--path',
      glob,
      'REJECT',
      'test files build their own fixtures: `grep -r pg packages/web/test` shows test setup only',
    ]);
    assert.equal(run.code, 0, run.stderr);
    outs.push(run.stdout);
  }
  repo.commit(`chore: answers by ${who}`, {}, { env: asPerson(who) });
  return outs;
}

test('verdict --rule --path answers every matching open finding once; a second run answers nothing new', async () => {
  // Before any answer: what each rule's findings are and what a draft would need.
  const first = await repo.cli(['candidates']);
  assert.equal(first.code, 0, first.stderr);
  for (const rule of [IMPORTS, AST])
    assert.match(
      first.stdout,
      new RegExp(
        `^ {2}${rule}: 3 findings, 3 without an answer; an exception needs 2 REJECTs in one folder from 2 people$`,
        'm',
      ),
    );
  const [imports] = await rejectAll('packages/web/test/*.ts', ADA);
  assert.match(
    imports!,
    new RegExp(
      `^Queued REJECT for 1 open finding of ${IMPORTS}:\\n {2}rf-[0-9a-f]{10} {2}packages/web/test/a\\.test\\.ts:1 `,
    ),
  );
  const recorded = repo.trailers().filter((r) => r.includes(',REJECT,'));
  assert.equal(recorded.length, 2, recorded.join('\n'));
  assert.ok(
    recorded.every((r) => r.includes(',packages/web/test/a.test.ts,')),
    recorded.join('\n'),
  );

  // One person's answers are one person's view: no draft yet, and candidates says what it waits for.
  const waiting = await repo.cli(['candidates']);
  assert.equal(waiting.code, 0, waiting.stderr);
  assert.doesNotMatch(waiting.stdout, /^wrote .*refine-/m);
  assert.match(
    waiting.stdout,
    new RegExp(
      `^ {2}${IMPORTS}: exception under packages/web/test/: 1 REJECT from 1 person; needs 2 REJECTs from 2 people$`,
      'm',
    ),
  );

  const [second] = await rejectAll('packages/web/test/**', BO);
  assert.match(
    second!,
    /^Queued REJECT for 1 open finding of adr-0003:no-pg:\n {2}rf-[0-9a-f]{10} {2}packages\/web\/test\/unit\/b\.test\.ts:1 /,
  );
  const again = await repo.cli([
    'verdict',
    '--rule',
    IMPORTS,
    '--path',
    'packages/web/test/**',
    'REJECT',
    'test files build their own fixtures: see `grep`',
  ]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(
    again.stdout,
    `Nothing new to answer for ${IMPORTS}: 2 matching findings are answered already, 0 queued.\n`,
  );
  const unknown = await repo.cli([
    'verdict',
    '--rule',
    'adr-0003:nope',
    'REJECT',
    'no such rule: see `revtrail rules`',
  ]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no finding of adr-0003:nope is known on this branch/);
  const pathAlone = await repo.cli([
    'verdict',
    '--path',
    'packages/**',
    'REJECT',
    'no rule named: see `revtrail rules`',
  ]);
  assert.equal(pathAlone.code, 2);
  assert.match(pathAlone.stderr, /--path narrows --rule: name the rule too/);
});

test('two people REJECTing an imports rule and an ast rule give one exception each, at the deepest common folder; each patch applies to exactly that exclude', async () => {
  const run = await repo.cli(['candidates']);
  assert.equal(run.code, 0, run.stderr);
  const dir = join(repo.dir, '.revtrail', 'candidates');
  for (const [rule, id] of [
    [IMPORTS, 'no-pg'],
    [AST, 'no-console'],
  ] as const) {
    const base = `refine-exception-${rule.replace(/[^a-z0-9]+/g, '-')}-packages-web-test`;
    assert.match(
      run.stdout,
      new RegExp(
        `^wrote \\.revtrail/candidates/${base}\\.md \\(exception for ${rule} under packages/web/test/\\)$`,
        'm',
      ),
    );
    const page = readFileSync(join(dir, `${base}.md`), 'utf8');
    assert.match(page, /answered "not a violation" \(REJECT\) 2 times by 2 people/);
    assert.match(page, /Add `packages\/web\/test\/\*\*` to the rule's `exclude`/);
    repo.git(['apply', `.revtrail/candidates/${base}.patch`]);
    assert.equal(
      readFileSync(join(repo.dir, DOC), 'utf8'),
      DOC_TEXT.replace(`    - id: ${id}\n`, `    - id: ${id}\n      exclude: ["packages/web/test/**"]\n`),
    );
    repo.git(['checkout', '--', DOC]);
  }
  // packages/api/src/db.ts stays open: it is neither answered nor in any draft.
  assert.doesNotMatch(run.stdout, /packages\/api|under packages\/\)/);
});
