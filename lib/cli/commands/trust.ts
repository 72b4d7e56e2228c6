/**
 * `revtrail trust [--revoke]` (docs/trust.md): allows this clone's configured reviewer program
 * to run, the way `direnv allow` allows an .envrc. The record lives outside the work tree.
 */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface TrustArgs {
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
  run: lazyRun('trust', 'trust'),
});
