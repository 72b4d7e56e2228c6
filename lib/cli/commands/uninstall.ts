/** `revtrail uninstall` (docs/hooks.md): removes exactly what `revtrail install` added. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface UninstallArgs {
  json: boolean;
  server?: string;
  lefthook: boolean;
  preCommit: boolean;
  simpleGitHooks: boolean;
}

export default defineCommand<UninstallArgs>({
  command: 'uninstall',
  describe: 'Remove what revtrail install added (hook blocks or files, prepare script, core.hooksPath)',
  builder: (yargs) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print what was done as JSON' })
      .option('server', {
        type: 'string',
        requiresArg: true,
        describe: 'Remove the server gate revtrail install --server wrote into REPO',
      })
      .option('lefthook', {
        type: 'boolean',
        default: false,
        describe: "Remove revtrail's lefthook scripts and entries (lefthook.yml as install found it)",
      })
      .option('pre-commit', {
        type: 'boolean',
        default: false,
        describe: "Remove revtrail's pre-commit scripts and entries (.pre-commit-config.yaml as install found it)",
      })
      .option('simple-git-hooks', {
        type: 'boolean',
        default: false,
        describe:
          'Remove revtrail\'s scripts and its commands from package.json "simple-git-hooks" (yours kept), then run simple-git-hooks',
      })
      .example('$0 uninstall', 'from any folder of the work tree'),
  run: lazyRun('uninstall', 'uninstall'),
});
