/** The several_authors signal: a rule's qualifying threads must be recorded by commits of two people or more. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../kit/repo.js';
import { scenario, RULE, trackScenarios } from '../kit/gate.js';

const track = trackScenarios();

/** Two threads of the rule, in two files, raised and fixed by Ada alone, CI passing: every other signal holds. */
function aloneFixesTwo(s: ReturnType<typeof scenario>): void {
  for (const [id, file] of [
    ['rf-00000000a1', 'src/a.ts'],
    ['rf-00000000b1', 'src/b.ts'],
  ] as const) {
    s.raise(id, file);
    s.ci(s.fix(id, file, {}, { author: 'Ada Tester <ada@example.com>' }), 'pass');
  }
}

interface RuleSignal {
  name: string;
  met: boolean;
  fact: string;
  change: string | null;
}

async function ruleSignals(dir: string): Promise<{ passed: boolean; signals: RuleSignal[] }> {
  const run = await runCli(['candidates', '--explain', RULE, '--json'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { rule: { passed: boolean; signals: RuleSignal[] } }).rule;
}

test('one person raising and fixing every finding of a rule is not a candidate; a second author makes it one', async () => {
  const s = track(scenario());
  aloneFixesTwo(s);
  const alone = await ruleSignals(s.repo.dir);
  const signal = alone.signals.find((x) => x.name === 'several_authors')!;
  // Every other signal holds: only this one keeps the rule from being a candidate.
  assert.deepEqual(
    alone.signals.map((x) => [x.name, x.met]),
    [
      ['generalizable', true],
      ['several_authors', false],
    ],
  );
  assert.equal(alone.passed, false);
  assert.equal(signal.fact, `the qualifying threads of ${RULE} are recorded by commits of one author only`);
  assert.match(signal.change!, /raised or fixed by 2 people in all .*gate\.minAuthors: 1 for a team of one/);
  const none = await runCli(['candidates'], { cwd: s.repo.dir });
  assert.match(none.stdout, /^no candidates: none of 1 rule source passed the gate/);
  // A team of one says so: gate.minAuthors 1 lets the same history through.
  s.repo.write('revtrail.config.json', JSON.stringify({ gate: { minAuthors: 1 } }));
  assert.equal((await ruleSignals(s.repo.dir)).passed, true);
  s.repo.write('revtrail.config.json', JSON.stringify({ gate: { minAuthors: 2 } }));

  // The same person under another name is still one author (the email decides); another email is not.
  s.raise('rf-00000000c1', 'src/c.ts');
  s.ci(s.fix('rf-00000000c1', 'src/c.ts', {}, { author: 'A. Tester <ADA@example.com>' }), 'pass');
  assert.equal((await ruleSignals(s.repo.dir)).passed, false);
  s.raise('rf-00000000d1', 'src/d.ts');
  s.ci(s.fix('rf-00000000d1', 'src/d.ts', {}, { author: 'Bo Fixer <bo@example.com>' }), 'pass');
  const team = await ruleSignals(s.repo.dir);
  assert.equal(team.passed, true);
  assert.deepEqual(
    team.signals.find((x) => x.name === 'several_authors'),
    {
      name: 'several_authors',
      met: true,
      fact: `the qualifying threads of ${RULE} are recorded by commits of 2 authors`,
      change: null,
    },
  );
  assert.equal((await runCli(['candidates'], { cwd: s.repo.dir })).code, 0);
  assert.ok(existsSync(join(s.repo.dir, '.revtrail', 'candidates', 'decisions-adr-001-no-sql-concat.md')));
});

test('authors count only on qualifying threads: a second author on an unfixed thread does not make it several', async () => {
  const s = track(scenario());
  aloneFixesTwo(s);
  // Bo fixes one more, but CI never passed for it: that thread does not qualify.
  s.raise('rf-00000000e1', 'src/e.ts');
  s.fix('rf-00000000e1', 'src/e.ts', {}, { author: 'Bo Fixer <bo@example.com>' });
  const rule = await ruleSignals(s.repo.dir);
  assert.equal(rule.signals.find((x) => x.name === 'several_authors')!.met, false);
  assert.equal(rule.passed, false);
});
