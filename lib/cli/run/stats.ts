/** The handlers of `revtrail stats` (its options: ../commands/stats.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { resolve } from 'node:path';
import { escapeControl, paint, useColor } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { StatsArgs } from '../commands/stats.js';
import { mineMessages } from '../../messages/mine.js';
import { openWorkspace } from '../../workspace/index.js';
import { buildStats } from '../../stats/report.js';
import { formatStats } from '../../stats/format.js';
import { calibrationExempt } from '../../review/findings/calibrate.js';
import { signedAnswerRules } from '../../review/findings/signed.js';
import { statsMessages } from '../../messages/stats.js';
import { baselineStatsLines } from '../../flows/baseline.js';

export const handlers = {
  async stats(args: StatsArgs, context: CliContext): Promise<number> {
    const ws = await openWorkspace(context.cwd);
    if (ws.configError) throw ws.configError;
    const html = args.html === undefined ? undefined : resolve(context.cwd, args.html);
    const { report, bodyRows } = await buildStats({
      top: ws.top,
      commonDir: ws.repo!.commonDir,
      config: ws.config,
      all: args.all,
      rule: args.rule,
      html,
      exempt: calibrationExempt,
      // The signed-answer rules (and the built-in rules they name) load only where reviewers are named.
      signedRules: ws.config.gate.reviewers ? signedAnswerRules(ws.config) : null,
    });
    if (bodyRows.length) {
      context.stderr.write(
        `${mineMessages.bodyNotCounted(bodyRows.map((b) => `${b.id} (${b.commit.slice(0, 7)})`))}\n`,
      );
    }
    if (html !== undefined) context.stderr.write(`${statsMessages.wroteHtml(html)}\n`);
    const format = args.json ? 'json' : args.format;
    // The page is what --html asks for: the text table beside it is only noise; a data format
    // asked for with it is still printed (docs/stats.md).
    if (html !== undefined && format === 'text') return 0;
    context.stdout.write(formatStats(report, format, paint(useColor(context.stdout))));
    // What the adoption baseline still holds, per rule (docs/mining.md "The baseline").
    if (format === 'text' && !args.rule) {
      const lines = await baselineStatsLines(ws.top);
      if (lines.length) context.stdout.write(`\n${lines.map((l) => escapeControl(l)).join('\n')}\n`);
    }
    return 0;
  },
};
