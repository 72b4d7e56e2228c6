import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, throwawayRepos, writeFiles } from '../kit/repo.js';

const repos = throwawayRepos();

test('knowledge check DIR validates the configuration too: a config error is an input error (exit 2)', async () => {
  const r = repos();
  writeFiles(join(r.dir, 'docs'), { 'index.md': '# Knowledge\n' });
  r.write('revtrail.config.json', JSON.stringify({ reviewer: { timeoutMs: 3000000000 }, knowlege: 'docs' }));
  const run = await runCli(['knowledge', 'check', 'docs'], { cwd: r.dir });
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /revtrail\.config\.json: unknown key "knowlege"; "reviewer\.timeoutMs" is invalid: must be at most 2147483647/,
  );
  assert.match(run.stdout, /1 error/);

  const json = await runCli(['knowledge', 'check', 'docs', '--json'], { cwd: r.dir });
  assert.equal(json.code, 2);
  const report = JSON.parse(json.stdout) as { errors: Array<{ message: string }> };
  assert.match(report.errors[0]!.message, /unknown key "knowlege"/);

  r.write('revtrail.config.json', '{}');
  const fine = await runCli(['knowledge', 'check', 'docs'], { cwd: r.dir });
  assert.equal(fine.code, 0, fine.stdout + fine.stderr);
});
