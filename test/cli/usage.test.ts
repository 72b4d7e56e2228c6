/**
 * docs/cli.md, black-box: usage errors are one or two lines, an option that takes a value needs
 * one, configuration errors say what the value must be, --json where output is worth parsing.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli } from '../kit/repo.js';

const repo = makeRepo();
after(() => repo.cleanup());
repo.commit('chore: start', { 'README.md': '# app\n' });
repo.commit(
  'feat: one finding',
  {
    'src/a.ts': 'export const a = 1;\n',
  },
  {
    args: [
      '-m',
      'Review-Finding: rf-0123456789,src/a.ts,1,builtin/debug:debugger,correctness,bug,debugger left in,REJECT,"`grep -n debugger src/a.ts` prints nothing"',
    ],
  },
);

/** Every user error: exit 2, one message line plus one remedy line, no stack. */
function assertUsageError(r: { code: number; stderr: string }, message: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.replace(/\n$/, '').split('\n');
  assert.equal(lines.length, 2, r.stderr);
  assert.match(lines[0]!, message);
  assert.match(lines[1]!, /^ {2}\S/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

test("a value outside an option's choices is one line naming the choices, then the remedy", async () => {
  for (const [args, name] of [
    [['review', '--format', 'xml'], 'review'],
    [['mine', '--format', 'xml'], 'mine'],
    [['stats', '--format', 'html'], 'stats'],
    [['ci', 'record', 'maybe'], 'ci'],
  ] as const) {
    const r = await runCli([...args], { cwd: repo.dir });
    assertUsageError(r, /^revtrail: Invalid values: .*Choices:/);
    assert.match(r.stderr, new RegExp(`Run revtrail ${name} --help`));
  }
});

test('an option that takes a value, given none, is a usage error (not its default)', async () => {
  for (const [args, option] of [
    [['review', '--format'], 'format'],
    [['mine', '--format'], 'format'],
    [['stats', '--format'], 'format'],
    [['stats', '--html'], 'html'],
    [['mine', '--out'], 'out'],
    // `candidates --explain` alone explains every rule_source (test/candidates/candidates.test.ts).
    [['candidates', '--out'], 'out'],
  ] as const) {
    const r = await runCli([...args], { cwd: repo.dir });
    assertUsageError(r, new RegExp(`^revtrail: Not enough arguments following: ${option}$`));
    assert.equal(r.stdout, '', `${args.join(' ')} printed nothing`);
  }
});

test('a bad configuration value names the file, the key and what the value must be', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ minConfidence: 2 }, /revtrail\.config\.json: "minConfidence" is invalid: must be at most 1$/],
    [{ minConfidence: 'high' }, /"minConfidence" is invalid: expected a number$/],
    [{ chunkLines: 1.5 }, /"chunkLines" is invalid: expected an integer$/],
    [{ maxKnowledgeTokens: 0 }, /"maxKnowledgeTokens" is invalid: must be greater than 0$/],
    [{ builtinRules: 'no' }, /"builtinRules" is invalid: expected a boolean or a list$/],
    [{ reviewer: { command: [] } }, /"reviewer\.command" is invalid: must not be empty$/],
    [{ commitMsg: { block: 'yes' } }, /"commitMsg\.block" is invalid: expected a boolean$/],
    [[], /revtrail\.config\.json: "\(root\)" is invalid: expected an object$/],
  ];
  try {
    for (const [config, message] of cases) {
      repo.write('revtrail.config.json', JSON.stringify(config));
      // The command that manages the config stops on it; a review runs with the defaults and says why.
      const r = await runCli(['knowledge', 'check'], { cwd: repo.dir });
      assertUsageError(r, message);
      assert.doesNotMatch(r.stderr, /Invalid input/);
      const review = await runCli(['review'], { cwd: repo.dir });
      assert.notEqual(review.code, 2, review.stderr);
      assert.match(
        review.stderr,
        new RegExp(`${message.source.replace(/\$$/, '')}; the review ran with the default configuration`),
      );
    }
  } finally {
    repo.write('revtrail.config.json', '{}');
  }
});

test('mine --json is mine --format json', async () => {
  const json = await runCli(['mine', '--json'], { cwd: repo.dir });
  assert.equal(json.code, 0, json.stderr);
  const format = await runCli(['mine', '--format', 'json'], { cwd: repo.dir });
  assert.equal(json.stdout, format.stdout);
  const parsed = JSON.parse(json.stdout) as { records: Array<{ id: string; verdict: string }> };
  assert.deepEqual(
    parsed.records.map((r) => [r.id, r.verdict]),
    [['rf-0123456789', 'REJECT']],
  );
});
