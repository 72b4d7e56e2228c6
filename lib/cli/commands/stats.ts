/** `revtrail stats` (docs/gate.md): counts per verdict and reject rate per rule_source. */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl, paint, useColor } from '../../core/output.js';
import type { StatsFormat } from '../../stats/format.js';

// Kept here (not imported) so that listing commands does not load the formatter.
const STATS_FORMATS = ['text', 'json', 'csv'] as const;

interface StatsArgs {
  format: StatsFormat;
  html?: string;
  json: boolean;
  all: boolean;
  rule?: string;
}

export default defineCommand<StatsArgs>({
  command: 'stats',
  describe:
    'Counts per verdict and reject rate per rule_source (>30% investigate, <10% performing well), and which rules calibration demoted',
  builder: (y) =>
    y
      .option('format', { choices: STATS_FORMATS, default: 'text' as StatsFormat, describe: 'output format' })
      .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
      .option('html', {
        type: 'string',
        requiresArg: true,
        describe:
          'write a self-contained HTML page with charts to FILE instead of the table (--format json|csv still prints)',
      })
      .option('all', { type: 'boolean', default: false, describe: 'read every ref (default: HEAD and the mainline)' })
      .option('rule', {
        type: 'string',
        requiresArg: true,
        describe: 'only this rule_source, with each of its findings and the verdict it got',
      }),
  async run(args, context) {
    const [{ openWorkspace }, { buildStats }, { formatStats }, { calibrationExempt }] = await Promise.all([
      import('../../workspace/index.js'),
      import('../../stats/report.js'),
      import('../../stats/format.js'),
      import('../../review/findings/calibrate.js'),
    ]);
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
      signedRules: ws.config.gate.reviewers
        ? (await import('../../review/findings/signed.js')).signedAnswerRules(ws.config)
        : null,
    });
    if (bodyRows.length) {
      const { mineMessages } = await import('../../messages/mine.js');
      context.stderr.write(
        `${mineMessages.bodyNotCounted(bodyRows.map((b) => `${b.id} (${b.commit.slice(0, 7)})`))}\n`,
      );
    }
    if (html !== undefined)
      context.stderr.write(`${(await import('../../messages/stats.js')).statsMessages.wroteHtml(html)}\n`);
    const format = args.json ? 'json' : args.format;
    // The page is what --html asks for: the text table beside it is only noise; a data format
    // asked for with it is still printed (docs/stats.md).
    if (html !== undefined && format === 'text') return 0;
    context.stdout.write(formatStats(report, format, paint(useColor(context.stdout))));
    // What the adoption baseline still holds, per rule (docs/mining.md "The baseline").
    if (format === 'text' && !args.rule) {
      const lines = await (await import('../../flows/baseline.js')).baselineStatsLines(ws.top);
      if (lines.length) context.stdout.write(`\n${lines.map((l) => escapeControl(l)).join('\n')}\n`);
    }
    return 0;
  },
});
