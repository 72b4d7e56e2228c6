/** `revtrail doctor`: checks this clone's installation and says what to fix (docs/hooks.md, "Doctor"). */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface DoctorArgs {
  json: boolean;
}

export default defineCommand<DoctorArgs>({
  command: 'doctor',
  describe:
    'Check that the hooks run in this clone (every worktree, CLI, node, prepare script, bundle) and say what to fix',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 doctor [--json]\n\nExit 0 when nothing needs fixing (warnings included), 1 when something does, 2 when the configuration cannot be used.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The checks as JSON' })
      .example('$0 doctor', 'after cloning, or when a commit was not reviewed'),
  run: lazyRun('doctor', 'doctor'),
});
