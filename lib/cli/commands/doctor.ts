/** `revtrail doctor`: checks this clone's installation and says what to fix (docs/hooks.md, "Doctor"). */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface DoctorArgs {
  json: boolean;
  timing?: string;
  runs: number;
}

export default defineCommand<DoctorArgs>({
  command: 'doctor',
  describe:
    'Check that the hooks run in this clone (every worktree, CLI, node, prepare script, bundle) and say what to fix',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 doctor [--json] [--timing[=<commit>] [--runs N]]\n\nExit 0 when nothing needs fixing (warnings included), 1 when something does, 2 when the configuration cannot be used.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The checks as JSON' })
      .option('timing', {
        type: 'string',
        describe:
          'Time one commit (HEAD, or the one named) and one push through the hooks this repository runs: what revtrail, the team and the hook manager each cost (docs/hooks.md, "Timing the chain")',
      })
      .option('runs', { type: 'number', default: 3, describe: 'With --timing: runs of each, the median shown' })
      .example('$0 doctor', 'after cloning, or when a commit was not reviewed')
      .example('$0 doctor --timing', 'what revtrail adds to a commit and a push here'),
  run: lazyRun('doctor', 'doctor'),
});
