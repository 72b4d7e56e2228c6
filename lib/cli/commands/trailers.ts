/** `revtrail trailers lint FILE|-` (docs/trailers.md): checks every Review-Finding trailer of a message. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface LintArgs {
  file: string;
  json: boolean;
}

export const lint = defineCommand<LintArgs>({
  command: 'lint <file>',
  describe: 'Check every Review-Finding trailer of a message FILE (- for stdin); exit 1 on a bad one',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 trailers lint FILE|-\n\n' +
          'Checks every Review-Finding: line (key case-insensitive) of a commit message: the nine-field\n' +
          'row and the rationale gates. Prints FILE:LINE: reason; exit 1 on an error, 0 with warnings only.',
      )
      .positional('file', { type: 'string', describe: 'Message file, or - for stdin' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'Print {file, rows, errors, warnings, problems} as JSON',
      })
      .example('$0 trailers lint .git/COMMIT_EDITMSG', 'check a message before committing')
      .example('git log -1 --format=%B | $0 trailers lint -', 'check the last commit'),
  run: lazyRun('trailers', 'lint'),
});

export default defineCommand({
  command: 'trailers',
  describe: 'Check the Review-Finding trailers of a commit message (trailers lint FILE|-)',
  builder: (yargs) => yargs.usage('$0 trailers lint FILE|-'),
  subcommands: [lint],
});
