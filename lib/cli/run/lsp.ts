/** The handlers of `revtrail lsp` (its options: ../commands/lsp.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import type { LspArgs } from '../commands/lsp.js';
import { startServer } from '../../lsp/index.js';

declare const REVTRAIL_VERSION: string | undefined;

export const handlers = {
  async lsp(_args: LspArgs, context: CliContext): Promise<number> {
    const { closed } = startServer({
      input: process.stdin,
      output: context.stdout,
      version: typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : '0.0.0',
    });
    await closed;
    return 0;
  },
};
