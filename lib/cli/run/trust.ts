/** The handlers of `revtrail trust` (its options: ../commands/trust.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { commandLabel, escapeControl } from '../../core/output.js';
import { InputError } from '../../core/errors.js';
import type { CliContext } from '../command.js';
import type { TrustArgs } from '../commands/trust.js';
import { openWorkspace } from '../../workspace/index.js';
import { cloneKey, endpointTrusted, revokeTrust, trustCommand, trustFile, trustState } from '../../config/trust.js';
import { configMessages as m } from '../../messages/config.js';
import { checkEndpointLoopback } from '../../review/model/endpoint.js';

export const handlers = {
  async trust(args: TrustArgs, context: CliContext): Promise<number> {
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
    const remote = endpoint !== undefined && !(await checkEndpointLoopback(endpoint)) ? endpoint : undefined;
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
};
