/**
 * yargs renders a command's whole help text once its handler starts (in case the handler asks
 * for it); revtrail never reads it, so runCli skips it (lib/cli/yargs.ts, docs/mining.md
 * "Start-up"). This pins that the internal hook it replaces still exists in the yargs we ship.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yargs, { type Argv } from 'yargs';
import { withoutHelpAfterHandler } from '../../lib/cli/yargs.js';

type Internal = { getInternalMethods(): { getUsageInstance(): { hasCachedHelpMessage(): boolean } } };

async function run(skip: boolean): Promise<{ ran: boolean; cached: boolean }> {
  let ran = false;
  const parser: Argv = yargs(['go', '--n', '2'])
    .command(
      'go',
      'do it',
      (y) => y.option('n', { type: 'number', describe: 'how many' }),
      () => {
        ran = true;
      },
    )
    .strict()
    .exitProcess(false);
  if (skip) withoutHelpAfterHandler(parser);
  await parser.parseAsync();
  const cached = (parser as unknown as Internal).getInternalMethods().getUsageInstance().hasCachedHelpMessage();
  return { ran, cached };
}

test('yargs keeps the help text after a handler starts, and runCli does not let it', async () => {
  assert.deepEqual(await run(false), { ran: true, cached: true });
  assert.deepEqual(await run(true), { ran: true, cached: false });
});
