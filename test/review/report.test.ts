/** Output formats: text lines, JSON shape, SARIF 2.1.0 validity. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { formatJson } from '../../lib/report/json.js';
import { formatSarif } from '../../lib/report/sarif.js';
import { formatText, formatWarnings } from '../../lib/report/text.js';
import { pathToUri, sarifLevel } from '../../lib/report/sarif.js';
import { noDrops, type Finding, type ReviewResult } from '../../lib/review/types.js';
import { splitCommand } from '../../lib/review/program/command-line.js';
import { UsageError } from '../../lib/core/errors.js';
import { sarifProblems } from '../kit/sarif.js';

const finding = (overrides: Partial<Finding>): Finding => ({
  id: 'rf-0123456789',
  path: 'src/a.ts',
  start_line: 3,
  line: 3,
  side: 'RIGHT',
  severity: 'nit',
  category: 'style',
  title: 'A title',
  body: 'A body.',
  rule_source: 'adr-1:r',
  citations: [],
  suggestion_code: null,
  confidence: 1,
  ...overrides,
});

const result: ReviewResult = {
  version: 1,
  summary: '3 findings in 2 files (1 security, 1 bug, 1 nit); 1 suppressed by verdicts.',
  event: 'REQUEST_CHANGES',
  findings: [
    finding({
      id: 'rf-aaaaaaaaaa',
      path: 'src/b c.ts',
      line: 9,
      start_line: 7,
      severity: 'bug',
      category: 'architecture',
      title: 'Layering broken',
      rule_source: 'adr-1:layers',
      citations: ['adr-1'],
      body: 'Controllers call services.\n\nCites adr-1.',
    }),
    finding({
      id: 'rf-bbbbbbbbbb',
      path: 'src/a.ts',
      line: 12,
      start_line: 12,
      severity: 'security',
      category: 'security',
      title: 'AWS access key ID committed',
      rule_source: 'builtin/secrets:aws-access-key',
      body: 'Rotate the key.',
    }),
    finding({
      id: 'rf-cccccccccc',
      path: 'src/a.ts',
      line: 2,
      start_line: 2,
      severity: 'nit',
      title: 'Naming',
      rule_source: 'reviewer:style',
      suggestion_code: 'const total = 1;',
    }),
  ],
  suppressed: [
    {
      ...finding({
        id: 'rf-dddddddddd',
        path: 'src/a.ts',
        line: 20,
        start_line: 20,
        severity: 'test',
        category: 'testing',
        title: 'Skipped test',
        rule_source: 'builtin/tests:skipped-test',
      }),
      verdict: 'DEFER',
      rationale: 'JIRA-42',
    },
  ],
  knowledge_docs: [{ path: 'src/a.ts', piece: 1, documents: ['adr-1'] }],
  merged_findings: 1,
  dropped: { ...noDrops(), low_confidence: 2, off_diff: 1 },
  warnings: ['src/min.js:1 (9000 characters): longer than 4000 characters; only the credential rules checked it'],
};

describe('text', () => {
  test('grouped by file, one line per finding, then the summary and the event', () => {
    const text = formatText(result);
    assert.equal(
      text,
      [
        'src/a.ts:2 nit Naming (reviewer:style) rf-cccccccccc',
        '    A body.',
        'src/a.ts:12 security AWS access key ID committed (builtin/secrets:aws-access-key) rf-bbbbbbbbbb',
        '    Rotate the key.',
        '',
        'src/b c.ts:9 bug Layering broken (adr-1:layers) rf-aaaaaaaaaa',
        '    Controllers call services.',
        '    Cites adr-1.',
        '',
        'Suppressed by verdicts (1):',
        '  src/a.ts:20 test Skipped test (builtin/tests:skipped-test) rf-dddddddddd [DEFER]',
        '',
        '3 findings in 2 files (1 security, 1 bug, 1 nit); 1 suppressed by verdicts.',
        'Dropped: 2 low confidence, 1 off the diff, 0 bad citation, 0 invalid',
        'REQUEST_CHANGES',
        '',
      ].join('\n'),
    );
    assert.ok(!text.includes('\x1b['), 'no colour unless asked');
  });
  test('colour only when asked (the CLI asks on a TTY without NO_COLOR)', () => {
    assert.match(formatText(result, { color: true }), /\x1b\[31m/);
  });
  test('an approval is just the summary and the event', () => {
    const empty: ReviewResult = {
      ...result,
      findings: [],
      suppressed: [],
      dropped: noDrops(),
      summary: 'No findings.',
      event: 'APPROVE',
    };
    assert.equal(formatText(empty), 'No findings.\nAPPROVE\n');
  });
  test('warnings go to their own stream, one line each', () => {
    assert.equal(formatWarnings(result), `warning: ${result.warnings[0]}\n`);
  });
});

describe('json', () => {
  test('exactly the documented keys, in order', () => {
    const parsed = JSON.parse(formatJson({ ...result, extra: 1 } as ReviewResult)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), [
      'version',
      'summary',
      'event',
      'findings',
      'suppressed',
      'allowed',
      'knowledge_docs',
      'merged_findings',
      'dropped',
      'warnings',
    ]);
    assert.deepEqual(Object.keys((parsed.findings as object[])[0]!), [
      'id',
      'path',
      'start_line',
      'line',
      'side',
      'severity',
      'category',
      'title',
      'body',
      'rule_source',
      'citations',
      'suggestion_code',
      'confidence',
    ]);
  });
});

describe('sarif', () => {
  const sarif = JSON.parse(formatSarif(result, { version: '1.2.3' }));

  test('validates against the 2.1.0 requirements', () => {
    assert.deepEqual(sarifProblems(sarif), []);
    assert.equal(sarif.version, '2.1.0');
    assert.match(sarif.$schema, /sarif-2\.1\.0/);
  });

  test('the checker itself catches the mistakes it is there for', () => {
    const broken = structuredClone(sarif);
    broken.version = '2.0.0';
    broken.runs[0].results[0].level = 'critical';
    broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    broken.runs[0].results[0].ruleIndex = 2;
    broken.runs[0].results[1].extra = true;
    delete broken.runs[0].tool.driver.name;
    broken.runs[0].results[2].locations[0].physicalLocation.artifactLocation.uri = 'src/b c.ts';
    const problems = sarifProblems(broken).join('\n');
    for (const expected of [
      '/version: must be equal to one of the allowed values ["2.1.0"]',
      '/runs/0/results/0/level: must be equal to one of the allowed values',
      '/runs/0/results/0/locations/0/physicalLocation/region/startLine: must be >= 1',
      '/runs/0/results/0/ruleIndex: rules[2] is not',
      '/runs/0/results/1: must NOT have additional properties "extra"',
      "/runs/0/tool/driver: must have required property 'name'",
      '/runs/0/results/2/locations/0/physicalLocation/artifactLocation/uri: must match format "uri-reference"',
    ]) {
      assert.ok(problems.includes(expected), `${expected} in:\n${problems}`);
    }
  });

  test('driver, rules and results carry what code scanning reads', () => {
    const run = sarif.runs[0];
    assert.deepEqual(
      { name: run.tool.driver.name, version: run.tool.driver.version, uri: run.tool.driver.informationUri },
      // No informationUri while revtrail has no public page (package.json has no homepage).
      { name: 'revtrail', version: '1.2.3', uri: undefined },
    );
    const rules = run.tool.driver.rules as Array<{
      id: string;
      name: string;
      shortDescription: { text: string };
      defaultConfiguration: { level: string };
      properties: Record<string, unknown>;
    }>;
    assert.deepEqual(
      rules.map((r) => r.id),
      ['adr-1:layers', 'builtin/secrets:aws-access-key', 'reviewer:style', 'builtin/tests:skipped-test'],
    );
    assert.equal(rules[1]!.name, 'AwsAccessKey');
    assert.equal(rules[1]!.defaultConfiguration.level, 'error');
    assert.deepEqual(rules[0]!.properties, { severity: 'bug', category: 'architecture', tags: ['architecture'] });
    const first = run.results[0];
    assert.equal(first.ruleId, 'adr-1:layers');
    assert.equal(first.ruleIndex, 0);
    assert.equal(first.level, 'error');
    assert.deepEqual(first.locations[0].physicalLocation, {
      artifactLocation: { uri: 'src/b%20c.ts' },
      region: { startLine: 7, endLine: 9 },
    });
    assert.deepEqual(first.partialFingerprints, { revtrailFindingId: 'rf-aaaaaaaaaa' });
    assert.match(
      first.message.text,
      /^Layering broken\n\nControllers call services\.\n\nCites adr-1\.\n\nCites: adr-1$/,
    );
    assert.equal(run.results[2].level, 'note');
    const suppressed = run.results[3];
    assert.equal(suppressed.level, 'warning');
    assert.deepEqual(suppressed.suppressions, [
      { kind: 'external', status: 'accepted', justification: 'DEFER: JIRA-42' },
    ]);
    assert.equal(run.invocations[0].toolExecutionNotifications[0].message.text, result.warnings[0]);
    assert.equal(run.properties.event, 'REQUEST_CHANGES');
  });

  test('levels: error for bug/security/api-surface, warning for test, note otherwise', () => {
    assert.deepEqual(
      (['bug', 'security', 'api-surface', 'test', 'nit', 'suggestion', 'question'] as const).map(sarifLevel),
      ['error', 'error', 'error', 'warning', 'note', 'note', 'note'],
    );
  });

  test('paths become URI references', () => {
    assert.equal(pathToUri('docs/a b/ü#1.md'), 'docs/a%20b/%C3%BC%231.md');
  });

  test('an empty review is a valid SARIF log with no results', () => {
    const empty = JSON.parse(formatSarif({ ...result, findings: [], suppressed: [], warnings: [], event: 'APPROVE' }));
    assert.deepEqual(sarifProblems(empty), []);
    assert.deepEqual(empty.runs[0].results, []);
    assert.deepEqual(empty.runs[0].tool.driver.rules, []);
  });
});

describe('--reviewer command lines', () => {
  test('split like a shell, without one', () => {
    assert.deepEqual(splitCommand('node ./review.js --strict'), ['node', './review.js', '--strict']);
    assert.deepEqual(splitCommand(`  "my reviewer"  --name 'a b' x\\ y ""`), [
      'my reviewer',
      '--name',
      'a b',
      'x y',
      '',
    ]);
    assert.deepEqual(splitCommand(`node -e "console.log(\\"hi\\")"`), ['node', '-e', 'console.log("hi")']);
    assert.deepEqual(splitCommand('echo $HOME ~ *.js'), ['echo', '$HOME', '~', '*.js'], 'no expansion');
    assert.deepEqual(splitCommand(`a'b'"c"d`), ['abcd']);
  });
  test('unterminated quotes and empty commands are usage errors', () => {
    assert.throws(
      () => splitCommand('node "x'),
      (e: unknown) => e instanceof UsageError && /unterminated double quote/.test(e.message),
    );
    assert.throws(
      () => splitCommand("node 'x"),
      (e: unknown) => e instanceof UsageError && /unterminated single quote/.test(e.message),
    );
    assert.throws(
      () => splitCommand('   '),
      (e: unknown) => e instanceof UsageError && /no program named/.test(e.message),
    );
  });
});
