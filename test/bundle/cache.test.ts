/** The parsed-concept cache: hits, invalidation by edits and removals, and the same bundle with or without it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../../lib/bundle/load.js';
import { bundleCacheFile, statSignature } from '../../lib/bundle/cache.js';
import { makeRepo, runCli, tempDir, writeFiles } from '../kit/repo.js';
import { bundleView, concept } from '../kit/bundle.js';

const FILES: Record<string, string> = {
  'index.md': '[a](a.md) [b](b.md) [bad](bad.md) [dup](dup.md) [rules](rules.md) [notype](notype.md)\n',
  'a.md': concept('type: Decision\nid: adr-a\npaths: ["src/**"]\ndomain: store\ntags: [t1, t2]'),
  'b.md': concept(
    'type: Guide\ntitle: B guide\nx:\n  domain: [Shop.Repositories]\n  rules:\n    - id: no-console\n      pattern: console\\.log\n      flags: gi\n      severity: nit\n      category: style\n      title: console.log left in\n      paths: ["src/**"]\n      exclude: ["src/**/*.test.ts"]',
  ),
  'bad.md': '---\ntype: Note\npaths: [src/**\n---\nbody\n',
  'dup.md': concept('type: Note\nid: adr-a'),
  'rules.md': concept(
    'type: Decision\npaths: ["src/**"]\nrules:\n  - id: broken\n    pattern: "(unclosed"\n    severity: bug\n    title: Broken\n  - id: ok\n    pattern: "TODO\\\\("\n    severity: suggestion\n    title: A todo\n    confidence: 0.9',
  ),
  'notype.md': concept('title: No type'),
};

function setup(): { dir: string; kb: string; cacheFile: string } {
  const dir = tempDir();
  writeFiles(join(dir, 'kb'), FILES);
  return { dir, kb: join(dir, 'kb'), cacheFile: join(dir, 'git', 'revtrail', 'bundle-cache-v1.json') };
}

function cached(cacheFile: string): {
  bundles: Record<string, Record<string, { hash: string; result: { concept: { title: string } | null } }>>;
} {
  return JSON.parse(readFileSync(cacheFile, 'utf8'));
}

test('the cache gives the same bundle as parsing: diagnostics, rules and their regexes, duplicates', async () => {
  const { dir, kb, cacheFile } = setup();
  const plain = bundleView(await loadBundle(kb, { base: dir }));
  const first = bundleView(await loadBundle(kb, { base: dir, cacheFile }));
  assert.ok(existsSync(cacheFile));
  const second = bundleView(await loadBundle(kb, { base: dir, cacheFile }));
  assert.deepEqual(first, plain);
  assert.deepEqual(second, plain);
  // The fixture exercises what is stored: problems, a skipped file, a duplicate, compiled and broken rules.
  const p = plain as {
    diagnostics: string[];
    concepts: Array<{ id: string; rules: Array<{ ruleSource: string; regex: string }> }>;
  };
  assert.deepEqual(
    p.concepts.map((c) => c.id),
    ['adr-a', 'b', 'rules'],
  );
  assert.deepEqual(
    p.concepts[1]!.rules.map((r) => r.regex),
    ['/console\\.log/i'],
  );
  assert.deepEqual(
    p.concepts[2]!.rules.map((r) => r.ruleSource),
    ['rules:ok'],
  );
  assert.equal(p.diagnostics.length, 4);
  // A restored rule's regex works like a compiled one.
  const b = (await loadBundle(kb, { base: dir, cacheFile })).concepts[1]!.rules[0]!;
  assert.equal(b.regex.test('Console.Log(1)'), true);
});

test('a hit is served from the cache without parsing the file again', async () => {
  const { dir, kb, cacheFile } = setup();
  await loadBundle(kb, { base: dir, cacheFile });
  // Tamper with the stored parse of a.md (its text, and so its hash, unchanged): the load shows the stored value.
  const data = cached(cacheFile);
  const section = Object.values(data.bundles)[0]!;
  section['a.md']!.result.concept!.title = 'From the cache';
  writeFileSync(cacheFile, JSON.stringify(data));
  const b = await loadBundle(kb, { base: dir, cacheFile });
  assert.equal(b.concepts.find((c) => c.id === 'adr-a')!.title, 'From the cache');
  // Without the cache the file is parsed.
  assert.equal((await loadBundle(kb, { base: dir })).concepts.find((c) => c.id === 'adr-a')!.title, 'Heading');
});

