/** The handlers of `revtrail mine` (its options: ../commands/mine.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { resolve } from 'node:path';
import { escapeControl as esc, progress } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { MineArgs } from '../commands/mine.js';
import { mineFlow } from '../../flows/mine.js';
import { mineMessages as m } from '../../messages/mine.js';

export const handlers = {
  async mine(args: MineArgs, context: CliContext): Promise<number> {
    const bar = progress(context.stderr);
    let outcome: Awaited<ReturnType<typeof mineFlow>>;
    try {
      outcome = await mineFlow({
        cwd: context.cwd,
        revs: [...(args.revs ?? []), ...args._.slice(1).map(String)],
        all: args.all,
        cache: args.cache,
        format: args.json ? 'json' : args.format,
        includeOpen: args['include-open'],
        redact: args.redact,
        out: args.out === undefined ? undefined : resolve(context.cwd, args.out),
        signedAnswers: args['signed-answers'],
        stdout: context.stdout,
        onProgress: (commits, records) => bar.update(m.progress(commits, records)),
        onPlan:
          process.env.REVTRAIL_DEBUG === '1'
            ? (plan, detail) => context.stderr.write(`revtrail: mine cache: ${plan}${detail ? ` (${detail})` : ''}\n`)
            : undefined,
      });
    } finally {
      bar.done();
    }
    for (const line of outcome.lines) context.stderr.write(`${esc(line)}\n`);
    return outcome.exit;
  },
};
