/**
 * `revtrail trust [--revoke]` (docs/trust.md): allows this clone's configured reviewer program
 * to run, the way `direnv allow` allows an .envrc. The record lives outside the work tree.
 */
import { defineCommand } from '../command.js';
import { findRepo } from '../../core/git/repo.js';
import { loadConfig } from '../../config/load.js';
import { cloneKey, revokeTrust, trustCommand, trustFile, trustState } from '../../config/trust.js';
import { commandLabel, escapeControl } from '../../core/output.js';
import { InputError } from '../../core/errors.js';
import { configMessages as m } from '../../messages/config.js';

interface TrustArgs {
  revoke: boolean;
}

export default defineCommand<TrustArgs>({
  command: 'trust',
  describe: "Allow this clone's configured reviewer program to run (like direnv allow); --revoke forgets it",
  builder: (yargs) =>
    yargs
      .usage(
        '$0 trust [--revoke]\n\n' +
          'A reviewer.command from the repository\'s configuration runs only in a clone whose person trusted\n' +
          'that exact command. The record is kept outside the work tree ($REVTRAIL_TRUST_FILE, else\n' +
          '$XDG_CONFIG_HOME/revtrail/trust.json, else ~/.config/revtrail/trust.json).',
      )
      .option('revoke', { type: 'boolean', default: false, describe: 'Forget what was trusted in this clone' })
      .example('$0 trust', 'after reading reviewer.command in revtrail.config.json')
      .example('$0 trust --revoke', 'stop running it'),
  async run(args, context) {
    const repo = await findRepo(context.cwd);
    const clone = escapeControl(await cloneKey(repo.commonDir));
    if (args.revoke) {
      const removed = await revokeTrust(repo.commonDir);
      context.stdout.write(`${removed ? m.revoked(commandLabel(removed.command), clone) : m.nothingRevoked(clone)}\n`);
      return 0;
    }
    const { config, file } = await loadConfig(repo.top);
    const argv = config.reviewer.command;
    if (!argv) throw new InputError(m.nothingToTrust(file), { remedy: m.nothingToTrustRemedy });
    const label = commandLabel(argv);
    const before = await trustState(repo.commonDir, argv);
    if (before.state === 'trusted') {
      context.stdout.write(`${m.alreadyTrusted(label, clone)}\n`);
      return 0;
    }
    await trustCommand(repo.commonDir, argv, file);
    const lines = [m.trusted(label, clone)];
    if (before.state === 'changed') lines.push(m.replaced(commandLabel(before.entry.command)));
    lines.push(m.trustedWhere(escapeControl(trustFile())));
    context.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
});
