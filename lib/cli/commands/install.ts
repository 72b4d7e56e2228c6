/** `revtrail install` (SPEC §6): husky's installer, then revtrail's commit-msg and pre-push hooks. */
import { defineCommand } from '../command.js';
import { installMessages as m } from '../../messages/hooks.js';

interface InstallArgs {
  force: boolean;
  json: boolean;
}

export default defineCommand<InstallArgs>({
  command: 'install',
  describe: 'Install the commit-msg and pre-push hooks through husky (idempotent)',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 install [--force]\n\n' +
          'Sets core.hooksPath to .husky/_ (husky), writes .husky/commit-msg and .husky/pre-push (or adds a\n' +
          'marked revtrail block to your own), and adds "prepare": "husky" to a top-level package.json\n' +
          'without a prepare script. revtrail uninstall undoes exactly that.',
      )
      .option('force', { type: 'boolean', default: false, describe: 'Install even when core.hooksPath points elsewhere (uninstall restores it)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print what was done as JSON' })
      .example('$0 install', 'from any folder of the work tree'),
  async run(args, context) {
    const { install } = await import('../../hooks/install.js');
    const report = await install(context.cwd, { force: args.force });
    if (args.json) {
      context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    if (report.skipped) {
      context.stderr.write(`revtrail: ${report.notes.join('\n  ')}\n`);
      return 0;
    }
    const out = [m.installed, ...report.actions.map((a) => `  ${a}`), ...report.notes.map((n) => `  ${n}`)];
    context.stdout.write(`${out.join('\n')}\n`);
    return 0;
  },
});
