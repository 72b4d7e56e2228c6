/**
 * What the commit-msg hook costs on every commit: which git processes it runs (GIT_TRACE shows
 * each one). The common case reads no history and spawns no `git interpret-trailers`; those run
 * only when a finding, a hand-written trailer or a queued verdict needs them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEBUGGER_LINE, installedRepo, openedFiles, type HookRepo } from '../kit/hooks.js';

// Repositories are tempDirs, removed when this file's tests end (test/kit/repo.ts). The first
// commit's own review may leave a clean-check record (on a loaded machine, more than two seconds
// after the bundle was written, its files are known by their stat()): each test starts without
// one, so what a commit reads does not depend on how long the setup took.
async function repo(): Promise<HookRepo> {
  const r = await installedRepo();
  rmSync(join(r.dir, '.git', 'revtrail', 'clean-check-v1.json'), { force: true });
  return r;
}

/** Runs `revtrail hook commit-msg` on `message`; returns the git commands it ran, sorted, and the file after. */
async function hookGitCommands(
  r: HookRepo,
  message: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stderr: string; commands: string[]; after: string }> {
  const file = join(r.dir, '.git', 'HOT_MSG');
  const trace = join(r.dir, '.git', 'hot-trace.log');
  writeFileSync(file, message);
  writeFileSync(trace, '');
  const run = await r.cli(['hook', 'commit-msg', file], { env: { GIT_TRACE: trace, ...env } });
  const commands = [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git (\S+)/g)].map((m) => m[1]!).sort();
  return { code: run.code, stderr: run.stderr, commands, after: readFileSync(file, 'utf8') };
}

test('nothing found, nothing queued: three git commands, no history read, no interpret-trailers, nothing saved', async () => {
  const r = await repo();
  r.write('clean.js', 'export const x = 1;\n');
  r.git(['add', '-A']);
  const run = await hookGitCommands(r, 'feat: clean\n');
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(run.commands, ['config', 'diff', 'rev-parse']);
  assert.equal(run.after, 'feat: clean\n');
  assert.equal(existsSync(join(r.dir, '.git', 'revtrail', 'last-review.json')), false);
});

test('a finding: the history is read (already recorded?) and the trailer goes in through git interpret-trailers', async () => {
  const r = await repo();
  r.write('src/a.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  const run = await hookGitCommands(r, 'feat: a\n');
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.commands.includes('log'), run.commands.join(' '));
  // One read of the history serves both verdict suppression and "already recorded".
  assert.equal(run.commands.filter((c) => c === 'log').length, 1, run.commands.join(' '));
  assert.ok(run.commands.includes('interpret-trailers'), run.commands.join(' '));
  // The start-up's clean check hands its reads on: the staged diff is read once.
  assert.equal(run.commands.filter((c) => c === 'diff').length, 1, run.commands.join(' '));
  assert.match(run.after, /^feat: a\n\nReview-Finding: rf-[0-9a-f]{10},src\/a\.js,1,builtin\/debug:debugger,/);
});

