/** The handlers of `revtrail review` (its options: ../commands/review.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { isAbsolute, resolve } from 'node:path';
import { diffSourceOf, requireValues } from '../options.js';
import { progress, useColor } from '../../core/output.js';
import { UsageError } from '../../core/errors.js';
import type { CliContext } from '../command.js';
import type { ReviewArgs } from '../commands/review.js';
import { reviewMessages as m } from '../../messages/review.js';
import { splitCommand } from '../../review/program/command-line.js';
import { reportFlow } from '../../flows/review.js';
import { loadFormatter } from '../../report/index.js';
import { hookMessages as h } from '../../messages/hooks.js';
import { formatWarnings } from '../../report/text.js';

export const handlers = {
  async review(args: ReviewArgs, context: CliContext): Promise<number> {
    requireValues(args as unknown as Record<string, unknown>, ['range', 'diff', 'knowledge', 'policy-from']);
    if (args.all && (args.staged || args.range !== undefined || args.diff !== undefined))
      throw new UsageError(m.allAlone, { remedy: m.allAloneRemedy });
    const source = args.all ? ({ kind: 'worktree' } as const) : await diffSourceOf(args, context.cwd);
    let minConfidence: number | undefined;
    if (args.minConfidence !== undefined) {
      minConfidence = Number(args.minConfidence);
      if (
        args.minConfidence.trim() === '' ||
        !Number.isFinite(minConfidence) ||
        minConfidence < 0 ||
        minConfidence > 1
      ) {
        throw new UsageError(m.badMinConfidence(args.minConfidence), { remedy: m.badMinConfidenceRemedy });
      }
    }
    let reviewer: string[] | undefined;
    if (args.reviewer !== undefined) {
      reviewer = splitCommand(args.reviewer);
      // A program path typed by the user is relative to where they are; the program runs from the top level.
      if (reviewer[0]!.includes('/') && !isAbsolute(reviewer[0]!)) reviewer[0] = resolve(context.cwd, reviewer[0]!);
    }

    const format = args.json ? 'json' : args.format;
    const formatter = loadFormatter(format, { terminal: Boolean(context.stdout.isTTY) });
    const bar = args.quiet ? { update() {}, done() {} } : progress(context.stderr);
    const { result, exit, policyWarnings } = await reportFlow({
      cwd: context.cwd,
      source,
      knowledge: args.knowledge,
      policyFrom: args.policyFrom,
      all: args.all,
      review: {
        reviewer,
        model: args.model ? undefined : false,
        softTests: args.softTests || undefined,
        minConfidence,
        calibration: args.calibration ? undefined : false,
        onProgress: (done, total, path) => bar.update(m.progress(done, total, path)),
      },
    });
    bar.done();
    if (policyWarnings.length) {
      for (const w of policyWarnings) context.stderr.write(`${h.warning(w)}\n`);
    }
    // JSON formats keep stdout parseable; github's warnings are annotations in its own output.
    if (format === 'text' || format === 'sarif') {
      context.stderr.write(formatWarnings(result, { color: useColor(context.stderr) }));
    }
    if (args.verbose) for (const note of result.notes ?? []) context.stderr.write(`${m.noteLine(note)}\n`);
    context.stdout.write((await formatter)(result, { color: useColor(context.stdout) }));
    return exit;
  },
};
