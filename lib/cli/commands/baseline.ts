/**
 * `revtrail baseline` (docs/mining.md "The baseline"): records the existing violations of the
 * bundle's rules in `.revtrail/baseline.json`, so that they never block while new code is held to
 * the rules; `--check` says per rule how many remain, how many were fixed, and what is new.
 */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import { knowledgeOption } from '../options.js';

export interface BaselineArgs {
  check: boolean;
  json: boolean;
  knowledge?: string;
  quiet: boolean;
}

export default defineCommand<BaselineArgs>({
  command: 'baseline',
  describe: "Record the existing violations of the bundle's rules so only new code is held to them",
  builder: (yargs) =>
    knowledgeOption(yargs)
      .usage(
        '$0 baseline [--check] [--json] [--quiet]\n\n' +
          "Reviews every tracked file at HEAD with the bundle's rules (never the credential rules) and writes\n" +
          'what they find to .revtrail/baseline.json: commit it. A review then takes those violations out of the\n' +
          'count, also when a change touches their lines; a new violation still counts.',
      )
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'Write nothing: per rule, the entries that remain at HEAD, those fixed, and violations not recorded',
      })
      .option('json', { type: 'boolean', default: false, describe: 'The outcome as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line on stderr' })
      .example('$0 baseline', 'record what the rules find in the tree today')
      .example('$0 baseline --check', 'how many recorded violations remain and how many were fixed'),
  run: lazyRun('baseline', 'baseline'),
});
