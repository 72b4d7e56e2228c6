/** `revtrail stats` (docs/gate.md): counts per verdict and reject rate per rule_source. */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { configCacheFile } from '../../core/state.js';
import { paint, useColor } from '../../core/output.js';
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
  describe: 'Counts per verdict and reject rate per rule_source (>30% investigate, <10% performing well), and which rules calibration demoted',
  builder: (y) =>
    y
      .option('format', { choices: STATS_FORMATS, default: 'text' as StatsFormat, describe: 'output format' })
      .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
      .option('html', { type: 'string', requiresArg: true, describe: 'also write a self-contained HTML page with charts to FILE' })
      .option('all', { type: 'boolean', default: false, describe: 'read every ref (default: HEAD and the mainline)' })
      .option('rule', { type: 'string', requiresArg: true, describe: 'only this rule_source, with each of its findings and the verdict it got' }),
  async run(args, context) {
    const [{ findRepo }, { loadConfig }, { loadHistory }, { computeStats }, { formatStats }, { withMinVerdicts }, { calibrationExempt }] = await Promise.all([
      import('../../core/git/repo.js'),
      import('../../config/load.js'),
      import('../../gate/history.js'),
      import('../../stats/compute.js'),
      import('../../stats/format.js'),
      import('../../stats/present.js'),
      import('../../review/calibrate.js'),
    ]);
    const repo = await findRepo(context.cwd);
    const { config } = await loadConfig(repo.top, { cacheFile: configCacheFile(repo.commonDir) });
    const history = await loadHistory({ cwd: repo.top, commonDir: repo.commonDir, mainline: config.mainline, all: args.all });
    // Never calibrated: credential rules, and security rules the config does not name (the review's rule, docs/gate.md).
    const exempt = calibrationExempt(history.commits.flatMap((c) => c.findings), config.calibration.security);
    if (history.bodyRows.length) {
      const { mineMessages } = await import('../../messages/mine.js');
      context.stderr.write(`${mineMessages.bodyNotCounted(history.bodyRows.map((b) => `${b.id} (${b.commit.slice(0, 7)})`))}\n`);
    }
    const report = withMinVerdicts(computeStats(history.commits, { calibration: { ...config.calibration, exempt }, rule: args.rule }), config.calibration.minVerdicts);
    if (args.rule !== undefined && report.rules.length === 0) {
      const [{ InputError }, { statsMessages: m }] = await Promise.all([import('../../core/errors.js'), import('../../messages/stats.js')]);
      const known = computeStats(history.commits, { calibration: { ...config.calibration, exempt } }).rules.map((r) => r.rule_source);
      throw new InputError(m.unknownRule(args.rule), { remedy: m.unknownRuleRemedy(known) });
    }
    if (args.html) {
      const file = resolve(context.cwd, args.html);
      const [{ writeFileAtomic }, { statsHtml }, { computeTrends }, { InputError }, { statsMessages: m }, { attention, mainlineCommits, pageMeta }, { BLOCKING_SEVERITIES }] = await Promise.all([
        import('../../core/fs/atomic.js'),
        import('../../stats/html.js'),
        import('../../stats/trend.js'),
        import('../../core/errors.js'),
        import('../../messages/stats.js'),
        import('../../stats/attention.js'),
        import('../../core/vocabulary.js'),
      ]);
      // What reached the mainline: the history read is the mainline's own, or its commits are listed.
      const reachable = history.reachable ?? (history.mainline ? await mainlineCommits(repo.top, history.mainline.sha) : new Set<string>());
      const blocking = config.softTests ? BLOCKING_SEVERITIES : [...BLOCKING_SEVERITIES, 'test' as const];
      const extras = {
        meta: await pageMeta(repo.top, history.mainline?.name ?? null),
        attention: attention(history.commits, { blocking, onMainline: (c) => reachable.has(c) }),
      };
      try {
        await writeFileAtomic(file, statsHtml(report, computeTrends(history.commits), extras));
      } catch (error) {
        throw new InputError(m.htmlUnwritable(file, (error as Error).message), { remedy: m.htmlUnwritableRemedy });
      }
      context.stderr.write(m.wroteHtml(file) + '\n');
    }
    const format = args.json ? 'json' : args.format;
    context.stdout.write(formatStats(report, format, paint(useColor(context.stdout))));
    return 0;
  },
});
