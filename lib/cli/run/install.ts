/** The handlers of `revtrail install` (its options: ../commands/install.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { RevtrailError } from '../../core/errors.js';
import type { CliContext } from '../command.js';
import type { InstallArgs } from '../commands/install.js';
import { installServer, serverHookScript } from '../../install/server.js';
import { installMessages as m, managerMessages as mm, serverInstallMessages as s } from '../../messages/install.js';
import { setUpFromPrepare } from '../../install/from-prepare.js';
import { installManager } from '../../install/manager.js';
import { install } from '../../install/install.js';

export const handlers = {
  async install(args: InstallArgs, context: CliContext): Promise<number> {
    if (args.printServerHook) {
      context.stdout.write(serverHookScript().text);
      return 0;
    }
    if (args.server !== undefined) {
      const done = await installServer(args.server);
      if (args.json) context.stdout.write(`${JSON.stringify(done, null, 2)}\n`);
      else
        context.stdout.write(
          `${[done.action === 'unchanged' ? s.serverUpToDate(done.file) : s.installedServer(done.file), s.serverRuns(done.node, done.cli), s.policyFrom(done.policyRef), s.serverFailMode].join('\n')}\n`,
        );
      return 0;
    }
    if (args.fromPrepare) {
      const done = await setUpFromPrepare(context.cwd);
      for (const line of done.lines) context.stderr.write(`${line}\n`);
      return 0;
    }
    const managers = (['lefthook', 'pre-commit', 'simple-git-hooks'] as const).filter(
      (name) => args[name === 'pre-commit' ? 'preCommit' : name === 'simple-git-hooks' ? 'simpleGitHooks' : name],
    );
    if (managers.length) {
      if (managers.length > 1) throw new RevtrailError(mm.bothManagers, { exitCode: 2 });
      const report = await installManager(context.cwd, managers[0]!, { record: args.recordHooks });
      if (args.json) context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else
        context.stdout.write(
          `${[mm.installed(report.manager), ...report.actions.map((a) => `  ${a}`), ...report.notes.map((n) => `  ${n}`)].join('\n')}\n`,
        );
      return 0;
    }
    const report = await install(context.cwd, {
      force: args.force,
      appendPrepare: args.appendPrepare,
      repair: args.repair,
    });
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
};
