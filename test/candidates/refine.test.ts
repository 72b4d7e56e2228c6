/**
 * Refinement candidates (lib/candidates/refine.ts, docs/gate.md "Refinements") from a history the
 * hooks wrote: a bundle rule's findings under test/ REJECTed by two people, under scripts/ by one,
 * each answer queued with `revtrail verdict` and recorded by the next commit. And a scope
 * candidate from findings accepted and fixed outside the paths the rule now declares.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedRepo, type HookRepo } from '../kit/hooks.js';
import { authorEnv, scenario, trackScenarios } from '../kit/gate.js';
import { runCli } from '../kit/repo.js';

const DOC = '.okfw/decisions/adr-0002.md';
const DOC_TEXT = `---
type: Architecture Decision
id: adr-0002
title: No console output in shipped code
x:
  paths: ["**/*.js"]
  rules:
    - id: no-console
      pattern: 'console\\.log\\('
      severity: bug
      title: console.log left in
      message: Log through the logger.
---
# No console output in shipped code

Shipped code logs through the logger.
`;
const REVIEWERS = {
  ada: 'Ada Tester <ada@example.com>',
  bo: 'Bo Fixer <bo@example.com>',
  cy: 'Cy Third <cy@example.com>',
};

let repo: HookRepo;
let ruleSource = '';
const asPerson = (who: string): NodeJS.ProcessEnv => {
  const [, name, email] = /^(.*?) <(.*)>$/.exec(who)!;
  return { ...authorEnv(who), GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
};

/** A file with a flagged line committed through the hooks, then REJECTed by `answerer` (a queued verdict, recorded by a commit). */
async function rejected(file: string, answerer: string): Promise<string> {
  repo.commit(`test: ${file}`, { [file]: 'export const x = 1;\nconsole.log(x);\n' });
  const open = repo.trailers().find((r) => r.includes(`,${file},2,`));
  assert.ok(open, repo.trailers().join('\n'));
  const id = open.split(',')[0]!;
  ruleSource = open.split(',')[3]!;
  const queued = await repo.cli([
    'verdict',
    id,
    'REJECT',
    `the test runner captures stdout: ${file} prints on purpose`,
  ]);
  assert.equal(queued.code, 0, queued.stderr);
  repo.commit(`chore: answer ${id}`, {}, { env: asPerson(answerer) });
  assert.ok(
    repo.trailers().some((r) => r.startsWith(`${id},`) && r.includes(',REJECT,')),
    repo.trailers().join('\n'),
  );
  return id;
}

before(async () => {
  repo = await installedRepo({
    files: {
      [DOC]: DOC_TEXT,
      '.okfw/index.md':
        '---\ntype: Index\ntitle: Test bundle\n---\n# Decisions\n\n- [No console output](decisions/adr-0002.md)\n',
    },
  });
  repo.commit('docs: adr-0002');
  await rejected('test/a.test.js', REVIEWERS.bo);
  await rejected('test/b.test.js', REVIEWERS.cy);
  await rejected('test/c.test.js', REVIEWERS.bo);
  // One person answering every time is one person's view, not the team's.
  await rejected('scripts/a.js', REVIEWERS.bo);
  await rejected('scripts/b.js', REVIEWERS.bo);
});

test('three REJECTs by two people under test/ give one exception draft whose patch adds exactly the exclude; one person under scripts/ gives none', async () => {
  const run = await repo.cli(['candidates']);
  assert.equal(run.code, 0, run.stderr);
  const slug = ruleSource.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  assert.match(
    run.stdout,
    new RegExp(
      `wrote \\.revtrail/candidates/refine-exception-${slug}-test\\.md \\(exception for ${ruleSource.replace(/[/.]/g, '\\$&')} under test/\\)`,
    ),
  );
  assert.doesNotMatch(run.stdout, /scripts\//);
  const dir = join(repo.dir, '.revtrail', 'candidates');
  const page = readFileSync(join(dir, `refine-exception-${slug}-test.md`), 'utf8');
  assert.match(page, /^type: Refinement candidate$/m);
  assert.match(page, /were answered "not a violation" \(REJECT\) 3 times by 2 people/);
  assert.equal(
    (page.match(/^- `test\/[abc]\.test\.js:2` \(rf-[0-9a-f]{10}\): REJECT in [0-9a-f]{12} by (Bo|Cy) /gm) ?? []).length,
    3,
  );
  // Nothing is written into the bundle; the patch applies and makes exactly this change.
  assert.equal(readFileSync(join(repo.dir, DOC), 'utf8'), DOC_TEXT);
  const patch = `.revtrail/candidates/refine-exception-${slug}-test.patch`;
  assert.ok(page.includes(readFileSync(join(repo.dir, patch), 'utf8').trimEnd()));
  repo.git(['apply', patch]);
  assert.equal(
    readFileSync(join(repo.dir, DOC), 'utf8'),
    DOC_TEXT.replace('    - id: no-console\n', '    - id: no-console\n      exclude: ["test/**"]\n'),
  );
  repo.git(['checkout', '--', DOC]);

  const explained = await repo.cli(['candidates', '--explain', ruleSource]);
  assert.equal(explained.code, 0, explained.stderr);
  assert.match(explained.stdout, /refinements:\n {2}exception under scripts\/: no draft\n/);
  assert.match(
    explained.stdout,
    /UNMET {2}several_authors +answered by 1 person \(gate\.minAuthors 2\): one person's view/,
  );
  assert.match(explained.stdout, /exception under test\/: a draft/);
});

const track = trackScenarios();

test('findings fixed outside the paths the rule declares give a scope draft; a draft only where the gate passes', async () => {
  const s = track(scenario());
  // The rule, narrowed to src/ after its findings under lib/ were fixed by two people.
  const doc = `---
