/**
 * The doc map (docs/bundle.md "Doc map"): plain design documents mapped to globs, read beside
 * the bundle. Real repositories, real files, the real CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle, formatDiagnostic } from '../../lib/bundle/load.js';
import { bundleCacheFile } from '../../lib/bundle/cache.js';
import { MAX_FILE_BYTES } from '../../lib/bundle/read.js';
import { runCli, tempDir, throwawayRepos, type TestRepo } from '../kit/repo.js';

const repo = throwawayRepos();

interface Report {
  chunks: Array<{
    path: string;
    documents: Array<{ id: string; match: string; matched: string; tokens: number; truncated: boolean }>;
  }>;
  warnings: string[];
}

const DOCS: Record<string, string> = {
  'docs/adr/0001-store.md': '# Store decision\n\nAll reads go through the repository.\n',
  'docs/domain/billing.md':
    '---\nid: billing\ntitle: Billing rules\nrules:\n  - id: no-float\n    pattern: parseFloat\n    severity: bug\n    title: No floats for money\n---\n# Billing\n\nMoney is in cents.\n',
  'docs/domain/sub/z-tax.md': '# Tax\n\nTax is computed late.\n',
  'docs/domain/sub/a-rates.md': 'Rates have no heading.\n',
  'docs/domain/notes.txt': 'not markdown\n',
};

function docMapRepo(map: string, extra: Record<string, string> = {}, config: Record<string, unknown> = {}): TestRepo {
  const r = repo();
  r.commit('docs', {
    ...DOCS,
    'doc-map.yaml': map,
    'revtrail.config.json': JSON.stringify({ docMap: 'doc-map.yaml', ...config }),
    ...extra,
  });
  return r;
}

async function select(r: TestRepo, files: Record<string, string>): Promise<Report> {
  for (const [path, text] of Object.entries(files)) r.write(path, text);
  r.git(['add', '-A']);
  const run = await runCli(['knowledge', 'select', '--staged', '--json'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Report;
}

const docsOf = (report: Report) =>
  Object.fromEntries(report.chunks.map((c) => [c.path, c.documents.map((d) => `${d.id} ${d.match}:${d.matched}`)]));

test('mapped documents are selected with match doc-map and the glob that matched; folders expand; one concept across mappings', async () => {
  const r = docMapRepo(
    [
      'mappings:',
      '  - paths: ["src/store/**"]',
      '    docs: [docs/adr/0001-store.md, docs/domain/billing.md]',
      '  - paths: ["src/**/*.js", "src/store/**"]',
      '    docs: [docs/domain]',
      '',
    ].join('\n'),
  );
  const report = await select(r, { 'src/store/a.js': 'x = 1\n', 'src/pay.js': 'y = 2\n', 'lib/other.js': 'z\n' });
  assert.deepEqual(docsOf(report), {
    'lib/other.js': [],
    // billing is named by both mappings: once, by its most specific glob.
    'src/pay.js': [
      'billing doc-map:src/**/*.js',
      'docs/domain/sub/a-rates doc-map:src/**/*.js',
      'docs/domain/sub/z-tax doc-map:src/**/*.js',
    ],
    'src/store/a.js': [
      'billing doc-map:src/store/**',
      'docs/adr/0001-store doc-map:src/store/**',
      'docs/domain/sub/a-rates doc-map:src/store/**',
      'docs/domain/sub/z-tax doc-map:src/store/**',
    ],
  });
  assert.deepEqual(report.warnings, []);

  const bundle = await loadBundle(join(r.dir, '.okfw'), {
    base: r.dir,
    docMap: { file: join(r.dir, 'doc-map.yaml'), top: r.dir },
  });
  assert.deepEqual(bundle.diagnostics, []);
  // Doc map order, a folder in name order (sub/a before sub/z, the .txt left out), each document once.
  assert.deepEqual(
    bundle.concepts.map((c) => [c.id, c.file, c.title, c.paths]),
    [
      ['docs/adr/0001-store', 'docs/adr/0001-store.md', 'Store decision', ['src/store/**']],
      ['billing', 'docs/domain/billing.md', 'Billing rules', ['src/store/**', 'src/**/*.js']],
      [
        'docs/domain/sub/a-rates',
        'docs/domain/sub/a-rates.md',
        'docs/domain/sub/a-rates',
        ['src/**/*.js', 'src/store/**'],
      ],
      ['docs/domain/sub/z-tax', 'docs/domain/sub/z-tax.md', 'Tax', ['src/**/*.js', 'src/store/**']],
    ],
  );
  assert.deepEqual(
    bundle.concepts[1]!.rules.map((rule) => rule.ruleSource),
    ['billing:no-float'],
  );
});

