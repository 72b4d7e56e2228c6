/** The handlers of `revtrail ci` (its options: ../commands/ci.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import type { RecordArgs } from '../commands/ci.js';
import { findRepo } from '../../core/git/repo.js';
import { CI_NOTES_REF, recordCiOutcome } from '../../ci/notes.js';
import { ciMessages as m } from '../../messages/ci.js';

export const handlers = {
  async record(args: RecordArgs, context: CliContext): Promise<number> {
    const repo = await findRepo(context.cwd);
    const sha = await recordCiOutcome(repo.top, args.outcome, args.commit);
    if (args.json)
      context.stdout.write(JSON.stringify({ commit: sha, outcome: args.outcome, ref: CI_NOTES_REF }) + '\n');
    else context.stdout.write(`${m.recorded(args.outcome, sha, CI_NOTES_REF)}\n  ${m.pushHint(CI_NOTES_REF)}\n`);
    return 0;
  },
};
