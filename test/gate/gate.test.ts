import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, throwawayRepos } from '../kit/repo.js';
import { passingScenario, scenario, RULE, trackScenarios } from '../kit/gate.js';
import { message, row, lines, clock } from '../kit/mine.js';
import { SIGNALS } from '../../lib/gate/types.js';

const track = trackScenarios();
const repos = throwawayRepos();

interface SignalJson {
  name: string;
  met: boolean;
  fact: string;
  change: string | null;
}
interface ExplainJson {
  kind: string;
  rule_source: string;
  candidate: { status: string; id: string | null; document: string | null };
  rule: { threads: number; qualifying: number; files: string[]; passed: boolean };
  threads: Array<{ id: string; state: string; passed: boolean; signals: SignalJson[] }>;
}

async function explain(dir: string, target: string, extra: string[] = []): Promise<ExplainJson> {
  const run = await runCli(['candidates', '--explain', target, '--json', ...extra], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as ExplainJson;
}

function signal(e: ExplainJson, name: string, thread = 0): SignalJson {
  return e.threads[thread]!.signals.find((s) => s.name === name)!;
}

test('every signal met: facts name the commits, the file and the mainline', async () => {
  const s = track(passingScenario());
  const e = await explain(s.repo.dir, 'rf-00000000a1');
  assert.equal(e.kind, 'thread');
  assert.deepEqual(
    e.threads[0]!.signals.map((x) => x.name),
    [...SIGNALS],
  );
  assert.ok(e.threads[0]!.signals.every((x) => x.met && x.change === null));
  const fix = s.fixes[0]!.slice(0, 12);
  assert.equal(signal(e, 'merged').fact, `${fix} (carrying the ACCEPT) is reachable from main`);
  assert.equal(signal(e, 'fix_commit').fact, `${fix} changes src/a.ts (diff against its first parent)`);
  assert.equal(signal(e, 'ci_successful').fact, `CI recorded pass for ${fix}`);
  assert.equal(signal(e, 'evidence').fact, `src/a.ts:2 is among the lines ${s.raises[0]!.slice(0, 12)} changed`);
  assert.match(signal(e, 'generalizable').fact, /has 2 threads meeting the six thread signals, in 2 files/);
  assert.deepEqual(e.candidate, { status: 'candidate', id: 'kc-decisions-adr-001-no-sql-concat', document: null });
});

test('each unmet signal is named with its fact and what would change it', async () => {
  const s = track(passingScenario());
  const { repo } = s;
  // OPEN only: not resolved, nothing to merge, no fix, no CI.
  s.raise('rf-00000000c1', 'src/c.ts');
  // Accepted on a branch that is not merged.
  repo.git(['checkout', '-q', '-b', 'topic']);
  s.raise('rf-00000000d1', 'src/d.ts');
  const unmerged = s.fix('rf-00000000d1', 'src/d.ts');
  s.ci(unmerged, 'pass');
  repo.git(['checkout', '-q', 'main']);
  // ACCEPT recorded in a commit that does not change the file.
  s.raise('rf-00000000e1', 'src/e.ts');
  const elsewhere = s.fix('rf-00000000e1', 'src/e.ts', {}, { touch: 'src/other.ts' });
  s.ci(elsewhere, 'pass');
  // REJECT after an ACCEPT, and a file deleted since.
  s.raise('rf-00000000f1', 'src/f.ts');
  s.ci(s.fix('rf-00000000f1', 'src/f.ts'), 'pass');
  s.verdict('rf-00000000f1', 'src/f.ts', 'REJECT', 'Not a problem: `grep -n SELECT src/f.ts` shows a constant');
  s.raise('rf-000000a0b1', 'src/g.ts');
  s.ci(s.fix('rf-000000a0b1', 'src/g.ts'), 'pass');
  repo.git(['rm', '-q', 'src/g.ts']);
  repo.git(['commit', '-q', '-m', 'drop g'], { env: s.time.next() });
  // CI failed; CI never recorded.
  s.raise('rf-000000a0c1', 'src/h.ts');
  const failed = s.fix('rf-000000a0c1', 'src/h.ts');
  s.ci(failed, 'fail');
  s.raise('rf-000000a0d1', 'src/i.ts');
  const noCi = s.fix('rf-000000a0d1', 'src/i.ts');
  // A finding whose line no commit of the thread changed.
  repo.commit('add j', { 'src/j.ts': lines(5) }, { env: s.time.next() });
  const j5 = (verdict: 'OPEN' | 'ACCEPT', rationale: string) =>
    row({ id: 'rf-000000a0e1', file: 'src/j.ts', line: '5', rule_source: RULE, verdict, rationale });
  repo.commit(
    message('change j', [j5('OPEN', '')]),
    { 'src/j.ts': lines(5, (n) => (n === 2 ? 'changed();' : `const v${n} = ${n};`)) },
    { env: s.time.next() },
  );
  s.ci(
    repo.commit(
      message('fix j', [j5('ACCEPT', 'Fixed by the rewrite')]),
      { 'src/j.ts': lines(5, (n) => (n === 2 ? 'again();' : `const v${n} = ${n};`)) },
      { env: s.time.next() },
    ),
    'pass',
  );

  const open = await explain(repo.dir, 'rf-00000000c1');
  assert.deepEqual(
    open.threads[0]!.signals.filter((x) => !x.met).map((x) => x.name),
    ['merged', 'resolved', 'fix_commit', 'ci_successful'],
  );
  assert.equal(signal(open, 'resolved').fact.startsWith('the latest verdict is OPEN'), true);
  assert.match(signal(open, 'resolved').change!, /revtrail verdict rf-00000000c1 ACCEPT/);
  assert.equal(signal(open, 'merged').fact, 'no ACCEPT verdict in the thread');
  // Everything of the rule is computed for --explain, so evidence is checked even here.
  assert.equal(signal(open, 'evidence').met, true);

  // Another branch's threads are read with --all (by default: HEAD and the mainline).
  const hidden = await runCli(['candidates', '--explain', 'rf-00000000d1'], { cwd: repo.dir });
  assert.equal(hidden.code, 2);
  const d = await explain(repo.dir, 'rf-00000000d1', ['--all']);
  assert.equal(signal(d, 'merged').met, false);
  assert.equal(signal(d, 'merged').fact, `${unmerged.slice(0, 12)} (carrying the ACCEPT) is not reachable from main`);
  assert.equal(signal(d, 'merged').change, `merge ${unmerged.slice(0, 12)} into main`);

  const e = await explain(repo.dir, 'rf-00000000e1');
  assert.equal(
    signal(e, 'fix_commit').fact,
    `${elsewhere.slice(0, 12)} does not change src/e.ts (its first-parent diff touches 1 other file)`,
  );
  assert.match(signal(e, 'fix_commit').change!, /record the ACCEPT in the commit that changes src\/e\.ts/);

  const f = await explain(repo.dir, 'rf-00000000f1');
  assert.equal(f.threads[0]!.state, 'REJECT');
  assert.match(
    signal(f, 'not_dismissed').fact,
    /^REJECT in [0-9a-f]{12}: "Not a problem: `grep -n SELECT src\/f\.ts` shows a constant"$/,
  );
  const g = await explain(repo.dir, 'rf-000000a0b1');
  assert.equal(signal(g, 'not_dismissed').fact, 'src/g.ts does not exist at the tip of main');

  const h = await explain(repo.dir, 'rf-000000a0c1');
  const i = await explain(repo.dir, 'rf-000000a0d1');
  assert.equal(signal(h, 'ci_successful').fact, `CI recorded fail for ${failed.slice(0, 12)}`);
  assert.match(signal(h, 'ci_successful').change!, /fix the build, then `revtrail ci record pass/);
  assert.equal(
    signal(i, 'ci_successful').fact,
    `no CI outcome recorded for ${noCi.slice(0, 12)} in refs/notes/revtrail-ci`,
  );
  assert.match(signal(i, 'ci_successful').change!, /run `revtrail ci record pass\|fail/);
  assert.notEqual(
    signal(h, 'ci_successful').fact,
    signal(i, 'ci_successful').fact.replace(noCi.slice(0, 12), failed.slice(0, 12)),
  );

  const j = await explain(repo.dir, 'rf-000000a0e1');
  assert.equal(signal(j, 'evidence').fact, 'none of the 2 occurrences points at lines its commit changed');
  assert.ok(signal(j, 'merged').met && signal(j, 'ci_successful').met && signal(j, 'fix_commit').met);

  // The rule still passes on a and b; the text form prints every signal with its remedy.
  const text = await runCli(['candidates', '--explain', RULE], { cwd: repo.dir });
  assert.equal(text.code, 0);
  assert.match(
    text.stdout,
    /^rule_source decisions\/adr-001:no-sql-concat: 9 threads, 2 meeting the six thread signals/m,
  );
  assert.match(text.stdout, /UNMET {2}ci_successful +CI recorded fail/);
  assert.match(text.stdout, /-> fix the build/);
  assert.match(text.stdout, /^candidate: yes \(kc-decisions-adr-001-no-sql-concat\)$/m);
});

test('generalizable: one file, or fewer threads than gate.minRecurrence, is unmet; minRecurrence is read from config', async () => {
  const s = track(scenario());
  s.raise('rf-00000000a1', 'src/a.ts');
  s.ci(s.fix('rf-00000000a1', 'src/a.ts'), 'pass');
  s.raise('rf-00000000a2', 'src/a.ts', { issue: 'again' });
  s.ci(s.fix('rf-00000000a2', 'src/a.ts', { issue: 'again' }), 'pass');
  const e = await explain(s.repo.dir, RULE);
  assert.equal(e.kind, 'rule_source');
  assert.deepEqual([e.rule.threads, e.rule.qualifying, e.rule.files, e.rule.passed], [2, 2, ['src/a.ts'], false]);
  const gen = signal(e, 'generalizable');
  assert.equal(
    gen.fact,
    `${RULE} has 2 threads meeting the six thread signals, in 1 file (needs 2, in at least 2 files)`,
  );
  assert.match(gen.change!, /one in another file/);
  assert.equal(e.candidate.status, 'gate_unmet');
  s.raise('rf-00000000b1', 'src/b.ts');
  s.ci(s.fix('rf-00000000b1', 'src/b.ts'), 'pass');
  assert.equal((await explain(s.repo.dir, RULE)).rule.passed, true);
  s.repo.write('revtrail.config.json', JSON.stringify({ gate: { minRecurrence: 4 } }));
  const strict = await explain(s.repo.dir, RULE);
  assert.equal(strict.rule.passed, false);
  assert.match(signal(strict, 'generalizable').change!, /^1 more fixed, merged, CI-passing finding/);
});

test('a fix merged through a merge commit counts as merged; the gate reads the mainline from config, origin/HEAD, main, master', async () => {
  const s = track(scenario());
  const { repo } = s;
  s.raise('rf-00000000a1', 'src/a.ts');
  repo.git(['checkout', '-q', '-b', 'feature']);
  const fix = s.fix('rf-00000000a1', 'src/a.ts');
  s.ci(fix, 'pass');
  repo.git(['checkout', '-q', 'main']);
  repo.git(['merge', '-q', '--no-ff', '-m', 'merge feature', 'feature'], { env: s.time.next() });
  assert.equal(signal(await explain(repo.dir, 'rf-00000000a1'), 'merged').met, true);

  // origin/HEAD names the mainline when the config does not.
  repo.git(['branch', '-q', 'trunk', 'main~1']);
  repo.git(['update-ref', 'refs/remotes/origin/trunk', 'trunk']);
  repo.git(['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk']);
  const viaOrigin = await explain(repo.dir, 'rf-00000000a1');
  assert.match(signal(viaOrigin, 'merged').fact, /is not reachable from origin\/trunk$/);
  // The team's remote by another name: the branch's upstream remote names the mainline, its
  // main where `git remote add` set no HEAD.
  repo.git(['remote', 'add', 'origin', repo.dir]);
  repo.git(['remote', 'add', 'team', repo.dir]);
  repo.git(['update-ref', 'refs/remotes/team/main', 'trunk']);
  repo.git(['config', 'branch.main.remote', 'team']);
  assert.match(signal(await explain(repo.dir, 'rf-00000000a1'), 'merged').fact, /is not reachable from team\/main$/);
  repo.git(['config', '--unset', 'branch.main.remote']);
  assert.match(
    signal(await explain(repo.dir, 'rf-00000000a1'), 'merged').fact,
    /is not reachable from origin\/trunk$/,
    'two remotes and no upstream: origin',
  );
  repo.write('revtrail.config.json', JSON.stringify({ mainline: 'main' }));
  assert.match(signal(await explain(repo.dir, 'rf-00000000a1'), 'merged').fact, /is reachable from main$/);
  repo.write('revtrail.config.json', JSON.stringify({ mainline: 'nowhere' }));
  const missing = await explain(repo.dir, 'rf-00000000a1');
  assert.equal(
    signal(missing, 'merged').fact,
    'no mainline: the configured mainline "nowhere" does not resolve to a commit',
  );
  assert.match(signal(missing, 'merged').change!, /set "mainline" in revtrail\.config\.json/);

  const m = repos({ branch: 'master' });
  const t = clock();
  m.commit(
    message('add', [row({ id: 'rf-00000000b1', file: 'x.ts', line: '1', rule_source: RULE })]),
    { 'x.ts': lines(2) },
    { env: t.next() },
  );
  const mx = await explain(m.dir, 'rf-00000000b1');
  assert.match(signal(mx, 'not_dismissed').fact, /x\.ts exists at the tip of master/);
});

test('threads: occurrences oldest first, state is the latest human verdict (a copied OPEN row does not reopen it)', async () => {
  const s = track(scenario());
  s.raise('rf-00000000a1', 'src/a.ts');
  s.fix('rf-00000000a1', 'src/a.ts');
  // The OPEN row again, later (what a cherry-pick of the raising commit leaves): the same record.
  s.verdict('rf-00000000a1', 'src/a.ts', 'OPEN', '');
  const e = await explain(s.repo.dir, 'rf-00000000a1');
  assert.equal(e.threads[0]!.state, 'ACCEPT');
  assert.equal(signal(e, 'resolved').met, true);
  assert.equal(signal(e, 'merged').met, true);
  s.verdict('rf-00000000a1', 'src/a.ts', 'DEFER', 'tracked in #7');
  assert.equal((await explain(s.repo.dir, 'rf-00000000a1')).threads[0]!.state, 'DEFER');
});

test('--explain with an unknown target is an input error (exit 2)', async () => {
  const s = track(passingScenario());
  const run = await runCli(['candidates', '--explain', 'rf-ffffffffff'], { cwd: s.repo.dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /no finding thread or rule_source "rf-ffffffffff"/);
});

test('a merge and a cherry-pick that copied the ACCEPT row are not the fix commit: the commit that fixed it is', async () => {
  const s = track(passingScenario());
  const { repo } = s;
  s.raise('rf-00000000e1', 'src/e.ts');
  repo.git(['checkout', '-q', '-b', 'fix-e']);
  const fix = s.fix('rf-00000000e1', 'src/e.ts');
  s.ci(fix, 'pass');
  repo.git(['checkout', '-q', 'main']);
  repo.commit('chore: meanwhile', { 'src/other.ts': 'export const o = 1;\n' }, { env: s.time.next() });
  // What revtrail once wrote: the queued ACCEPT a second time, into the merge.
  const accept = row({
    id: 'rf-00000000e1',
    file: 'src/e.ts',
    line: '2',
    rule_source: RULE,
    verdict: 'ACCEPT',
    rationale: 'Parameterized query instead of concatenation',
  });
  repo.git(['merge', '--no-ff', '-q', '-m', message('Merge fix-e', [accept]), 'fix-e'], { env: s.time.next() });
  // And a later cherry-pick of the fix onto another line of work carries it a third time.
  repo.git(['checkout', '-q', '-b', 'backport', `${fix}~1`]);
  repo.git(['cherry-pick', fix], { env: s.time.next() });
  repo.git(['checkout', '-q', 'main']);
  repo.git(['merge', '--no-ff', '-q', '-m', 'Merge backport', 'backport'], { env: s.time.next() });
  const e = await explain(repo.dir, 'rf-00000000e1');
  assert.equal(e.threads[0]!.state, 'ACCEPT');
  assert.equal(signal(e, 'fix_commit').fact, `${fix.slice(0, 12)} changes src/e.ts (diff against its first parent)`);
  assert.equal(signal(e, 'ci_successful').met, true, signal(e, 'ci_successful').fact);
  assert.equal(signal(e, 'merged').met, true);
  const stats = JSON.parse((await runCli(['stats', '--json'], { cwd: repo.dir })).stdout) as {
    rules: Array<{ rule_source: string; findings: number; counts: Record<string, number> }>;
  };
  const rule = stats.rules.find((x) => x.rule_source === RULE)!;
  assert.deepEqual(
    [rule.findings, rule.counts.ACCEPT, rule.counts.OPEN],
    [3, 3, 0],
    'three findings, not five ACCEPT copies',
  );
});
