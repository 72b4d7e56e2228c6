/**
 * The clean-commit check (lib/review/clean-check.ts) against the full review: over generated
 * bundles (literal, case-blind and regex rules), baselines (all, credentials only, a list) and
 * diffs (added, deleted and context lines of rule-shaped text, non-ASCII text, CRLF, long lines,
 * pieces cut by chunkLines, binary files), whenever the check says "clean", the review of the
 * same diff under the same policy finds nothing, suppresses nothing and warns of nothing.
 */
import type { Workspace } from '../../lib/workspace/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseConfig } from '../../lib/config/load.js';
import { runReview } from '../../lib/review/index.js';
import { preCheck, type CleanRecord } from '../../lib/review/clean-check.js';
import type { CappedDiff } from '../../lib/diff/cap.js';
import { cleanRecordOf } from '../../lib/review/clean-record.js';
import type { Bundle } from '../../lib/bundle/types.js';
import { MAX_LINE_LENGTH } from '../../lib/review/engine/rules.js';
import { concept } from '../kit/review.js';

/** The commit's pre-check says clean (the hooks' one question, review/clean-check.ts preCheck). */
const surelyClean = (diff: CappedDiff, record: CleanRecord): boolean =>
  preCheck(record, 'commit-msg')?.decide(diff).decision === 'clean';

const TOKENS = ['legacyCall', 'LegacyCall', 'fooBar', 'ab', 'cd', 'xyz', 'Widget', 'widget'];
const PATTERNS: Array<{ pattern: string; flags?: string }> = [
  { pattern: 'legacyCall\\(' },
  { pattern: 'legacycall', flags: 'i' },
  { pattern: 'fooBar|Widget' },
  { pattern: '(?:ab|cd)xyz' },
  { pattern: 'widget\\d+', flags: 'i' },
  { pattern: 'xyy+z\\b' },
  { pattern: 'ab cd' },
];
// Built-in triggers, assembled at run time so this file holds no credential-shaped literal.
const BUILTIN = [
  'debugger;',
  'console.log("x");',
  '// TODO fix',
  'AKIA' + 'QYLPMN2RZ4TK7WXB',
  'it.only(',
  '<<<<<<< HEAD',
  'password = "hunter2hunter2"',
  'SELECT * FROM t WHERE id = ${id}',
];
const WORDS = ['const a = 1;', 'return x;', '', '  ', 'é', 'ÉCOLE', '日本', '\u{1F600}', 'SK', 'api', '"', 'b(', '\\d'];

const text = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
      { weight: 2, arbitrary: fc.constantFrom(...TOKENS) },
      { weight: 1, arbitrary: fc.constantFrom(...BUILTIN) },
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(' '));
const line = fc.record({
  marker: fc.constantFrom('+', '+', '+', '-', ' '),
  t: fc.oneof({ weight: 30, arbitrary: text }, { weight: 1, arbitrary: fc.constant('x'.repeat(MAX_LINE_LENGTH + 1)) }),
  crlf: fc.boolean(),
});
const file = fc.record({
  path: fc.constantFrom('src/a.ts', 'src/b.js', 'lib/c.py', 'docs/ré.md', 'README.md'),
  lines: fc.array(line, { minLength: 1, maxLength: 10 }),
  binary: fc.boolean().map((b) => b && Math.random() < 0.1),
});

function diffOf(
  files: Array<{ path: string; lines: Array<{ marker: string; t: string; crlf: boolean }>; binary: boolean }>,
): string {
  return files
    .map(({ path, lines, binary }) => {
      const head = `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n`;
      if (binary) return `${head}Binary files a/${path} and b/${path} differ\n`;
      const old = lines.filter((l) => l.marker !== '+').length;
      const added = lines.filter((l) => l.marker !== '-').length;
      const body = lines.map((l) => `${l.marker}${l.t}${l.crlf ? '\r' : ''}\n`).join('');
      return `${head}--- a/${path}\n+++ b/${path}\n@@ -1,${old} +1,${added} @@\n${body}`;
    })
    .join('');
}

const policy = fc.record({
  concepts: fc.array(
    fc.record({
      rules: fc.subarray(PATTERNS, { maxLength: 3 }),
      paths: fc.constantFrom('**', 'src/**', 'lib/**').map((g) => [g]),
    }),
    { maxLength: 3 },
  ),
  builtinRules: fc.constantFrom<boolean | string[]>(true, ['debug'], ['tests', 'git']),
  chunkLines: fc.constantFrom(3, 400),
});