type: Architecture Decision
title: No SQL by concatenation
x:
  paths: ["src/**"]
  rules:
    - id: no-sql-concat
      pattern: '"SELECT " \\+'
      severity: security
      title: SQL built by concatenation
---
# No SQL by concatenation
`;
  s.repo.commit('docs: the decision', {
    '.okfw/decisions/adr-001.md': doc,
    '.okfw/index.md': '---\ntype: Index\ntitle: Bundle\n---\n- [SQL](decisions/adr-001.md)\n',
  });
  for (const f of ['lib/a.ts', 'lib/b.ts']) s.raise(`rf-0000000${f.at(-4)}a1`, f);
  const fixes = [s.fix('rf-0000000aa1', 'lib/a.ts'), s.fix('rf-0000000ba1', 'lib/b.ts')];
  for (const f of fixes) s.ci(f, 'pass');
  const run = await runCli(['candidates', '--json'], { cwd: s.repo.dir });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  const scope = out.refinements.filter((r: { kind: string }) => r.kind === 'scope');
  assert.equal(scope.length, 1, run.stdout);
  assert.equal(scope[0].glob, 'lib/**');
  const patch = readFileSync(join(s.repo.dir, scope[0].patch), 'utf8');
  assert.match(patch, /^- {2}paths: \["src\/\*\*"\]$/m);
  assert.match(patch, /^\+ {2}paths: \["src\/\*\*", "lib\/\*\*"\]$/m);
});

test('a finding a person writes (verdict --new), recorded, fixed by another person twice and merged, becomes a candidate for the cited document', async () => {
  const ids: string[] = [];
  for (const file of ['src/api.js', 'src/jobs.js']) {
    repo.write(file, `export async function call() {\n  return fetch(url);\n}\n`);
    const queued = await repo.cli([
      'verdict',
      '--new',
      `${file}:2`,
      'no timeout on the outgoing call',
      '--cite',
      'adr-0002',
      '--topic',
      'missing-timeout',
    ]);
    assert.equal(queued.code, 0, queued.stderr);
    assert.match(
      queued.stdout,
      /queued your finding (rf-[0-9a-f]{10}) at src\/\w+\.js:2 \(human\/adr-0002:missing-timeout\)/,
    );
    repo.commit(`feat: ${file}`);
    const open = repo.trailers().find((r) => r.includes(`,${file},2,human/adr-0002:missing-timeout,`));
    assert.ok(open?.endsWith(',OPEN,'), repo.trailers().join('\n'));
    ids.push(open!.split(',')[0]!);
  }
  for (const [i, file] of ['src/api.js', 'src/jobs.js'].entries()) {
    const answered = await repo.cli(['verdict', ids[i]!, 'ACCEPT', 'an AbortSignal.timeout(5000) on the call']);
    assert.equal(answered.code, 0, answered.stderr);
    const fix = repo.commit(
      `fix: timeout in ${file}`,
      { [file]: `export async function call() {\n  return fetch(url, { signal: AbortSignal.timeout(5000) });\n}\n` },
      { env: asPerson(REVIEWERS.bo) },
    );
    repo.git(['notes', '--ref=revtrail-ci', 'add', '-m', 'pass', fix]);
  }
  const run = await repo.cli(['candidates']);
  assert.equal(run.code, 0, run.stderr);
  const wrote = /wrote (\S+) \(kc-\S*human\S*missing-timeout: 2 threads in 2 files\)/.exec(run.stdout);
  assert.ok(wrote, run.stdout);
  const page = readFileSync(join(repo.dir, wrote[1]!), 'utf8');
  assert.match(page, /Its findings cite adr-0002, which holds no such rule yet/);
  assert.match(page, /- id: missing-timeout/);
  assert.equal(readFileSync(join(repo.dir, DOC), 'utf8'), DOC_TEXT);
});