test("a mapped document's frontmatter rules run in the review; the budget applies to mapped documents", async () => {
  const r = docMapRepo(
    'mappings:\n  - paths: ["src/**"]\n    docs: [docs/domain/billing.md, docs/adr]\n',
    {},
    { maxKnowledgeTokens: 5 },
  );
  r.write('src/price.js', 'const p = parseFloat(input)\n');
  r.git(['add', '-A']);
  const run = await runCli(['review', '--staged', '--json'], { cwd: r.dir });
  const review = JSON.parse(run.stdout) as { findings: Array<{ rule_source: string; citations: string[] }> };
  assert.deepEqual(
    review.findings.map((f) => [f.rule_source, f.citations]),
    [['billing:no-float', ['billing']]],
  );

  const report = await select(r, {});
  // Billing's body (5 tokens and more) is cut to the budget, and the list ends there.
  assert.deepEqual(
    report.chunks[0]!.documents.map((d) => [d.id, d.truncated, d.tokens <= 5]),
    [['billing', true, true]],
  );
});

test('bad parts are warnings that name them; the rest is mapped', async () => {
  const outside = tempDir();
  writeFileSync(join(outside, 'secret.md'), '# Outside\n');
  const big = `# Big\n\n${'a'.repeat(MAX_FILE_BYTES + 10)}\n`;
  const r = docMapRepo(
    [
      'version: 2',
      'mappings:',
      '  - paths: ["src/**"]',
      '    docs:',
      '      - docs/adr/0001-store.md',
      '      - docs/missing.md',
      '      - docs/empty',
      '      - docs/escape.md',
      '      - ../outside.md',
      '      - docs/big.md',
      '      - docs/linked',
      '    owner: team-a',
      '  - paths: ["src/**"]',
      '  - just text',
      '',
    ].join('\n'),
    { 'docs/big.md': big, 'docs/empty/readme.txt': 'no markdown here\n' },
  );
  symlinkSync(join(outside, 'secret.md'), join(r.dir, 'docs', 'escape.md'));
  mkdirSync(join(r.dir, 'docs', 'linked'));
  writeFileSync(join(r.dir, 'docs', 'linked', 'inside.md'), '# Inside\n');
  symlinkSync(outside, join(r.dir, 'docs', 'linked', 'out'));
  const bundle = await loadBundle(join(r.dir, '.okfw'), {
    base: r.dir,
    docMap: { file: join(r.dir, 'doc-map.yaml'), top: r.dir },
  });
  assert.deepEqual(bundle.diagnostics.map(formatDiagnostic), [
    'doc-map.yaml:1: warning: unknown key "version" in the doc map; ignored (keys: mappings)',
    'doc-map.yaml:12: warning: unknown key "owner" in mapping #1; ignored (keys: paths, docs)',
    'doc-map.yaml:6: warning: document docs/missing.md: no such file or folder; skipped',
    'doc-map.yaml:7: warning: folder docs/empty holds no .md file; nothing mapped',
    `doc-map.yaml:8: warning: document docs/escape.md resolves (through a symlink) to ${join(outside, 'secret.md')}, outside the work tree; refused`,
    'doc-map.yaml:9: warning: document ../outside.md lies outside the work tree; refused',
    `doc-map.yaml:11: warning: document docs/linked/out resolves (through a symlink) to ${outside}, outside the work tree; refused`,
    'doc-map.yaml:13: warning: mapping #2 has no `docs` (files or folders); skipped',
    'doc-map.yaml:14: warning: mapping #3 is not a {paths, docs} mapping; skipped',
    'docs/big.md: warning: this file is 1.0 MiB, over the 1 MiB cap: only its first 1 MiB is read',
  ]);
  assert.deepEqual(
    bundle.concepts.map((c) => c.id),
    ['docs/adr/0001-store', 'docs/big', 'docs/linked/inside'],
  );
  // Read up to the cap: the first MiB of the file is the body.
  assert.equal(bundle.concepts[1]!.body.length, MAX_FILE_BYTES);
  assert.ok(bundle.concepts[1]!.body.startsWith('# Big\n\naaa'));
  assert.equal(bundle.docMap?.unusable, false);
});

test('invalid YAML in the doc map: a warning in the review (the baseline still runs), exit 2 in knowledge check', async () => {
  const r = docMapRepo('mappings: [oops\n');
  r.write('src/app.js', 'function f() {\n  debugger;\n}\n');
  r.git(['add', '-A']);
  const review = await runCli(['review', '--staged', '--json'], { cwd: r.dir });
  const result = JSON.parse(review.stdout) as { findings: Array<{ rule_source: string }>; warnings: string[] };
  assert.ok(
    result.findings.some((f) => f.rule_source.startsWith('builtin/')),
    review.stdout,
  );
  assert.ok(
    result.warnings.some((w) => w.includes('doc-map.yaml:2') && w.includes('the doc map is not valid YAML')),
    result.warnings.join('\n'),
  );

  const check = await runCli(['knowledge', 'check'], { cwd: r.dir });
  assert.equal(check.code, 2, check.stdout + check.stderr);
  assert.match(check.stdout, /doc-map\.yaml:2: warning: the doc map is not valid YAML/);
  // A valid doc map checks fine, with no bundle at all.
  r.write('doc-map.yaml', 'mappings:\n  - paths: ["src/**"]\n    docs: [docs/adr]\n');
  const fixed = await runCli(['knowledge', 'check', '--json'], { cwd: r.dir });
  assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
  const report = JSON.parse(fixed.stdout) as {
    concepts: Array<{ id: string; mapped?: boolean }>;
    docMap: { usable: boolean; documents: number };
    warnings: unknown[];
  };
  assert.deepEqual(
    report.concepts.map((c) => [c.id, c.mapped]),
    [['docs/adr/0001-store', true]],
  );
  assert.deepEqual(report.docMap, { file: 'doc-map.yaml', usable: true, documents: 1 });
  assert.deepEqual(report.warnings, []);
});

