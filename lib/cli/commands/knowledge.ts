/**
 * `revtrail knowledge check [DIR]` validates a bundle; `revtrail knowledge select` shows which
 * documents govern each chunk of a diff and why (docs/cli.md, docs/bundle.md).
 */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import { diffSourceOptions, knowledgeOption, type DiffSourceArgs } from '../options.js';

export interface CheckArgs {
  dir?: string;
  json: boolean;
  knowledge?: string;
}

export interface SelectArgs extends DiffSourceArgs {
  json: boolean;
  knowledge?: string;
}

const checkCommand = defineCommand<CheckArgs>({
  command: 'check [dir]',
  describe: 'Validate a bundle: errors print file:line: message and exit 1, warnings exit 0',
  builder: (yargs) =>
    knowledgeOption(yargs)
      .positional('dir', { type: 'string', describe: 'The bundle folder (default: "knowledge" of the config, .okfw)' })
      .option('json', { type: 'boolean', default: false, describe: 'Machine-readable output' })
      .example('$0 knowledge check', 'validate the configured bundle'),
  run: lazyRun('knowledge', 'check'),
});

const selectCommand = defineCommand<SelectArgs>({
  command: 'select',
  describe: 'Show, per chunk of a diff, the governing documents in selection order and why',
  builder: (yargs) =>
    knowledgeOption(diffSourceOptions(yargs))
      .usage(
        '$0 knowledge select [--diff FILE|- | --staged | --range A..B] [--knowledge DIR] [--json]\n\nDefault diff: all uncommitted changes against HEAD, new (untracked, not ignored) files included.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'Machine-readable output' })
      .example('$0 knowledge select --staged', 'which documents govern the staged change'),
  run: lazyRun('knowledge', 'select'),
});

export default defineCommand({
  command: 'knowledge',
  describe: 'Validate the knowledge bundle (check) or show which documents govern a diff (select)',
  builder: (yargs) => yargs.usage('$0 knowledge <check|select> [options]'),
  subcommands: [checkCommand, selectCommand],
});
