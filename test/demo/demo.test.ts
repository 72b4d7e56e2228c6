import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runProcess, tempDir } from '../kit/repo.js';
import { ROW_VALUES, rowValues } from '../kit/hooks.js';

/**
 * The demo runs once in the suite (it is the slowest single test): through `npm start`, as the
 * README says, on what looks like a fresh machine — no git identity in the environment or any
 * config file (a CI container, a new laptop), so it must not depend on ~/.gitconfig.
 */
test('npm start runs the demo with no git identity: blocked push, verdicts, push through, mining, stats, a candidate and a refinement, a calibrated rule that no longer blocks; exit 0', async () => {
  const parent = tempDir('revtrail-demo-parent-');
  const home = tempDir('revtrail-empty-home-');
  try {
    // The demo makes its folder under the OS temp folder; TMPDIR points it at ours to clean up.
    const r = await runProcess('npm', ['start', '--silent'], {
      cwd: projectRoot,
      timeoutMs: 180_000,
      env: {
        TMPDIR: parent,
        HOME: home,
        XDG_CONFIG_HOME: home,
        npm_config_cache: join(home, '.npm'),
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: undefined,
        GIT_AUTHOR_EMAIL: undefined,
        GIT_COMMITTER_NAME: undefined,
        GIT_COMMITTER_EMAIL: undefined,
        EMAIL: undefined,
      },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const folder = readdirSync(parent).find((f) => f.startsWith('revtrail-demo-'));
    assert.ok(folder, 'the throwaway repository is under TMPDIR');
    const app = join(parent, folder, 'app');
    assert.match(
      r.stdout,
      new RegExp(`throwaway repository in ${join(parent, folder).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    assert.match(r.stdout, /revtrail: push blocked: 8 blocking findings/);
    // A screen or two by default (it was 389 lines); every command's whole output is in demo.log,
    // which the rest of this test reads (and `revtrail demo --verbose` prints).
    const shown = r.stdout.split('\n').length;
    assert.ok(shown <= 150, `the demo printed ${shown} lines`);
    assert.match(r.stdout, /^ {4}… \d+ more lines$/m);
    const full = readFileSync(join(parent, folder, 'demo.log'), 'utf8');
    assert.ok(full.split('\n').length > 300, 'the transcript is whole');
    assert.match(r.stdout, /Every command's whole output: .*demo\.log \(or revtrail demo --verbose\)/);
    // The false positive's REJECT shows in the statistics: half of that rule's verdicts, which
    // (with the demo's calibration.minVerdicts 2) calibrates the rule from that verdict on.
    assert.match(
      full,
      /^ {4}builtin\/injection:sql-concat +2 +0 +1 +1 +0 +0 +50\.0% of 2 +investigate +since REJECT rf-[0-9a-f]{10} in [0-9a-f]{12}$/m,
    );
    // Its next finding no longer blocks: the third push goes through, saying why.
    assert.match(
      full,
      /\$ git push origin main\n(?: {4}.*\n)*? {4}revtrail: refs\/heads\/main: 1 finding of rules calibrated by history, not blocking:\n {6}src\/db\/archive\.ts:4 security SQL built by concatenation or interpolation \(builtin\/injection:sql-concat\) rf-[0-9a-f]{10}\n {8}not blocking: 1 of 2 answered findings of this rule were rejected in this history \(revtrail stats --rule builtin\/injection:sql-concat\)\n/,
    );
    assert.equal((full.match(/main -> main/g) ?? []).length, 2, 'the second and the third push went through');
    assert.match(full, /recorded CI pass for [0-9a-f]{12} in refs\/notes\/revtrail-ci/);
    // Before ADR-0002 is enforced: the backtest of every bundle rule over the history so far (ADR-0001's
    // syntax-tree rule fired once, in the commit step 2 made), then the baseline of what HEAD holds.
    assert.match(full, /^ {4}adr-0001:no-db-query +ast +1 +1 +1 +1$/m);
    assert.match(full, /^ {4}adr-0002:no-console-log +regex +0 +0 +0 +0$/m);
    assert.match(full, /\$ revtrail baseline\n {4}No violation of the bundle's rules at [0-9a-f]{12}/);
    assert.match(full, /^ {4}date,file,line,rule_source,category,severity,issue,verdict,rationale$/m);
    const candidates = readdirSync(join(app, '.revtrail', 'candidates')).sort();
    // The model's rule (played by the labelled stand-in) is new knowledge; the built-in debugger rule is not;
    // ADR-0002's rule, answered "not a violation" under test/helpers/ by Sam and Dana, gets an
    // exception drafted for the deepest folder holding both (docs/gate.md "Refinements").
    assert.deepEqual(candidates, [
      'refine-exception-adr-0002-no-console-log-test-helpers.md',
      'refine-exception-adr-0002-no-console-log-test-helpers.patch',
      'reviewer-demo-stand-in-money-as-float.md',
    ]);
    assert.match(full, /^ {4}\+ {6}exclude: \["test\/helpers\/\*\*"\]$/m);
    assert.match(full, /answered "not a violation" \(REJECT\) 2 times by 2 people/);
    // The answers in bulk: every open finding of the rule under a path, in one command.
    assert.match(full, /\$ revtrail verdict --rule adr-0002:no-console-log --path test\/helpers\/\S+ REJECT /);
    assert.match(full, /a deterministic STAND-IN for a local model/);
    assert.match(full, /skipped builtin\/debug:debugger: it is one of revtrail's built-in rules \(knowledge already\)/);
    const draft = readFileSync(join(app, '.revtrail', 'candidates', candidates[2]!), 'utf8');
    assert.match(draft, /^type: Knowledge Candidate$/m);
    assert.match(draft, /^status: draft$/m);
    // The ADR's own rule is knowledge already: --explain says so rather than drafting it.
    assert.match(
      full,
      /candidate: no: this rule_source belongs to decisions\/adr-0001-[a-z-]+\.md in the knowledge bundle already/,
    );
    // The repository the demo was started from is untouched.
    assert.equal(existsSync(join(projectRoot, '.revtrail')), false);
    const log = rowValues((await runProcess('git', ['log', `--format=${ROW_VALUES}`], { cwd: app })).stdout).join('\n');
    assert.equal(log.split('\n').filter((l) => /,ACCEPT,/.test(l)).length, 6);
    assert.equal(log.split('\n').filter((l) => /,DEFER,/.test(l)).length, 1);
    assert.equal(log.split('\n').filter((l) => /,REJECT,/.test(l)).length, 3);
  } finally {
    rmSync(parent, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
