/** `revtrail ci record pass|fail [COMMIT]`: a CI outcome as a git note in refs/notes/revtrail-ci. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface RecordArgs {
  outcome: 'pass' | 'fail';
  commit: string;
  json: boolean;
}

const record = defineCommand<RecordArgs>({
  command: 'record <outcome> [commit]',
  describe: 'Store pass or fail for COMMIT (default HEAD), replacing an earlier note',
  builder: (y) =>
    y
      .positional('outcome', { choices: ['pass', 'fail'] as const, describe: 'the CI result' })
      .positional('commit', { type: 'string', default: 'HEAD', describe: 'the commit CI built' })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .example('$0 ci record pass', 'after a green build of HEAD')
      .example('$0 ci record fail 1a2b3c4', 'a red build of that commit'),
  run: lazyRun('ci', 'record'),
});

export default defineCommand({
  command: 'ci',
  describe: 'Record a CI outcome for a commit in git notes (ci record pass|fail [COMMIT]), read by the promotion gate',
  builder: (y) => y,
  subcommands: [record],
});
