/**
 * `revtrail rules` (README "Commands"): the rules in force for this repository, the built-in
 * baseline the config leaves on and the bundle's, with where each comes from. A configuration
 * that cannot be used is named on stderr and the defaults list, as a review runs with them.
 */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import { knowledgeOption } from '../options.js';

export interface RulesArgs {
  json: boolean;
  format: 'text' | 'json';
  backtest: boolean;
  since?: string;
  maxCount?: number;
  knowledge?: string;
  quiet: boolean;
}

export interface RuleRow {
  rule_source: string;
  id: string;
  kind: 'regex' | 'ast' | 'imports';
  severity: string;
  category: string;
  /** `builtin`, or the document's file (from the start folder). */
  source: string;
  /** A credential rule: no config switches it off (docs/trust.md "Credential rules"). */
  always_on: boolean;
  title: string;
}

export default defineCommand<RulesArgs>({
  command: 'rules',
  describe:
    "List the rules in force here: the built-in baseline and the bundle's, with kind, severity, category and source",
  builder: (yargs) =>
    knowledgeOption(yargs)
      .usage(
        '$0 rules [--json]\n$0 rules --backtest [--since DATE | --max-count N] [--format text|json] [--quiet]\n\n' +
          'Credential rules are marked "always on": no configuration switches them off or excludes them.\n' +
          "--backtest replays each of the bundle's rules over the mainline's history (first parent, the change each\n" +
          'commit introduced) and prints per rule its hits, files, commits, authors and first lines.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The rules (or the backtest) as JSON' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' })
      .option('backtest', {
        type: 'boolean',
        default: false,
        describe: "Replay the bundle's rules over history: what each would have raised",
      })
      .option('since', {
        type: 'string',
        requiresArg: true,
        describe: 'With --backtest: commits since DATE (as git log takes it)',
      })
      .option('max-count', {
        type: 'number',
        requiresArg: true,
        describe: 'With --backtest: the N newest mainline commits',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line on stderr' })
      .example('$0 rules', 'which rules a review here runs')
      .example('$0 rules --backtest --max-count 1000', "each bundle rule's noise over the last 1,000 commits"),
  run: lazyRun('rules', 'rules'),
});
