/** The handlers of `revtrail uninstall` (its options: ../commands/uninstall.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import type { UninstallArgs } from '../commands/uninstall.js';
import { uninstallServer } from '../../install/server.js';
import { installMessages as m, managerMessages as mm, serverInstallMessages as s } from '../../messages/install.js';
import { installedManager, uninstallManager } from '../../install/manager.js';
import { uninstall } from '../../install/uninstall.js';

export const handlers = {
  async uninstall(args: UninstallArgs, context: CliContext): Promise<number> {
    if (args.server !== undefined) {
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
    const manager = flagged ?? (await installedManager(context.cwd));
    if (manager) {
      const report = await uninstallManager(context.cwd, manager);
      if (args.json) context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else context.stdout.write(`${[mm.uninstalled(manager), ...report.actions.map((a) => `  ${a}`)].join('\n')}\n`);
      return 0;
    }
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
};
