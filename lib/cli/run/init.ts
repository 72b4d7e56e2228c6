/** The handlers of `revtrail init` (its options: ../commands/init.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import type { InitArgs } from '../commands/init.js';
import { openWorkspace } from '../../workspace/index.js';
import { writeStarter } from '../../bundle/starter.js';
import { initMessages as m } from '../../messages/init.js';
import { installRoute } from '../../install/route.js';

export const handlers = {
  async init(args: InitArgs, context: CliContext): Promise<number> {
    const ws = await openWorkspace(context.cwd, { configCache: false });
    if (ws.configError) throw ws.configError;
    const { config, configFile: file } = ws;
    const repo = ws.repo!;
    const result = await writeStarter(repo.top, {
      knowledge: config.knowledge,
      configInPackageJson: file?.endsWith('package.json') ?? false,
      docMap: args.docMap ? { configured: config.docMap } : undefined,
    });
    if (args.json) {
      context.stdout.write(`${JSON.stringify({ top: repo.top, ...result }, null, 2)}\n`);
      return 0;
    }
    const out = [m.heading(repo.top)];
    for (const path of result.written) out.push(m.wrote(path));
    for (const skip of result.skipped) {
      out.push(
        skip.reason === 'exists'
          ? m.keptFile(skip.path)
          : skip.reason === 'bundle-has-index'
            ? m.keptBundle(skip.path)
            : m.keptConfigInPackage,
      );
    }
    if (result.ignored) out.push(m.ignored);
    if (result.written.length === 0 && !result.ignored) out.push(m.nothingWritten);
    // The install step names the route that works here (plain install refuses beside a hook manager).
    const route = await installRoute(repo.top, repo.commonDir);
    if (result.docMap) {
      if (!result.docMap.configured) out.push('', m.addDocMapKey(result.docMap.path));
      out.push('', m.nextDocMap(result.docMap.path, route));
      context.stdout.write(`${out.join('\n')}\n`);
      return 0;
    }
    const adr = result.written.find((p) => /\/decisions\/.+\.md$/.test(p)) ?? null;
    out.push('', m.next(adr, route));
    context.stdout.write(`${out.join('\n')}\n`);
    return 0;
  },
};
