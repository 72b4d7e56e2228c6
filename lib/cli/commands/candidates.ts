/** `revtrail candidates` (docs/gate.md): gate the mined threads, write candidate files, or explain. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface CandidatesArgs {
  out?: string;
  explain?: string;
  json: boolean;
  all: boolean;
}

export default defineCommand<CandidatesArgs>({
  command: 'candidates',
  describe: 'Knowledge candidates from finding threads that pass the promotion gate (drafts for a human)',
  builder: (y) =>
    y
      .option('out', {
        type: 'string',
        requiresArg: true,
        describe: 'folder for candidate files (default .revtrail/candidates/; never inside the bundle)',
      })
      .option('explain', {
        type: 'string',
        describe: 'every gate signal of a finding ID or a rule_source, with the facts; alone: of every rule_source',
      })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .option('all', { type: 'boolean', default: false, describe: 'read every ref (default: HEAD and the mainline)' }),
  run: lazyRun('candidates', 'candidates'),
});
