/** `revtrail init`: revtrail.config.json and a starter bundle at the work tree's top level. */
import { defineCommand } from '../command.js';

interface InitArgs {
  json: boolean;
  docMap: boolean;
}

export default defineCommand<InitArgs>({
  command: 'init',
  describe: 'Write revtrail.config.json and a starter knowledge bundle (.okfw/); never overwrites',
  builder: (yargs) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print what was written and kept as JSON' })
      .option('doc-map', {
        type: 'boolean',
        default: false,
        describe: 'Write a starter doc map (design documents without frontmatter) instead of a starter bundle',
      })
      .example('$0 init', 'set revtrail up in this repository (from any folder inside it)')
      .example('$0 init --doc-map', 'map existing design documents (docs/adr/*.md ...) to the code they govern'),
  async run(args, context) {
    const [{ openWorkspace }, { writeStarter }, { initMessages: m }] = await Promise.all([
      import('../../workspace/index.js'),
      import('../../bundle/starter.js'),
      import('../../messages/init.js'),
    ]);
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
    const route = await (await import('../../install/route.js')).installRoute(repo.top, repo.commonDir);
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
});