test('the doc map and the bundle combine; an ID clash is one error', async () => {
  const r = docMapRepo('mappings:\n  - paths: ["src/**"]\n    docs: [docs/adr, docs/domain/billing.md]\n', {
    '.okfw/index.md': '[billing](billing.md) [store](store.md)\n',
    '.okfw/billing.md': '---\ntype: Decision\nid: billing\npaths: ["lib/**"]\n---\n# Bundle billing\n',
    '.okfw/store.md': '---\ntype: Decision\nid: bundle-store\npaths: ["src/**"]\n---\n# Bundle store\n',
  });
  const check = await runCli(['knowledge', 'check'], { cwd: r.dir });
  assert.equal(check.code, 1, check.stdout);
  assert.deepEqual(
    check.stdout.split('\n').filter((l) => l.includes('billing')),
    [
      'docs/domain/billing.md:2: mapped document has id "billing", which .okfw/billing.md has too; this one is ignored (give one of them another `id`)',
    ],
  );
  const report = await select(r, { 'src/x.js': 'x\n' });
  assert.deepEqual(docsOf(report), { 'src/x.js': ['bundle-store paths:src/**', 'docs/adr/0001-store doc-map:src/**'] });
});

test('the bundle cache covers mapped documents: a changed one is picked up, an unchanged one is not parsed again', async () => {
  const r = docMapRepo('mappings:\n  - paths: ["src/**"]\n    docs: [docs/adr, docs/domain/sub]\n');
  const cacheFile = bundleCacheFile(join(r.dir, '.git'));
  const options = { base: r.dir, cacheFile, docMap: { file: join(r.dir, 'doc-map.yaml'), top: r.dir } };
  const titles = async () => (await loadBundle(join(r.dir, '.okfw'), options)).concepts.map((c) => c.title);
  assert.deepEqual(await titles(), ['Store decision', 'docs/domain/sub/a-rates', 'Tax']);
  // Mark the stored entries: a title that only the cache holds shows the file was not parsed again.
  const data = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
    bundles: Record<string, Record<string, { result: { concept: { title: string } } }>>;
  };
  const section = Object.entries(data.bundles).find(([key]) => key.endsWith('doc-map.yaml'))![1];
  assert.deepEqual(Object.keys(section).sort(), [
    'docs/adr/0001-store.md',
    'docs/domain/sub/a-rates.md',
    'docs/domain/sub/z-tax.md',
  ]);
  for (const entry of Object.values(section)) entry.result.concept.title = `cached ${entry.result.concept.title}`;
  writeFileSync(cacheFile, JSON.stringify(data));
  r.write('docs/domain/sub/z-tax.md', '# Tax, revised\n');
  assert.deepEqual(await titles(), ['cached Store decision', 'cached docs/domain/sub/a-rates', 'Tax, revised']);
});

test('init --doc-map writes a config that names a starter doc map, which checks clean; an existing config is kept and named', async () => {
  const r = repo();
  const run = await runCli(['init', '--doc-map', '--json'], { cwd: r.dir });
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { written: string[]; docMap: { path: string; configured: boolean } };
  assert.deepEqual(report.written, ['revtrail.config.json', 'doc-map.yaml']);
  assert.deepEqual(report.docMap, { path: 'doc-map.yaml', configured: true });
  assert.equal(JSON.parse(readFileSync(join(r.dir, 'revtrail.config.json'), 'utf8')).docMap, 'doc-map.yaml');
  const check = await runCli(['knowledge', 'check', '--json'], { cwd: r.dir });
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.deepEqual(JSON.parse(check.stdout).warnings, []);

  const kept = repo();
  kept.write('revtrail.config.json', '{ "chunkLines": 50 }\n');
  const second = await runCli(['init', '--doc-map'], { cwd: kept.dir });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /kept {2}revtrail\.config\.json/);
  assert.match(second.stdout, /add "docMap": "doc-map\.yaml" to it/);
  assert.equal(readFileSync(join(kept.dir, 'revtrail.config.json'), 'utf8'), '{ "chunkLines": 50 }\n');
});