test('a clean commit after one with findings empties the commit-msg entry of last-review.json', async () => {
  const r = await repo();
  const lastReview = () =>
    JSON.parse(readFileSync(join(r.dir, '.git', 'revtrail', 'last-review.json'), 'utf8')) as {
      reviews: Record<string, { findings: unknown[] }>;
    };
  r.write('src/a.js', `${DEBUGGER_LINE}\n`);
  r.git(['add', '-A']);
  const first = await r.run(['commit', '-m', 'feat: a']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(lastReview().reviews['commit-msg']!.findings.length, 1);
  r.write('src/a.js', 'export const fixed = true;\n');
  r.git(['add', '-A']);
  const second = await r.run(['commit', '-m', 'fix: a']);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(lastReview().reviews['commit-msg']!.findings, []);
});

test('no structural rule in the selected documents: the syntax-tree parser is never loaded; with one, it is', async () => {
  const r = await repo();
  // A preload that notes every @ast-grep module the hook requires (docs/structural.md "Bounded").
  const probe = join(r.dir, '.git', 'probe.cjs');
  const loads = join(r.dir, '.git', 'loads.log');
  writeFileSync(
    probe,
    `const M = require('module'); const fs = require('fs'); const load = M._load;\nM._load = function (request, ...rest) { if (String(request).startsWith('@ast-grep/')) fs.appendFileSync(${JSON.stringify(loads)}, request + '\\n'); return load.call(this, request, ...rest); };\n`,
  );
  const commit = async (file: string) => {
    writeFileSync(loads, '');
    r.write(file, 'export function list() {\n  return db.query("SELECT 1");\n}\n');
    r.git(['add', '-A']);
    const run = await hookGitCommands(r, 'feat: list\n', { NODE_OPTIONS: `--require ${probe}` });
    assert.equal(run.code, 0, run.stderr);
    return readFileSync(loads, 'utf8');
  };
  assert.equal(await commit('src/controllers/a.ts'), '');
  const adr = join(r.dir, '.okfw', 'decisions', 'adr-0001.md');
  writeFileSync(
    adr,
    readFileSync(adr, 'utf8').replace(
      '  rules:\n',
      '  rules:\n    - id: no-db-call\n      ast: db.query($$$)\n      language: typescript\n      severity: nit\n      title: Controller calls the database\n',
    ),
  );
  assert.match(await commit('src/controllers/b.ts'), /^@ast-grep\/napi$/m);
});

test("a push's review of a commit the commit-msg hook reviewed reads the facts that hook kept: the parser is not loaded, the findings are the same", async () => {
  const r = await repo();
  const probe = join(r.dir, '.git', 'probe.cjs');
  const loads = join(r.dir, '.git', 'loads.log');
  writeFileSync(
    probe,
    `const M = require('module'); const fs = require('fs'); const load = M._load;\nM._load = function (request, ...rest) { if (String(request).startsWith('@ast-grep/')) fs.appendFileSync(${JSON.stringify(loads)}, request + '\\n'); return load.call(this, request, ...rest); };\n`,
  );
  const adr = join(r.dir, '.okfw', 'decisions', 'adr-0001.md');
  writeFileSync(
    adr,
    readFileSync(adr, 'utf8').replace(
      '  rules:\n',
      '  rules:\n    - id: no-any-cast\n      ast: $X as any\n      language: typescript\n      severity: nit\n      title: Cast to any\n    - id: no-pg\n      imports: { forbid: ["pg"] }\n      severity: nit\n      title: Controller imports pg\n',
    ),
  );
  r.commit('chore: rules', { 'src/controllers/c.ts': 'export function list() {\n  return 1;\n}\n' });
  r.write(
    'src/controllers/c.ts',
    "import pg from 'pg';\nexport function list(x: unknown) {\n  const n = x as any;\n  return n;\n}\n",
  );
  r.git(['add', '-A']);
  writeFileSync(loads, '');
  const hook = await hookGitCommands(r, 'feat: list\n', { NODE_OPTIONS: `--require ${probe}` });
  assert.equal(hook.code, 0, hook.stderr);
  assert.match(readFileSync(loads, 'utf8'), /^@ast-grep\/napi$/m);
  assert.match(hook.after, /src\/controllers\/c\.ts,3,[^,\n]*no-any-cast/);
  assert.match(hook.after, /src\/controllers\/c\.ts,1,[^,\n]*no-pg/);
  r.git(['commit', '-q', '--no-verify', '-m', 'feat: list']);
  const asJson = async () => {
    writeFileSync(loads, '');
    const run = await r.cli(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], {
      env: { NODE_OPTIONS: `--require ${probe}` },
    });
    return {
      loads: readFileSync(loads, 'utf8'),
      found: (JSON.parse(run.stdout) as { findings: Array<{ rule_source: string; line: number }> }).findings
        .map((f) => `${f.rule_source}@${f.line}`)
        .sort(),
    };
  };
  const push = await asJson();
  assert.equal(push.loads, '', "both versions were the commit-msg hook's: no parser loaded");
  assert.deepEqual(
    push.found.filter((f) => !f.startsWith('builtin/')),
    ['adr-0001:no-any-cast@3', 'adr-0001:no-pg@1'].sort(),
  );
  // Without the kept facts the same review parses, and finds the same.
  rmSync(join(r.dir, '.git', 'revtrail', 'tree-facts-v1'), { recursive: true });
  const cold = await asJson();
  assert.match(cold.loads, /^@ast-grep\/napi$/m);
  assert.deepEqual(cold.found, push.found);
  // Damaged facts are no facts: computed again, the same findings.
  const facts = join(r.dir, '.git', 'revtrail', 'tree-facts-v1');
  for (const name of readdirSync(facts)) writeFileSync(join(facts, name), '{"facts": {"parse": [false, 1]');
  const damaged = await asJson();
  assert.match(damaged.loads, /^@ast-grep\/napi$/m);
  assert.deepEqual(damaged.found, push.found);
});

test('a clean commit under a policy a review already ran: decided without reading the bundle or its cache; a changed bundle file is reviewed again', async () => {
  const r = await repo();
  // A bundle file changed within the last two seconds is not known by its stat() (the racy case): wait.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const files = openedFiles(r.dir);
  const commit = async () => {
    files.reset();
    const run = await hookGitCommands(r, 'feat: a\n', files.env);
    assert.equal(run.code, 0, run.stderr);
    return { ...run, opened: files.read() };
  };
  r.write('src/controllers/a.ts', 'export const x = 1;\n');
  r.git(['add', '-A']);
  const first = await commit();
  // Reviewed in full: the bundle is read, from its cache or its snapshot (timing decides which).
  assert.match(first.opened, /bundle-(?:cache|snapshot)-v1\.json/, 'the first commit of a policy is reviewed in full');
  assert.ok(existsSync(join(r.dir, '.git', 'revtrail', 'clean-check-v1.json')));
  const second = await commit();
  // Decided from the start-up's small bundle (lib/flows/commit-start.ts): not even core.commentChar.
  assert.deepEqual(second.commands, ['diff', 'rev-parse']);
  assert.doesNotMatch(second.opened, /bundle-(?:cache|snapshot)-v1\.json|\.okfw[\\/]|derived-v1\.json/, second.opened);
  assert.equal(second.after, 'feat: a\n');
  // A rule the staged line matches, in the work tree's bundle: the same commit is reviewed again and found.
  const adr = join(r.dir, '.okfw', 'decisions', 'adr-0001.md');
  writeFileSync(adr, readFileSync(adr, 'utf8').replace(String.raw`'\bdb\.query\('`, `'export const x'`));
  const third = await commit();
  assert.match(
    third.after,
    /Review-Finding: rf-[0-9a-f]{10},src\/controllers\/a\.ts,1,adr-0001:no-db-query,/,
    third.stderr,
  );
});
