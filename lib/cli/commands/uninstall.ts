/** `revtrail uninstall` (docs/hooks.md): removes exactly what `revtrail install` added. */
import { defineCommand } from '../command.js';

interface UninstallArgs {
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
  async run(args, context) {
    if (args.server !== undefined) {
      const { uninstallServer } = await import('../../install/server.js');
      const { serverInstallMessages: s } = await import('../../messages/install.js');
      const done = await uninstallServer(args.server);
      if (args.json) context.stdout.write(`${JSON.stringify(done, null, 2)}\n`);
      else
        context.stdout.write(
          `${[done.file ? s.uninstalledServer(done.file) : s.notInstalledServer(args.server), ...done.notes.map((n) => `  ${n}`)].join('\n')}\n`,
        );
      return 0;
    }
    const flagged = args.lefthook
      ? 'lefthook'
      : args.preCommit
        ? 'pre-commit'
        : args.simpleGitHooks
          ? 'simple-git-hooks'
          : null;
    // Plain uninstall where revtrail went into a manager takes that manager's route.
    const manager = flagged ?? (await (await import('../../install/manager.js')).installedManager(context.cwd));
    if (manager) {
      const [{ uninstallManager }, { managerMessages: mm }] = await Promise.all([
        import('../../install/manager.js'),
        import('../../messages/install.js'),
      ]);
      const report = await uninstallManager(context.cwd, manager);
      if (args.json) context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else context.stdout.write(`${[mm.uninstalled(manager), ...report.actions.map((a) => `  ${a}`)].join('\n')}\n`);
      return 0;
    }
    const [{ uninstall }, { installMessages: m }] = await Promise.all([
      import('../../install/uninstall.js'),
      import('../../messages/install.js'),
    ]);
    const report = await uninstall(context.cwd);
    if (args.json) {
      context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    const head = report.nothing ? m.notInstalled : m.uninstalled;
    context.stdout.write(
      `${[head, ...report.actions.map((a) => `  ${a}`), ...report.notes.map((n) => `  ${n}`)].join('\n')}\n`,
    );
    return 0;
  },
});
