/** `revtrail rules` through the real CLI: the rules in force, where each comes from, what no config switches off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli, throwawayRepos, writeFiles } from '../kit/repo.js';

const repos = throwawayRepos();

const ADR = `---
type: Architecture Decision
id: adr-1
title: Controllers go through services
x:
  paths: ["src/**"]
  rules:
    - id: no-db-import
      imports: { forbid: ["src/db/**"] }
      severity: bug
      title: Controller imports the database layer
    - id: no-todo
      pattern: 'TODO\\(nobody\\)'
      severity: nit
      title: Unowned TODO
---
Body.
`;

interface Row {
  rule_source: string;
  kind: string;
  severity: string;
  category: string;
  source: string;
  always_on: boolean;
}

test('rules --json: the baseline the config leaves on, credential rules always on, the bundle rules with their file and kind', async () => {
  const r = repos();
  writeFiles(r.dir, {
    '.okfw/index.md': '- [adr](adr-1.md)\n',
    '.okfw/adr-1.md': ADR,
    'revtrail.config.json': JSON.stringify({ builtinRules: ['debug', 'builtin/secrets:private-key'] }),
    'src/x.ts': '',
  });
  const run = await runCli(['rules', '--json'], { cwd: join(r.dir, 'src') });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const out = JSON.parse(run.stdout) as { bundle: string; rules: Row[] };
  assert.equal(out.bundle, '../.okfw');
  const by = new Map(out.rules.map((x) => [x.rule_source, x]));
  // Switched off by the config: gone. A credential rule the config names: still in force.
  assert.equal(by.has('builtin/debug:debugger'), false);
  assert.deepEqual(by.get('builtin/secrets:private-key'), {
    ...by.get('builtin/secrets:private-key'),
    kind: 'regex',
    source: 'builtin',
    always_on: true,
    severity: 'security',
  });
  assert.equal(by.get('builtin/git:conflict-marker')?.always_on, false);
  assert.deepEqual(
    out.rules
      .filter((x) => x.source !== 'builtin')
      .map((x) => [x.rule_source, x.kind, x.severity, x.source, x.always_on]),
    [
      ['adr-1:no-todo', 'regex', 'nit', '../.okfw/adr-1.md', false],
      ['adr-1:no-db-import', 'imports', 'bug', '../.okfw/adr-1.md', false],
    ],
  );
});

test('rules: a table with the credential rules marked and a summary line', async () => {
  const r = repos();
  writeFiles(r.dir, {
    '.okfw/index.md': '- [adr](adr-1.md)\n',
    '.okfw/adr-1.md': ADR,
    'revtrail.config.json': '{"builtinRules": false}\n',
  });
  const run = await runCli(['rules'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^RULE +KIND +SEVERITY +CATEGORY +SOURCE$/);
  assert.match(
    run.stdout,
    /^builtin\/secrets:private-key +regex +security +security +builtin +always on \(credential\)$/m,
  );
  assert.match(run.stdout, /^adr-1:no-db-import +imports +bug +\S+ +\.okfw\/adr-1\.md$/m);
  // builtinRules: false leaves only the credential rules.
  assert.doesNotMatch(run.stdout, /builtin\/git:conflict-marker/);
  assert.match(lines.at(-1)!, /^(\d+) built-in \(\1 always on\), 2 from the bundle \(\.okfw\)$/);
});

test('rules: a config that cannot be used is named on stderr; the defaults and the whole baseline still list', async () => {
  const r = repos();
  writeFiles(r.dir, {
    '.okfw/index.md': '- [adr](adr-1.md)\n',
    '.okfw/adr-1.md': ADR,
    'revtrail.config.json': '{"builtinRules": false, "minConfidense": 1}\n',
  });
  const run = await runCli(['rules', '--json'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^revtrail: .*revtrail\.config\.json.*minConfidense.*; listing the rules of the default configuration\n$/,
  );
  const out = JSON.parse(run.stdout) as { rules: Row[] };
  // The defaults: builtinRules true, so the config's `false` did not reach the baseline.
  assert.ok(out.rules.some((x) => x.rule_source === 'builtin/git:conflict-marker'));
  assert.ok(out.rules.some((x) => x.rule_source === 'adr-1:no-todo'));
});
