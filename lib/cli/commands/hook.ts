/**
 * `revtrail hook NAME ...`: what the installed hook scripts run. bin/revtrail.js starts it from the
 * hook bundle without loading yargs (lib/start/starter.ts); this module gives it --help.
 */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import { RUNNABLE_HOOKS } from '../../hooks/registry.js';

export interface HookArgs {
  name: string;
  args: string[];
}

export default defineCommand<HookArgs>({
  command: 'hook <name> [args..]',
  describe: 'Run a git hook (what the installed hooks call; revtrail hook --help lists them)',
  builder: (yargs) =>
    yargs
      .usage(
        RUNNABLE_HOOKS.map(
          (r) => `$0 hook ${r.name}${r.usage ? ` ${r.usage}` : ''}${r.side === 'server' ? '   (on a server)' : ''}`,
        ).join('\n') +
          '\n\n' +
          'What the hook files in .husky/ run. Exit 1: blocked (the hook script fails);\n' +
          'any other non-zero exit is an internal failure the script reports as a warning.\n' +
          'REVTRAIL=0 skips the hooks (not the server ones: pre-receive and update, see docs/server.md).',
      )
      .positional('name', {
        type: 'string',
        choices: RUNNABLE_HOOKS.map((r) => r.name),
        describe: 'The hook',
      })
      .positional('args', { type: 'string', array: true, describe: 'What git passes to the hook' }),
  run: lazyRun('hook', 'hook'),
});
