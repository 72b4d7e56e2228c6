/**
 * The output formats CI systems read natively (docs/review.md "Output"), from the real CLI on a
 * real repository:
 * - `--format github`: GitHub Actions workflow commands. Shape and escaping as documented in
 *   "Workflow commands for GitHub Actions" (docs.github.com/en/actions/reference/workflow-commands-for-github-actions)
 *   and implemented by the Actions toolkit (github.com/actions/toolkit, packages/core/src/command.ts:
 *   escapeData `%` `\r` `\n`; escapeProperty also `:` `,`). The test parses each line the way
 *   the runner does and gets the exact path, line and message back.
 * - `--format codequality`: GitLab's Code Quality report, validated with ajv against the shape
 *   GitLab documents (docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format: an
 *   array of objects with description, check_name, fingerprint, severity one of info, minor,
 *   major, critical, blocker, location.path, location.lines.begin).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { makeRepo, runCli } from '../kit/repo.js';
import { escapeData, escapeProperty } from '../../lib/report/github.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as new (
  o?: object,
) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } };

// GitLab's documented Code Quality report format, as a JSON Schema.
const CODE_QUALITY_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['description', 'check_name', 'fingerprint', 'severity', 'location'],
    properties: {
      description: { type: 'string', minLength: 1 },
      check_name: { type: 'string', minLength: 1 },
      fingerprint: { type: 'string', minLength: 1 },
      severity: { enum: ['info', 'minor', 'major', 'critical', 'blocker'] },
      location: {
        type: 'object',
        required: ['path', 'lines'],
        properties: {
          path: { type: 'string', minLength: 1, not: { pattern: '^(/|\\./)' } },
          lines: { type: 'object', required: ['begin'], properties: { begin: { type: 'integer', minimum: 1 } } },
        },
      },
    },
  },
};

const ODD = 'src/odd, name: 100%.js';
const repo = makeRepo();
repo.commit('chore: start');
repo.write(ODD, 'debugger;\n');
repo.write('src/db.js', 'const q = "SELECT * FROM users WHERE id = " + userId;\n');
repo.write('src/ok.js', 'const fine = 1;\n');
repo.git(['add', '-A']);

/** A workflow command line read as the runner reads it. */
function parseCommand(line: string) {
  const match = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!match) return null;
  const unescapeData = (s: string) =>
    s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const properties: Record<string, string> = {};
  for (const pair of (match[2] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    properties[pair.slice(0, eq)] = unescapeData(pair.slice(eq + 1));
  }
  return { command: match[1]!, properties, message: unescapeData(match[3]!) };
}

test('escaping as the Actions toolkit does: data %, CR, LF; properties also : and ,', () => {
  assert.equal(escapeData('50% done\r\nnext: a, b'), '50%25 done%0D%0Anext: a, b');
  assert.equal(escapeProperty('a: b, 50%\n'), 'a%3A b%2C 50%25%0A');
});

test('--format github: one workflow command per finding that reads back to the exact path, line and message', async () => {
  const run = await runCli(['review', '--staged', '--format', 'github'], { cwd: repo.dir });
  assert.equal(run.code, 1, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  // Every line is a command or the plain summary; no raw newline inside a command.
  const parsed = lines.map(parseCommand);
  assert.ok(
    parsed.slice(0, -1).every((c) => c !== null),
    run.stdout,
  );
  const commands = parsed.filter((c) => c !== null && c.properties.file !== undefined);
  assert.equal(commands.length, 2, run.stdout);
  // The review's warnings (here: no bundle) are warning annotations too.
  assert.ok(
    parsed.some((c) => c?.command === 'warning' && c.properties.title === 'revtrail'),
    run.stdout,
  );
  assert.match(lines.at(-1)!, /^revtrail: REQUEST_CHANGES: /);
  const debug = commands.find((c) => c!.properties.file === ODD)!;
  assert.ok(debug, run.stdout);
  assert.equal(debug.command, 'error');
  assert.equal(debug.properties.line, '1');
  assert.match(debug.properties.title!, /^bug: .*\(builtin\/debug:debugger\)$/);
  assert.match(debug.message, /\n\nbuiltin\/debug:debugger rf-[0-9a-f]{10}$/);
  const sql = commands.find((c) => c!.properties.file === 'src/db.js');
  assert.equal(sql?.command, 'error');
  assert.equal(
    sql?.properties.title,
    'security: SQL built by concatenation or interpolation (builtin/injection:sql-concat)',
  );
  // The raw line holds the escaped path: the comma and colon do not end the property.
  assert.ok(run.stdout.includes('file=src/odd%2C name%3A 100%25.js,line=1,'), run.stdout);
});

test("--format codequality: GitLab's documented report shape, one issue per finding, stable fingerprints", async () => {
  const run = await runCli(['review', '--staged', '--format', 'codequality'], { cwd: repo.dir });
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout) as Array<{
    check_name: string;
    severity: string;
    fingerprint: string;
    location: { path: string; lines: { begin: number } };
  }>;
  const validate = new Ajv({ allErrors: true, strict: true }).compile(CODE_QUALITY_SCHEMA);
  assert.ok(validate(report), JSON.stringify(validate.errors));
  assert.deepEqual(report.map((i) => [i.location.path, i.location.lines.begin, i.check_name, i.severity]).sort(), [
    ['src/db.js', 1, 'builtin/injection:sql-concat', 'critical'],
    [ODD, 1, 'builtin/debug:debugger', 'major'],
  ]);
  assert.equal(new Set(report.map((i) => i.fingerprint)).size, 2);
  const again = JSON.parse(
    (await runCli(['review', '--staged', '--format', 'codequality'], { cwd: repo.dir })).stdout,
  ) as typeof report;
  assert.deepEqual(again.map((i) => i.fingerprint).sort(), report.map((i) => i.fingerprint).sort());
});

test('no findings: codequality is an empty array, github only the summary line', async () => {
  const clean = makeRepo();
  clean.commit('chore: start');
  clean.write('a.js', 'const a = 1;\n');
  clean.git(['add', '-A']);
  const cq = await runCli(['review', '--staged', '--format', 'codequality'], { cwd: clean.dir });
  assert.equal(cq.code, 0, cq.stderr);
  assert.deepEqual(JSON.parse(cq.stdout), []);
  const gh = await runCli(['review', '--staged', '--format', 'github'], { cwd: clean.dir });
  assert.equal(gh.code, 0, gh.stderr);
  assert.match(gh.stdout, /^revtrail: APPROVE: /m);
  assert.doesNotMatch(gh.stdout, /^::(error|notice)/m);
});