test('whenever the clean check says "clean", the full review finds nothing and warns of nothing', async () => {
  let clean = 0;
  let found = 0;
  await fc.assert(
    fc.asyncProperty(policy, fc.array(file, { minLength: 1, maxLength: 3 }), async (p, files) => {
      const config = await parseConfig({ builtinRules: p.builtinRules, chunkLines: p.chunkLines }, null);
      const concepts = p.concepts.map((c, i) => ({
        ...concept(
          `c${i}`,
          c.rules.map((r, k) => ({ id: `r${k}`, ...r })),
        ),
        paths: c.paths,
      }));
      const bundle: Bundle = { root: process.cwd(), concepts, diagnostics: [], sources: [] };
      const configSource = { file: 'revtrail.config.json', text: JSON.stringify(p) };
      const record = cleanRecordOf({ top: process.cwd(), config, configSource, configProblem: null }, bundle);
      assert.ok(record, 'every generated policy is one the check answers for');
      const diff = diffOf(files);
      const session: Workspace = {
        cwd: process.cwd(),
        repo: null,
        top: process.cwd(),
        configFile: null,
        configError: null,
        policyTop: process.cwd(),
        commonDir: null,
        policyCommit: null,
        config,
        configSource,
        configProblem: null,
        knowledge: process.cwd(),
        bundle: async () => bundle,
      };
      const result = await runReview(session, {
        cwd: process.cwd(),
        source: { kind: 'text', text: diff, name: 'generated' },
        model: false,
        history: async () => [],
      });
      if (result.findings.length) found++;
      if (!surelyClean({ text: diff, capped: [] }, record)) return;
      clean++;
      assert.deepEqual(result.findings, [], diff);
      assert.deepEqual(result.suppressed, [], diff);
      assert.deepEqual(result.warnings, [], diff);
      assert.equal(result.event, 'APPROVE');
    }),
    { numRuns: 500 },
  );
  // Both answers are common enough for the property to mean something (clean runs vary from
  // about 20 to 60 of 500 with the seed; 10 still means the property was exercised).
  assert.ok(clean >= 10, `clean ${clean}`);
  assert.ok(found > 30, `with findings ${found}`);
});

test('the check answers for no policy it cannot follow: a reviewer program, a rule without needles, a structural rule without paths, diagnostics', async () => {
  const base = await parseConfig({}, null);
  const source = { file: 'revtrail.config.json', text: '{}' };
  const bundle = (concepts: Bundle['concepts'], extra: Partial<Bundle> = {}): Bundle => ({
    root: process.cwd(),
    concepts,
    diagnostics: [],
    sources: [],
    ...extra,
  });
  const of = (config: typeof base, b: Bundle) =>
    cleanRecordOf({ top: process.cwd(), config, configSource: source, configProblem: null }, b);
  assert.ok(of(base, bundle([concept('a', [{ id: 'x', pattern: 'legacyCall' }])])));
  assert.equal(of(await parseConfig({ reviewer: { command: ['rev'] } }, null), bundle([])), null);
  assert.equal(of(base, bundle([concept('a', [{ id: 'x', pattern: 'a.b' }])])), null, 'no needle in a.b');
  const structural = (paths: string[]) =>
    ({
      kind: 'ast',
      id: 's',
      ast: 'db.query($$$)',
      language: 'typescript',
      paths,
      exclude: [],
      ruleSource: 'a:s',
    }) as never;
  assert.equal(
    of(base, bundle([{ ...concept('a'), structural: [structural([])] }])),
    null,
    'a structural rule without paths',
  );
  assert.deepEqual(
    of(base, bundle([{ ...concept('a'), structural: [structural(['src/**'])] }]))?.structuralGlobs.map((g) => g[0]),
    ['src/**'],
    'one with paths is kept by them',
  );
  assert.equal(
    of(base, bundle([], { diagnostics: [{ level: 'warning', file: null, line: null, message: 'x' }] })),
    null,
  );
  assert.equal(of(base, bundle([], { sources: undefined })), null, 'a bundle file not known by its signature');
  assert.equal(
    cleanRecordOf({ top: process.cwd(), config: base, configSource: source, configProblem: 'bad config' }, bundle([])),
    null,
  );
  assert.equal(
    of(await parseConfig({ builtinRules: false }, null), bundle([])),
    null,
    'a config the review warns about (credential rules stay)',
  );
});

