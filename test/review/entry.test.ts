/** review() as the hooks call it: a repository and configuration the caller already has are used as given. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { review } from '../../lib/review/index.js';
import { findRepo } from '../../lib/core/git/repo.js';
import { loadConfig } from '../../lib/config/load.js';
import { makeRepo, writeFiles } from '../kit/repo.js';

test("review() with the caller's repo and config gives what it finds itself, and takes the config as given", async (t) => {
  const repo = makeRepo();
  t.after(() => repo.cleanup());
  repo.commit('base', { 'src/a.ts': 'export const a = 1;\n' });
  writeFiles(join(repo.dir, '.okfw'), {
    'index.md': '[adr](adr.md)\n',
    'adr.md':
      '---\ntype: Decision\nid: adr-1\npaths: ["src/**"]\nrules:\n  - id: no-console\n    pattern: console\\.log\n    severity: nit\n    category: style\n    title: console.log left in\n---\n# ADR\n',
  });
  repo.write('src/a.ts', 'export const a = 2;\nconsole.log(a);\ndebugger;\n');
  repo.git(['add', 'src/a.ts']);
  const plain = await review({ cwd: repo.dir, source: { kind: 'staged' } });
  assert.deepEqual(plain.findings.map((f) => f.rule_source).sort(), ['adr-1:no-console', 'builtin/debug:debugger']);
  const found = await findRepo(repo.dir);
  const { config } = await loadConfig(found.top);
  const given = await review({ cwd: repo.dir, source: { kind: 'staged' }, repo: found, config });
  assert.deepEqual(given, plain);
  const noBaseline = await review({
    cwd: repo.dir,
    source: { kind: 'staged' },
    repo: found,
    config: { ...config, builtinRules: false },
  });
  assert.deepEqual(
    noBaseline.findings.map((f) => f.rule_source),
    ['adr-1:no-console'],
  );
});
