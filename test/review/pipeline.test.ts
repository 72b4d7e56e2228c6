/** The pipeline on hand-built selections: rules + reviewer programs + contract + verdicts + event. */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, tempDir } from '../kit/repo.js';
import { reviewSelections } from '../../lib/review/pipeline.js';
import type { ReviewerSettings } from '../../lib/review/program/open.js';
import { builtinRules } from '../../lib/review/builtin.js';
import { findingJsonSchema } from '../../lib/review/findings/index.js';
import { RevtrailError } from '../../lib/core/errors.js';
import { chunkOf, concept, pipelineOptions, selectionOf } from '../kit/review.js';
import { noDrops } from '../../lib/review/types.js';

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

const program = (name: string) => join(fixturesDir, 'review', name);
const reviewer = (name: string, args: string[] = [], extra: Partial<ReviewerSettings> = {}): ReviewerSettings => ({
  argv: [program(name), ...args],
  timeoutMs: 10_000,
  required: false,
  label: name,
  ...extra,
});

let logCount = 0;
function logFile(): string {
  return join(dir, `calls-${logCount++}.jsonl`);
}
function calls(file: string): Array<{
  errors: Array<{ finding: number; message: string }> | null;
  allowed: string[];
  knowledge: string[];
  version: number;
  hasSchema: boolean;
}> {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

const adr = concept('adr-001', [
  { id: 'no-db', pattern: "from '\\.\\./db", severity: 'bug', title: 'Controller imports the database' },
]);
const style = concept('style-guide', [], 'x'.repeat(400));
const lines = ["import { q } from '../db/index.js';", 'export const a = 1;', 'export const b = 2;'];
const selection = () => selectionOf(chunkOf('src/controllers/user.ts', lines, { start: 5 }), [adr, style], 1);

describe('rules in the pipeline', () => {
  test("every matched document's rules run, also the ones over the knowledge budget", async () => {
    const over = concept('adr-002', [
      { id: 'export-const', pattern: '^export const b', severity: 'nit', category: 'style', title: 'b' },
    ]);
    const sel = selectionOf(chunkOf('src/x.ts', lines), [adr, over], 1);
    const result = await reviewSelections([sel], pipelineOptions());
    assert.deepEqual(result.findings.map((f) => f.rule_source).sort(), ['adr-001:no-db', 'adr-002:export-const']);
    assert.deepEqual(result.knowledge_docs, [{ path: 'src/x.ts', piece: 1, documents: ['adr-001'] }]);
    assert.equal(result.event, 'REQUEST_CHANGES');
  });

  test('a rule below minConfidence is dropped and counted', async () => {
    const weak = concept('adr-003', [
      { id: 'weak', pattern: 'export', severity: 'nit', category: 'style', title: 'weak', confidence: 0.5 },
    ]);
    const result = await reviewSelections([selectionOf(chunkOf('src/x.ts', lines), [weak])], pipelineOptions());
    assert.equal(result.findings.length, 0);
    assert.equal(result.dropped.low_confidence, 2);
    assert.equal(result.event, 'APPROVE');
  });

  test('ruleFilter runs only the named rules (pre-push credential checks)', async () => {
    const key = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
    const sel = selectionOf(chunkOf('src/x.ts', [`const k = '${key}';`, 'debugger;']), [adr]);
    const result = await reviewSelections(
      [sel],
      pipelineOptions({ builtin: builtinRules(true), ruleFilter: (s) => s.startsWith('builtin/secrets:') }),
    );
    assert.deepEqual(
      result.findings.map((f) => f.rule_source),
      ['builtin/secrets:aws-access-key'],
    );
  });

  test('verdicts suppress; the event counts only what is left', async () => {
    const first = await reviewSelections([selection()], pipelineOptions());
    const id = first.findings[0]!.id;
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({
        verdicts: async () =>
          new Map([[id, { verdict: 'REJECT', rationale: 'false positive: `rg db` shows a type import' }]]),
      }),
    );
    assert.equal(result.findings.length, 0);
    assert.deepEqual(
      result.suppressed.map((s) => [s.id, s.verdict]),
      [[id, 'REJECT']],
    );
    assert.equal(result.event, 'APPROVE');
    assert.match(result.summary, /1 suppressed by verdicts/);
  });

  test('an empty review approves without reading verdicts', async () => {
    let read = false;
    const result = await reviewSelections(
      [],
      pipelineOptions({
        verdicts: async () => {
          read = true;
          return new Map();
        },
      }),
    );
    assert.equal(result.event, 'APPROVE');
    assert.equal(read, false);
  });
});

