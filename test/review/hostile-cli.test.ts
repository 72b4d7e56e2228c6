/**
 * `revtrail review` on hostile input, end to end (docs/review.md "Time", docs/bundle.md
 * "Time"): a line the JWT pattern used to backtrack over for 12 s, and a concept glob
 * picomatch's regex took minutes on against a 45-character name. The review finishes and the
 * credential in the same change still blocks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, throwawayRepos, writeFiles } from '../kit/repo.js';
import type { ReviewResult } from '../../lib/review/types.js';

const newRepo = throwawayRepos();
const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';

test('review: a 100 KB line of -eyJ and a 13-wildcard concept glob do not hold the review up; the key still blocks', async () => {
  const repo = newRepo();
  repo.commit('Start', { 'README.md': '# app\n' });
  writeFiles(join(repo.dir, '.okfw'), {
    'index.md': '- [slow](slow.md)\n',
    'slow.md': '---\ntype: Note\nid: slow\npaths: ["*a*a*a*a*a*a*a*a*a*a*a*a*b"]\n---\n# Slow\n',
  });
  repo.write(`${'a'.repeat(44)}c.txt`, 'plain\n');
  repo.write('src/data.ts', `export const blob = '${'-eyJ'.repeat(25_000)}';\nexport const key = '${AWS}';\n`);
  repo.git(['add', '-A']);
  const run = await runCli(['review', '--staged', '--format', 'json'], { cwd: repo.dir, timeoutMs: 60_000 });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout) as ReviewResult;
  assert.deepEqual(
    result.findings.map((f) => [f.rule_source, f.path, f.line]),
    [['builtin/secrets:aws-access-key', 'src/data.ts', 2]],
  );
});