test('an edited file is parsed again, even with the same size and timestamp', async () => {
  const { dir, kb, cacheFile } = setup();
  await loadBundle(kb, { base: dir, cacheFile });
  // Same length, different text: only the content decides.
  const before = readFileSync(join(kb, 'a.md'), 'utf8');
  const edited = before.replace('Body text.', 'Body TEXT.');
  assert.equal(edited.length, before.length);
  writeFileSync(join(kb, 'a.md'), edited);
  const b = await loadBundle(kb, { base: dir, cacheFile });
  assert.equal(b.concepts.find((c) => c.id === 'adr-a')!.body, '# Heading\n\nBody TEXT.');
  assert.deepEqual(bundleView(b), bundleView(await loadBundle(kb, { base: dir })));
  // A fix of a broken file is seen at once.
  writeFileSync(join(kb, 'bad.md'), concept('type: Note\npaths: ["src/**"]'));
  const fixed = await loadBundle(kb, { base: dir, cacheFile });
  assert.ok(fixed.concepts.some((c) => c.id === 'bad'));
  assert.ok(!fixed.diagnostics.some((d) => d.file === 'kb/bad.md'));
});

test('a removed or unlisted file leaves the bundle and the cache', async () => {
  const { dir, kb, cacheFile } = setup();
  await loadBundle(kb, { base: dir, cacheFile });
  assert.ok('b.md' in Object.values(cached(cacheFile).bundles)[0]!);
  rmSync(join(kb, 'b.md'));
  const removed = await loadBundle(kb, { base: dir, cacheFile });
  assert.ok(!removed.concepts.some((c) => c.id === 'b'));
  assert.ok(removed.diagnostics.some((d) => d.message === 'link to b.md: no such file'));
  assert.ok(!('b.md' in Object.values(cached(cacheFile).bundles)[0]!));
  writeFileSync(join(kb, 'index.md'), '[a](a.md)\n');
  const unlisted = await loadBundle(kb, { base: dir, cacheFile });
  assert.deepEqual(
    unlisted.concepts.map((c) => c.id),
    ['adr-a'],
  );
  assert.deepEqual(Object.keys(Object.values(cached(cacheFile).bundles)[0]!), ['a.md']);
});

test('a deleted, damaged or unwritable cache only means parsing again', async () => {
  const { dir, kb, cacheFile } = setup();
  const plain = bundleView(await loadBundle(kb, { base: dir }));
  await loadBundle(kb, { base: dir, cacheFile });
  rmSync(cacheFile);
  assert.deepEqual(bundleView(await loadBundle(kb, { base: dir, cacheFile })), plain);
  assert.ok(existsSync(cacheFile));
  writeFileSync(cacheFile, '{"format":1, "bund');
  assert.deepEqual(bundleView(await loadBundle(kb, { base: dir, cacheFile })), plain);
  assert.equal(cached(cacheFile).bundles !== undefined, true);
  // A cache path whose folder is a file: nothing is written, nothing fails.
  writeFileSync(join(dir, 'blocker'), 'x');
  assert.deepEqual(
    bundleView(await loadBundle(kb, { base: dir, cacheFile: join(dir, 'blocker', 'cache.json') })),
    plain,
  );
});

test('two bundles share one cache file without evicting each other', async () => {
  const { dir, kb, cacheFile } = setup();
  writeFiles(join(dir, 'other'), { 'index.md': '[x](x.md)\n', 'x.md': concept('type: Note\ndomain: x') });
  await loadBundle(kb, { base: dir, cacheFile });
  await loadBundle(join(dir, 'other'), { base: dir, cacheFile });
  const sections = cached(cacheFile).bundles;
  assert.deepEqual(Object.keys(sections).sort(), [join(dir, 'kb'), join(dir, 'other')].sort());
  // A bundle that is gone loses its section at the next write.
  rmSync(join(dir, 'other'), { recursive: true });
  writeFileSync(join(dir, 'kb', 'a.md'), concept('type: Decision\nid: adr-a\npaths: ["lib/**"]'));
  await loadBundle(kb, { base: dir, cacheFile });
  assert.deepEqual(Object.keys(cached(cacheFile).bundles), [join(dir, 'kb')]);
});