describe('reviewer programs', () => {
  test('good: its finding counts, the input has version, knowledge within budget, allowed citations and the schema', async () => {
    const log = logFile();
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('good.mjs', ['--log', log]) }),
    );
    const reviewerFinding = result.findings.find((f) => f.rule_source === 'reviewer:architecture');
    assert.ok(reviewerFinding, JSON.stringify(result, null, 1));
    assert.deepEqual(reviewerFinding.citations, ['adr-001']);
    assert.match(reviewerFinding.id, /^rf-[0-9a-f]{10}$/);
    const [call] = calls(log);
    assert.deepEqual(call, {
      path: 'src/controllers/user.ts',
      errors: null,
      allowed: ['adr-001', 'style-guide'],
      knowledge: ['adr-001'],
      version: 1,
      hasSchema: true,
    });
    assert.deepEqual(result.dropped, noDrops());
    assert.match(result.summary, /src\/controllers\/user\.ts: One small naming remark\./);
  });

  test('the architecture finding and the rule finding on the same line with a common citation fold', async () => {
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('good.mjs', ['--category', 'correctness']) }),
    );
    // The rule finding is architecture (the default category) citing adr-001 on line 5; good.mjs
    // raises a correctness finding on line 5 citing adr-001 too: one problem.
    assert.equal(result.merged_findings, 1);
    assert.equal(result.findings.length, 1);
    assert.equal(result.findings[0]!.category, 'architecture');
    assert.equal(result.findings[0]!.title, 'Reviewer says: consider a clearer name');
    assert.equal(result.findings[0]!.severity, 'bug');
    assert.equal(result.findings[0]!.rule_source, 'adr-001:no-db');
  });

  test('invents citations: asked again once with the errors and the allowed ids, then dropped as bad_citation', async () => {
    const log = logFile();
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('invents-citations.mjs', ['--log', log]) }),
    );
    const c = calls(log);
    assert.equal(c.length, 2);
    assert.equal(c[0]!.errors, null);
    assert.equal(c[1]!.errors!.length, 1);
    assert.match(c[1]!.errors![0]!.message, /"adr-999-invented".*allowed: adr-001, style-guide/);
    assert.deepEqual(c[1]!.allowed, ['adr-001', 'style-guide']);
    assert.equal(result.dropped.bad_citation, 1);
    assert.ok(result.findings.every((f) => !f.rule_source.startsWith('reviewer:')));
    assert.ok(
      result.warnings.some((w) =>
        /reviewer finding on src\/controllers\/user\.ts dropped: cites "adr-999-invented"/.test(w),
      ),
    );
  });

  test('off the diff: asked again, then dropped as off_diff', async () => {
    const log = logFile();
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('off-diff.mjs', ['--log', log]) }),
    );
    assert.equal(calls(log).length, 2);
    assert.match(
      calls(log)[1]!.errors![0]!.message,
      /line 9000 is not a changed line of src\/controllers\/user\.ts \(changed: 5-7\)/,
    );
    assert.equal(result.dropped.off_diff, 1);
  });

  test('fixes on re-ask: the corrected findings count and nothing is dropped', async () => {
    const log = logFile();
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('fixes-on-reask.mjs', ['--log', log]) }),
    );
    const c = calls(log);
    assert.equal(c.length, 2);
    assert.equal(c[1]!.errors!.length, 2);
    assert.deepEqual(result.dropped, noDrops());
    const titles = result.findings.map((f) => f.title).sort();
    assert.deepEqual(titles, [
      'Controller imports the database',
      'Layering: controller reaches into storage',
      'Style remark',
    ]);
  });

  test('contract breakers: each invalid finding dropped with its reason; the valid one counts', async () => {
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('contract-breaker.mjs') }),
    );
    assert.deepEqual(result.dropped, { ...noDrops(), low_confidence: 1, invalid: 6 });
    assert.deepEqual(
      result.findings.filter((f) => f.rule_source.startsWith('reviewer:')).map((f) => f.title),
      ['the valid one'],
    );
    const reasons = result.warnings.join('\n');
    assert.match(reasons, /line: expected number, received string/);
    assert.match(reasons, /title: must be at most 80 characters \(got 500\)/);
    assert.match(reasons, /suggestion_code: must be at most 6 lines/);
    assert.match(reasons, /severity: "critical" is not one of bug, security/);
    assert.match(reasons, /category: "vibes" is not one of architecture/);
    assert.match(reasons, /finding: expected object, received string/);
  });

  for (const [name, pattern] of [
    [
      'garbage.mjs',
      /reviewer program garbage\.mjs answered something that is not \{summary, findings\} on src\/controllers\/user\.ts \(not JSON/,
    ],
    [
      'crash.mjs',
      /reviewer program crash\.mjs failed on src\/controllers\/user\.ts \(exit 3: TypeError: cannot read the model file\)/,
    ],
    [
      'flood.mjs',
      /reviewer program flood\.mjs wrote more output than allowed on src\/controllers\/user\.ts \(1048576 bytes\)/,
    ],
  ] as const) {
    test(`${name}: a warning, and the rule findings still count`, async () => {
      const result = await reviewSelections([selection()], pipelineOptions({ reviewer: reviewer(name) }));
      assert.ok(
        result.warnings.some((w) => pattern.test(w)),
        result.warnings.join('\n'),
      );
      assert.deepEqual(
        result.findings.map((f) => f.rule_source),
        ['adr-001:no-db'],
      );
      assert.equal(result.event, 'REQUEST_CHANGES');
    });
  }

  test('hang: killed at the timeout, not asked about further chunks', async () => {
    const started = Date.now();
    const second = selectionOf(chunkOf('src/other.ts', ['export const c = 3;']), []);
    const result = await reviewSelections(
      [selection(), second],
      pipelineOptions({ reviewer: reviewer('hang.mjs', [], { timeoutMs: 500 }) }),
    );
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.ok(
      result.warnings.some((w) => /hang\.mjs timed out on src\/controllers\/user\.ts \(500 ms\)/.test(w)),
      result.warnings.join('\n'),
    );
    assert.ok(result.warnings.some((w) => /is not asked about the remaining chunks/.test(w)));
    assert.equal(result.findings.length, 1);
  });

  test('missing and not executable programs: a warning each, the review goes on', async () => {
    const plain = join(dir, 'not-executable.mjs');
    copyFileSync(program('good.mjs'), plain);
    chmodSync(plain, 0o644);
    for (const [argv, pattern] of [
      [[join(dir, 'no-such-program')], /was not found/],
      [[plain], /is not executable/],
    ] as const) {
      const result = await reviewSelections(
        [selection()],
        pipelineOptions({ reviewer: { argv: [...argv], timeoutMs: 5000, required: false, label: argv[0] } }),
      );
      assert.ok(
        result.warnings.some((w) => pattern.test(w)),
        result.warnings.join('\n'),
      );
      assert.equal(result.findings.length, 1);
    }
  });

  test('reviewer.required: a failing program is an error with exit code 2', async () => {
    await assert.rejects(
      reviewSelections([selection()], pipelineOptions({ reviewer: reviewer('crash.mjs', [], { required: true }) })),
      (error: unknown) => error instanceof RevtrailError && error.exitCode === 2 && /is required/.test(error.message),
    );
  });

  test('a summary that approves while a blocking finding exists gets a warning; the event stands', async () => {
    const result = await reviewSelections(
      [selection()],
      pipelineOptions({ reviewer: reviewer('good.mjs', ['--summary', 'LGTM, no concerns.', '--category', 'style']) }),
    );
    assert.equal(result.event, 'REQUEST_CHANGES');
    assert.ok(
      result.warnings.some((w) =>
        /reviewer summary for src\/controllers\/user\.ts says "LGTM, no concerns\." but there is a blocking finding/.test(
          w,
        ),
      ),
      result.warnings.join('\n'),
    );
    const calm = await reviewSelections(
      [selectionOf(chunkOf('src/y.ts', ['export const y = 1;']), [])],
      pipelineOptions({ reviewer: reviewer('good.mjs', ['--summary', 'Looks good to me.']) }),
    );
    assert.equal(calm.event, 'COMMENT');
    assert.ok(!calm.warnings.some((w) => /reviewer summary/.test(w)));
  });

  test('chunks without added lines are not sent to the program', async () => {
    const log = logFile();
    const empty = selectionOf(chunkOf('src/deleted.ts', []), []);
    await reviewSelections([empty], pipelineOptions({ reviewer: reviewer('good.mjs', ['--log', log]) }));
    assert.equal(calls(log).length, 0);
  });

  test('the schema in the input is the finding JSON Schema', () => {
    assert.equal((findingJsonSchema() as { type: string }).type, 'object');
  });
});