test('a needle anywhere in a piece\'s added text, or a line too long for the rules, is "maybe"', async () => {
  const config = await parseConfig({}, null);
  const record = cleanRecordOf(
    { top: '/', config, configSource: { file: 'f', text: '' }, configProblem: null },
    { root: '/', concepts: [concept('a', [{ id: 'x', pattern: 'legacyCall' }])], diagnostics: [], sources: [] },
  )!;
  const diff = (lines: string[]) => ({
    text: `diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`,
    capped: [],
  });
  assert.equal(surelyClean(diff(['const a = 1;']), record), true);
  assert.equal(surelyClean(diff(['legacyCall();']), record), false);
  assert.equal(surelyClean(diff(['x'.repeat(MAX_LINE_LENGTH + 1)]), record), false);
  assert.equal(surelyClean({ ...diff(['const a = 1;']), capped: ['a.ts'] }, record), false);

  // The same pre-check answers for a pushed commit's own patch, with the credential rules' needles.
  const check = preCheck(record, 'pre-push')!;
  assert.equal(check.screensPatches, true);
  const patch = (text: string, capped: string[] = []) => ({ diff: Buffer.from(diff([text]).text), capped });
  assert.equal(check.decidePatch(patch('const a = 1;')), 'clean');
  assert.equal(check.decidePatch(patch('const k = "AKIA0123456789ABCDEF";')), 'review', 'a credential needle');
  assert.equal(check.decidePatch(patch('const a = 1;', ['a.ts'])), 'review', 'a file cut at the cap');
  assert.equal(
    check.decidePatch({ diff: Buffer.from('diff --git a/k b/k\nBinary files /dev/null and b/k differ\n'), capped: [] }),
    'review',
    'a file git calls binary',
  );
  assert.deepEqual(check.decide(diff(['const a = 1;'])), { decision: 'clean', pieces: 1 });
  // A model reviewer that runs in a hook reads every piece: no pre-check there.
  assert.equal(preCheck({ ...record, modelHooks: ['pre-push'] }, 'pre-push'), null);
  assert.notEqual(preCheck({ ...record, modelHooks: ['pre-push'] }, 'commit-msg'), null);
  assert.equal(preCheck({ ...record, credentialSources: true }, 'pre-push')!.decidePatch(patch('x')), 'review');
});

// Syntax-tree and import rules read the files themselves, so their property runs on a real
// repository: one, with the index reset between cases (each case is an `add` and a review).
const STRUCTURAL_BUNDLE = {
  '.okfw/index.md': '---\ntype: Index\n---\n- [Controllers](c.md)\n',
  '.okfw/c.md': [
    '---',
    'type: Decision',
    'id: c',
    'paths: ["src/**"]',
    'rules:',
    '  - {id: no-query, ast: "db.query($$$)", language: typescript, severity: bug, title: Query, paths: ["src/controllers/**"]}',
    '  - {id: no-db, imports: {forbid: ["src/db/**"]}, severity: bug, title: DB import, paths: ["src/controllers/**", "lib/*.ts"]}',
    '  - {id: legacy, pattern: "legacyCall\\\\(", severity: nit, title: Legacy}',
    '---',
    '# Controllers',
    '',
  ].join('\n'),
  'src/db/conn.ts': 'export const db = { query: (s: string) => s };\n',
};
const STRUCTURAL_LINES = [
  'db.query("SELECT 1");',
  "import { db } from '../db/conn';",
  'const a = 1;',
  'legacyCall(1);',
  'export function f() { return 2; }',
  '',
];
const structuralFile = fc.record({
  // Weighted towards paths no structural rule governs, so that "clean" comes up often.
  path: fc.oneof(
    { weight: 2, arbitrary: fc.constant('src/controllers/a.ts') },
    { weight: 4, arbitrary: fc.constant('src/services/b.ts') },
    { weight: 1, arbitrary: fc.constant('lib/c.ts') },
    { weight: 3, arbitrary: fc.constant('README.md') },
  ),
  lines: fc.array(
    fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...STRUCTURAL_LINES) }, { weight: 2, arbitrary: fc.constant('') }),
    { minLength: 1, maxLength: 4 },
  ),
});

test('with syntax-tree and import rules (kept by their paths), "clean" still means the full review of the staged change finds nothing', async () => {
  const { makeRepo } = await import('../kit/repo.js');
  const { openWorkspace: open } = await import('../../lib/workspace/index.js');
  const { readDiff } = await import('../../lib/diff/source.js');
  const r = makeRepo();
  try {
    r.commit('base', STRUCTURAL_BUNDLE);
    const session = await open(r.dir);
    // Files written this second are not known by their stat() (the racy case, docs/bundle.md
    // "Cache"); surelyClean reads no signature, so the record is made as if they were.
    const record = cleanRecordOf(session, { ...(await session.bundle()), sources: [] });
    assert.ok(record, 'a structural rule with paths leaves a record');
    assert.deepEqual(
      record.structuralGlobs.map((g) => g[0]),
      ['lib/*.ts', 'src/controllers/**'],
    );
    let clean = 0;
    let found = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(structuralFile, { minLength: 1, maxLength: 2, selector: (f) => f.path }),
        async (files) => {
          r.git(['reset', '-q', '--hard', 'HEAD']);
          r.git(['clean', '-qfd']);
          for (const f of files) r.write(f.path, `${f.lines.join('\n')}\n`);
          r.git(['add', '-A']);
          const diff = await readDiff(r.dir, { kind: 'staged' });
          const result = await runReview(session, {
            cwd: r.dir,
            source: { kind: 'staged', text: Promise.resolve(diff) },
            model: false,
            history: async () => [],
          });
          if (result.findings.length) found++;
          if (!surelyClean(diff, record)) return;
          clean++;
          assert.deepEqual(result.findings, [], diff.text);
          assert.deepEqual(result.warnings, [], diff.text);
        },
      ),
      { numRuns: 50 },
    );
    assert.ok(clean >= 5, `clean ${clean}`);
    assert.ok(found >= 1, `with findings ${found}`);
  } finally {
    r.cleanup();
  }
});
