/**
 * `revtrail mine` on a plain command line skips yargs (lib/cli/plain.ts). Whatever the command
 * line, plainArgs either gives exactly the arguments yargs gives the command, or declines; and
 * the command lines people type (the bench's, the README's) are plain.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import mine, { plainArgs, type MineArgs } from '../../lib/cli/commands/mine.js';
import { runCli } from '../../lib/cli/yargs.js';

// The fields the command's run reads.
const FIELDS = ['revs', '_', 'all', 'format', 'json', 'out', 'include-open', 'redact', 'cache'] as const;
const pick = (a: MineArgs) => Object.fromEntries(FIELDS.map((k) => [k, a[k]]).filter(([, v]) => v !== undefined));

/** What yargs hands the command for argv, or the usage error it throws. */
async function viaYargs(argv: string[]): Promise<Record<string, unknown> | { error: string }> {
  const run = mine.run!;
  let seen: MineArgs | null = null;
  mine.run = async (args) => {
    seen = args;
    return 0;
  };
  const sink = () => Object.assign(new PassThrough(), { columns: 100 });
  try {
    await runCli(argv, { cwd: process.cwd(), stdout: sink(), stderr: sink() } as never);
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    mine.run = run;
  }
  return seen ? pick(seen) : { error: 'no run' };
}

test('the command lines people type are plain, and read as yargs reads them', async () => {
  const lines = [
    ['mine'],
    ['mine', '--no-cache'],
    ['mine', '--all', '--format', 'csv', '--out', 'feedback.csv'],
    ['mine', '--format=json', '--redact', 'main', 'topic/x', 'HEAD~3', 'v1.2.0^{commit}'],
    ['mine', '--json', '--include-open', '--cache', 'origin/main', '1a2b3c4d'],
  ];
  for (const argv of lines) {
    const plain = plainArgs(argv);
    assert.ok(plain, argv.join(' '));
    assert.deepEqual(pick(plain), await viaYargs(argv), argv.join(' '));
  }
});

test('plainArgs gives what yargs gives, or declines (any mix of options, values and junk)', async () => {
  const token = fc.oneof(
    fc.constantFrom('--all', '--json', '--redact', '--include-open', '--cache', '--no-cache', '--no-all', '--all=false', '-a', '--help', '-h', '--version', '--', '-'),
    fc.constantFrom('--format', '--format=csv', '--format=xml', '--format=', 'jsonl', 'json', 'csv', '--out', '--out=f.csv', '--out='),
    fc.constantFrom('main', 'HEAD', 'HEAD~2', 'a..b', '^main', '123', '0x1f', '1e3', '12ab', 'help', 'version', 'completion', 'mine', 'a b', 'é', '--since=x', 'x=y', '$0', 'true', 'false', 'TRUE'),
    fc.string({ maxLength: 4 }),
  );
  let plainOnes = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 6 }), async (rest) => {
      const argv = ['mine', ...rest];
      const plain = plainArgs(argv);
      if (plain === null) return;
      plainOnes += 1;
      assert.deepEqual(pick(plain), await viaYargs(argv), JSON.stringify(argv));
    }),
    { numRuns: 400 },
  );
  assert.ok(plainOnes >= 40, `only ${plainOnes} plain command lines were compared`);
  assert.equal(plainArgs(['stats']), null, 'only mine');
});
