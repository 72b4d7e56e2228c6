/**
 * Past a file's cap the credential rules still see every line that could hold a credential
 * (lib/diff/past-cap.ts, docs/review.md "Big files"): the needles listed in the diff stage are
 * the credential rules' own; past the cap exactly the added lines holding one are kept, at their
 * own line numbers; more than the bound keeps is a blocking finding; and with real git a key on
 * line 120,001 of a staged file is found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DiffCapper, type DiffCaps } from '../../lib/diff/cap.js';
import { CREDENTIAL_NEEDLES, UNREAD_MARKER } from '../../lib/diff/past-cap.js';
import { parseDiff } from '../../lib/diff/parse.js';
import { formatFile } from '../../lib/diff/format.js';
import type { DiffFile, DiffLine } from '../../lib/diff/types.js';
import { allBuiltinRules, CREDENTIAL_RULE_SOURCES } from '../../lib/review/builtin.js';
import { screenNeedles } from '../../lib/review/credential-screen.js';
import { makeRepo, runCli } from '../kit/repo.js';
import { AWS_KEY } from '../kit/hooks.js';

test("the diff stage's needles are the built-in credential rules' own", () => {
  const rules = allBuiltinRules().filter(
    (r) => CREDENTIAL_RULE_SOURCES.has(r.ruleSource) && r.ruleSource !== 'builtin/secrets:unread-past-cap',
  );
  assert.deepEqual(screenNeedles(rules), {
    exact: [...CREDENTIAL_NEEDLES.exact],
    folded: [...CREDENTIAL_NEEDLES.folded],
  });
});

const hasNeedle = (t: string) =>
  CREDENTIAL_NEEDLES.exact.some((n) => t.includes(n)) ||
  CREDENTIAL_NEEDLES.folded.some((n) => t.toLowerCase().includes(n));

const text = fc
  .array(fc.constantFrom('a', ' ', 'é', '-', '+', '@', 'x', 'AKIA', 'gh', 'Secret'), { maxLength: 8 })
  .map((p) => p.join(''));
const fileArb: fc.Arbitrary<DiffFile> = fc
  .array(fc.tuple(fc.constantFrom<DiffLine['kind']>('add', 'add', 'del', 'context'), text), {
    minLength: 1,
    maxLength: 60,
  })
  .map((specs) => {
    let oldLine = 1;
    let newLine = 1;
    const lines: DiffLine[] = specs.map(([kind, t]) => {
      if (kind === 'add') return { kind, text: t, oldLine: null, newLine: newLine++ };
      if (kind === 'del') return { kind, text: t, oldLine: oldLine++, newLine: null };
      return { kind, text: t, oldLine: oldLine++, newLine: newLine++ };
    });
    const oldLines = lines.filter((l) => l.kind !== 'add').length;
    const newLines = lines.filter((l) => l.kind !== 'del').length;
    return {
      oldPath: 'f.txt',
      newPath: 'f.txt',
      status: 'modified',
      binary: false,
      oldMode: null,
      newMode: null,
      hunks: [{ oldStart: oldLines ? 1 : 0, oldLines, newStart: newLines ? 1 : 0, newLines, section: '', lines }],
    };
  });

test('property: past the cap, exactly the added lines holding a needle are kept, each at its own line', () => {
  fc.assert(
    fc.property(fileArb, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 50 }), (file, fileLines, piece) => {
      const bytes = Buffer.from(formatFile(file));
      const capper = new DiffCapper({ fileBytes: 1 << 30, fileLines, totalBytes: 1 << 30 } satisfies DiffCaps);
      for (let at = 0; at < bytes.length; at += piece) capper.write(bytes.subarray(at, at + piece));
      const [parsed] = parseDiff(capper.end().toString('utf8'), 'capped');
      const kept = parsed!.hunks.flatMap((h) => h.lines.map((l) => `${l.kind}:${l.newLine}:${l.text}`));
      const all = file.hunks[0]!.lines;
      const show = (l: DiffLine) => `${l.kind}:${l.newLine}:${l.text}`;
      const fits =
        all.some(
          (_, p) =>
            [
              ...all.slice(0, p).map(show),
              ...all
                .slice(p)
                .filter((l) => l.kind === 'add' && hasNeedle(l.text))
                .map(show),
            ].join('\n') === kept.join('\n'),
        ) || all.map(show).join('\n') === kept.join('\n');
      assert.ok(fits, kept.join('\n'));
    }),
    { numRuns: 300 },
  );
});

test('real git: a key on line 120,001 of a staged file, past the 100,000-line cap, is found there; more credential-shaped lines past the cap than are kept block', async () => {
  const repo = makeRepo();
  try {
    repo.commit('chore: start', { 'README.md': 'x\n' });
    const rows = Array.from({ length: 120_000 }, (_, i) => `row ${i}`);
    repo.write('data/big.txt', `${rows.join('\n')}\nconst key = "${AWS_KEY}";\n`);
    // 40,000 lines past the cap holding a needle ("gh") and no credential: more than are kept.
    const many = [...rows.slice(0, 100_000), ...Array.from({ length: 40_000 }, (_, i) => `gh ${i} ${'x'.repeat(20)}`)];
    repo.write('data/many.txt', `${many.join('\n')}\n`);
    repo.git(['add', 'data']);
    const run = await runCli(['review', '--staged', '--json'], { cwd: repo.dir });
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout) as {
      findings: Array<{ rule_source: string; path: string; line: number }>;
      warnings: string[];
    };
    assert.deepEqual(result.findings.map((f) => [f.rule_source, f.path]).sort(), [
      ['builtin/secrets:aws-access-key', 'data/big.txt'],
      ['builtin/secrets:unread-past-cap', 'data/many.txt'],
    ]);
    assert.equal(result.findings.find((f) => f.path === 'data/big.txt')!.line, 120_001);
    const unread = result.findings.find((f) => f.path === 'data/many.txt')!;
    assert.ok(unread.line > 100_000 && unread.line <= 140_000, String(unread.line));
    assert.ok(result.warnings.some((w) => w.includes('data/big.txt: reviewed up to the cap')));
    assert.ok(UNREAD_MARKER.startsWith('revtrail: '));
  } finally {
    repo.cleanup();
  }
});
