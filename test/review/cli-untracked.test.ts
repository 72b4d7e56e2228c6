/** `revtrail review` with no source option reviews untracked files too, and never writes the index. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, throwawayRepos, type TestRepo } from '../kit/repo.js';
import type { ReviewResult } from '../../lib/review/types.js';

const newRepo = throwawayRepos();

function indexState(r: TestRepo): string {
  const env = { GIT_OPTIONAL_LOCKS: '0' };
  return (
    readFileSync(join(r.dir, '.git', 'index')).toString('base64') +
    r.git(['diff', '--cached', '--stat'], { env }) +
    r.git(['status', '--porcelain=v1', '-z'], { env })
  );
}

test('a brand-new untracked file with a debugger statement: REQUEST_CHANGES; an ignored one is not reviewed', async () => {
  const r = newRepo();
  r.commit('base', { 'README.md': '# app\n', '.gitignore': 'scratch/\n*.tmp.js\n' });
  r.write('src/new feature.js', 'export function f() {\n  debugger;\n}\n');
  r.write('scratch/try.js', 'debugger;\n');
  r.write('src/x.tmp.js', 'debugger;\n');
  const stagedBefore = r.git(['diff', '--cached', '--stat']);
  const before = indexState(r);

  const text = await runCli(['review'], { cwd: join(r.dir, 'src') });
  assert.equal(text.code, 1, text.stderr);
  assert.deepEqual(text.stdout.trim().split('\n'), [
    'src/new feature.js:2 bug `debugger` statement left in (builtin/debug:debugger) rf-8cdf1a1552',
    '    A debugger statement pauses execution wherever developer tools are attached. Remove it.',
    '',
    '1 finding in 1 file (1 bug).',
    'REQUEST_CHANGES',
  ]);
  const json = await runCli(['review', '--format', 'json'], { cwd: r.dir });
  assert.equal(json.code, 1, json.stderr);
  const result = JSON.parse(json.stdout) as ReviewResult;
  assert.deepEqual(
    result.findings.map((f) => `${f.path}:${f.line} ${f.rule_source}`),
    ['src/new feature.js:2 builtin/debug:debugger'],
  );
  assert.equal(result.event, 'REQUEST_CHANGES');

  assert.equal(indexState(r), before);
  assert.equal(stagedBefore, '');
  assert.equal(r.git(['diff', '--cached', '--stat']), stagedBefore);
  assert.equal(
    r.git(['ls-files', '--others', '--exclude-standard']),
    'src/new feature.js\n',
    'the new file is still untracked',
  );

  // The explicit sources keep their meaning: nothing is staged, so --staged has nothing to review.
  const staged = await runCli(['review', '--staged'], { cwd: r.dir });
  assert.equal(staged.code, 0, staged.stderr);
  assert.equal(staged.stdout, 'No findings.\nAPPROVE\n');
});
