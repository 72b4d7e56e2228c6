/**
 * The adoption baseline is a file of the repository (docs/mining.md "The baseline"): what a hand
 * writes there never takes out a credential or another built-in rule's finding, and a FIFO in its
 * place never hangs the review. Real git, the review as the commit-msg hook runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { review } from '../../lib/review/index.js';
import { AWS_KEY, DEBUGGER_LINE } from '../kit/hooks.js';
import { makeRepo } from '../kit/repo.js';

test('a hand-written baseline entry for a credential or a built-in rule takes nothing out; a FIFO in its place does not hang', async (t) => {
  const repo = makeRepo();
  t.after(() => repo.cleanup());
  repo.commit('base', { 'src/keep.ts': 'export const keep = 1;\n' });
  const key = `export const key = '${AWS_KEY}';`;
  repo.write(
    '.revtrail/baseline.json',
    JSON.stringify({
      version: 1,
      commit: '',
      entries: [
        { rule_source: 'builtin/secrets:aws-access-key', path: 'src/a.ts', text: key, occurrence: 0 },
        { rule_source: 'builtin/debug:debugger', path: 'src/a.ts', text: DEBUGGER_LINE, occurrence: 0 },
      ],
    }),
  );
  repo.write('src/a.ts', `${key}\n${DEBUGGER_LINE}\n`);
  repo.git(['add', '-A']);
  const result = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
  // (The key written into the baseline file is a finding of its own there.)
  assert.deepEqual(
    result.findings
      .filter((f) => f.path === 'src/a.ts')
      .map((f) => f.rule_source)
      .sort(),
    ['builtin/debug:debugger', 'builtin/secrets:aws-access-key'],
  );
  assert.equal(result.baselined, undefined);

  rmSync(join(repo.dir, '.revtrail', 'baseline.json'));
  mkdirSync(join(repo.dir, '.revtrail'), { recursive: true });
  execFileSync('mkfifo', [join(repo.dir, '.revtrail', 'baseline.json')]);
  const fifo = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
  assert.deepEqual(
    fifo.findings.filter((f) => f.path === 'src/a.ts').map((f) => f.rule_source),
    ['builtin/secrets:aws-access-key', 'builtin/debug:debugger'],
  );
  assert.ok(
    fifo.warnings.some((w) => /baseline/i.test(w)),
    fifo.warnings.join('\n'),
  );
});
