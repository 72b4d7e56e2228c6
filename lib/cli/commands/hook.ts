/**
 * `revtrail hook NAME ...`: what the installed hook scripts run. bin/revtrail.js starts it from the
 * hook bundle without loading yargs (lib/cli/hook-start.ts); this module gives it --help.
 */
import { defineCommand } from '../command.js';

interface HookArgs {
  name: string;
  args: string[];
}

export default defineCommand<HookArgs>({
  command: 'hook <name> [args..]',
  describe: 'Run a git hook: commit-msg FILE, pre-push REMOTE URL (ref lines on stdin); on a server: pre-receive, update REF OLD NEW',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 hook commit-msg FILE\n$0 hook pre-push REMOTE URL < ref-lines\n$0 hook pre-receive < ref-lines\n$0 hook update REF OLD NEW\n\n' +
          'What .husky/commit-msg and .husky/pre-push run. Exit 1: blocked (the hook script fails);\n' +
          'any other non-zero exit is an internal failure the script reports as a warning.\n' +
          'REVTRAIL=0 skips the hooks (not the server ones: pre-receive and update, see docs/server.md).',
      )
      .positional('name', {
        type: 'string',
        choices: ['commit-msg', 'prepare-commit-msg', 'post-commit', 'post-merge', 'post-rewrite', 'pre-push', 'pre-receive', 'update'],
        describe: 'The hook',
      })
      .positional('args', { type: 'string', array: true, describe: 'What git passes to the hook' }),
  async run(args, context) {
    const { runHook } = await import('../../hooks/run.js');
    return runHook([args.name, ...(args.args ?? []).map(String)], context);
  },
});