test('knowledge select keeps its cache in the git common dir and prints the same with or without it', async (t) => {
  const repo = makeRepo();
  t.after(() => repo.cleanup());
  // The bundle is committed: the default diff (uncommitted changes, new files included) is src/a.ts alone.
  writeFiles(join(repo.dir, '.okfw'), FILES);
  repo.commit('base', { 'src/a.ts': 'export const a = 1;\n', 'README.md': 'x\n' });
  repo.write('src/a.ts', 'export const a = 2;\nconsole.log(a);\nTODO(a);\n');
  const cacheFile = bundleCacheFile(join(repo.dir, '.git'));
  const first = await runCli(['knowledge', 'select', '--json'], { cwd: repo.dir });
  assert.equal(first.code, 0, first.stderr);
  assert.ok(existsSync(cacheFile));
  const second = await runCli(['knowledge', 'select', '--json'], { cwd: repo.dir });
  assert.equal(second.stdout, first.stdout);
  const report = JSON.parse(first.stdout) as {
    chunks: Array<{ path: string; documents: Array<{ id: string }> }>;
    warnings: string[];
  };
  assert.deepEqual(
    report.chunks.map((c) => [c.path, c.documents.map((d) => d.id)]),
    [['src/a.ts', ['adr-a', 'rules']]],
  );
  assert.equal(report.warnings.length, 4);
  // The review reads the same cache: the bundle rule of b.md (domain Shop.Repositories) does not govern src/a.ts.
  const review = await runCli(['review', '--format', 'json'], { cwd: repo.dir });
  rmSync(cacheFile);
  const reviewWithout = await runCli(['review', '--format', 'json'], { cwd: repo.dir });
  assert.equal(review.stdout, reviewWithout.stdout);
  assert.equal(review.code, reviewWithout.code);
  assert.deepEqual(
    (JSON.parse(review.stdout) as { findings: Array<{ rule_source: string }> }).findings.map((f) => f.rule_source),
    ['rules:ok'],
  );
});

test('stat() signatures: an old file is not read again; new bytes under an old mtime (ctime moves) and a recent change are read', async () => {
  const { dir, kb, cacheFile } = setup();
  const hour = Date.now() / 1000 - 3600;
  for (const f of Object.keys(FILES)) utimesSync(join(kb, f), hour, hour);
  const plain = bundleView(await loadBundle(kb, { base: dir }));
  assert.deepEqual(bundleView(await loadBundle(kb, { base: dir, cacheFile })), plain);
  const entries = cached(cacheFile).bundles[realpathSync(kb)]!;
  // ctime is now for files written by this test: no signature until they are two seconds old.
  const signed = Object.values(entries).filter((e) => (e as { stat?: string }).stat !== undefined).length;
  assert.equal(signed, 0, 'files changed within two seconds (ctime) get no signature');
  assert.equal(statSignature({ size: 1, mtimeMs: 0, ctimeMs: 1000, ino: 1 }, 2999), undefined);
  assert.equal(statSignature({ size: 1, mtimeMs: 0, ctimeMs: 1000, ino: 1 }, 3001), '1:0:1000:1');

  // The same lookups with the clock two seconds on: every file has a signature and is found by it.
  const realNow = Date.now;
  Date.now = () => realNow() + 5000;
  try {
    assert.deepEqual(bundleView(await loadBundle(kb, { base: dir, cacheFile })), plain);
    const later = cached(cacheFile).bundles[realpathSync(kb)]!;
    assert.ok(
      Object.values(later).every((e) => typeof (e as { stat?: string }).stat === 'string'),
      'signatures kept',
    );
    // Same size, other bytes, mtime put back: the ctime still says the file changed.
    const a = join(kb, 'a.md');
    writeFileSync(a, FILES['a.md']!.replace('domain: store', 'domain: shop!'));
    utimesSync(a, hour, hour);
    const edited = await loadBundle(kb, { base: dir, cacheFile });
    assert.deepEqual(edited.concepts.find((c) => c.id === 'adr-a')!.domain, ['shop!']);
  } finally {
    Date.now = realNow;
  }
});
