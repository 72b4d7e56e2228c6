/** `revtrail stats` (docs/gate.md): counts per verdict and reject rate per rule_source. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import type { StatsFormat } from '../../stats/format.js';

// Kept here (not imported) so that listing commands does not load the formatter.
const STATS_FORMATS = ['text', 'json', 'csv'] as const;

export interface StatsArgs {
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
  run: lazyRun('stats', 'stats'),
});
