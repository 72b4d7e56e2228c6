import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runProcess, tempDir } from '../helpers/repo.js';

test('npm start runs the demo: blocked push, verdicts, push through, mining, stats, a candidate; exit 0', async () => {
  const parent = tempDir('revtrail-demo-parent-');
  try {
    // The demo makes its folder under the OS temp folder; TMPDIR points it at ours to clean up.
    const r = await runProcess('npm', ['start', '--silent'], { cwd: projectRoot, env: { TMPDIR: parent }, timeoutMs: 180_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const folder = readdirSync(parent).find((f) => f.startsWith('revtrail-demo-'));
    assert.ok(folder, 'the throwaway repository is under TMPDIR');
    const app = join(parent, folder, 'app');
    assert.match(r.stdout, new RegExp(`throwaway repository in ${join(parent, folder).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(r.stdout, /revtrail: push blocked: 6 blocking findings/);
    // The false positive's REJECT shows in the statistics: half of that rule's verdicts.
    assert.match(r.stdout, /^ {4}builtin\/injection:sql-concat +2 +0 +1 +1 +0 +0 +50\.0% +investigate$/m);
    assert.match(r.stdout, /main -> main/);
    assert.match(r.stdout, /^ {4}date,file,line,rule_source,category,severity,issue,verdict,rationale$/m);
    const candidates = readdirSync(join(app, '.revtrail', 'candidates'));
    assert.deepEqual(candidates, ['builtin-debug-debugger.md']);
    const draft = readFileSync(join(app, '.revtrail', 'candidates', candidates[0]!), 'utf8');
    assert.match(draft, /^type: Knowledge Candidate$/m);
    assert.match(draft, /^status: draft$/m);
    // The ADR's own rule is knowledge already: --explain says so rather than drafting it.
    assert.match(r.stdout, /candidate: no: this rule_source belongs to decisions\/adr-0001-[a-z-]+\.md in the knowledge bundle already/);
    // The repository the demo was started from is untouched.
    assert.equal(existsSync(join(projectRoot, '.revtrail')), false);
    const log = (await runProcess('git', ['log', '--format=%(trailers:key=Review-Finding,valueonly)'], { cwd: app })).stdout;
    assert.equal(log.split('\n').filter((l) => /,ACCEPT,/.test(l)).length, 4);
    assert.equal(log.split('\n').filter((l) => /,DEFER,/.test(l)).length, 1);
    assert.equal(log.split('\n').filter((l) => /,REJECT,/.test(l)).length, 1);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
