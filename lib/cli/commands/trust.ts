/**
 * `revtrail trust [--revoke]` (docs/trust.md): allows this clone's configured reviewer program
 * to run, the way `direnv allow` allows an .envrc. The record lives outside the work tree.
 */
import { defineCommand } from '../command.js';
import { commandLabel, escapeControl } from '../../core/output.js';
import { InputError } from '../../core/errors.js';

interface TrustArgs {
  revoke: boolean;
}

export default defineCommand<TrustArgs>({
  command: 'trust',
  describe:
    "Allow this clone's configured reviewer program to run, or its model endpoint off this machine to be sent code (like direnv allow); --revoke forgets it",
  builder: (yargs) =>
    yargs
      .usage(
        '$0 trust [--revoke]\n\n' +
          "A reviewer.command from the repository's configuration runs only in a clone whose person trusted\n" +
          'that exact command; a reviewer.model.endpoint that is not on this machine is sent code only once\n' +
          'trusted the same way. The record is kept outside the work tree ($REVTRAIL_TRUST_FILE, else\n' +
          '$XDG_CONFIG_HOME/revtrail/trust.json, else ~/.config/revtrail/trust.json).',
      )
      .option('revoke', { type: 'boolean', default: false, describe: 'Forget what was trusted in this clone' })
      .example('$0 trust', 'after reading reviewer.command in revtrail.config.json')
      .example('$0 trust --revoke', 'stop running it'),
  async run(args, context) {
    const [
      { openWorkspace },
      { cloneKey, endpointTrusted, revokeTrust, trustCommand, trustFile, trustState },
      { configMessages: m },
    ] = await Promise.all([
      import('../../workspace/index.js'),
      import('../../config/trust.js'),
      import('../../messages/config.js'),
    ]);
    // A configuration that cannot be used is the error here: nothing is trusted from the defaults.
    const ws = await openWorkspace(context.cwd, { configCache: false });
    const repo = ws.repo!;
    const clone = escapeControl(await cloneKey(repo.commonDir));
    if (args.revoke) {
      const removed = await revokeTrust(repo.commonDir);
      const what = removed
        ? [
            removed.command.length ? commandLabel(removed.command) : '',
            removed.endpoint ? escapeControl(removed.endpoint) : '',
          ]
            .filter(Boolean)
            .join(' and ')
        : '';
      context.stdout.write(`${removed ? m.revoked(what, clone) : m.nothingRevoked(clone)}\n`);
      return 0;
    }
    if (ws.configError) throw ws.configError;
    const { config, configFile: file } = ws;
    const argv = config.reviewer.command ?? [];
    // A model endpoint on this machine needs no trust; one elsewhere is trusted beside the command.
    const endpoint = config.reviewer.model?.endpoint;
    const remote =
      endpoint !== undefined &&
      !(await (await import('../../review/model/endpoint.js')).checkEndpointLoopback(endpoint))
        ? endpoint
        : undefined;
    if (argv.length === 0 && remote === undefined)
      throw new InputError(m.nothingToTrust(file), { remedy: m.nothingToTrustRemedy });
    const label = argv.length ? commandLabel(argv) : '';
    const before = await trustState(repo.commonDir, argv);
    const endpointBefore = remote === undefined || (await endpointTrusted(repo.commonDir, remote));
    if ((argv.length === 0 || before.state === 'trusted') && endpointBefore) {
      context.stdout.write(
        `${[...(argv.length ? [m.alreadyTrusted(label, clone)] : []), ...(remote ? [m.endpointAlreadyTrusted(escapeControl(remote), clone)] : [])].join('\n')}\n`,
      );
      return 0;
    }
    await trustCommand(repo.commonDir, argv, file, process.env, remote);
    const lines = [
      ...(argv.length ? [m.trusted(label, clone)] : []),
      ...(remote ? [m.endpointTrusted(escapeControl(remote), clone)] : []),
    ];
    if (before.state === 'changed' && before.entry.command.length)
      lines.push(m.replaced(commandLabel(before.entry.command)));
    lines.push(m.trustedWhere(escapeControl(trustFile())));
    context.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
});
