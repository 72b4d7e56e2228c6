/** `revtrail trailers lint FILE|-` (docs/trailers.md): checks every Review-Finding trailer of a message. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { InputError } from '../../core/errors.js';
import { escapeControl as esc } from '../../core/output.js';

interface LintArgs {
  file: string;
  json: boolean;
}

async function readInput(file: string, cwd: string): Promise<Buffer> {
  try {
    if (file !== '-') return await readFile(resolve(cwd, file));
    const parts: Buffer[] = [];
    for await (const part of process.stdin) parts.push(part as Buffer);
    return Buffer.concat(parts);
  } catch (error) {
    const { trailerMessages: m } = await import('../../messages/trailers.js');
    throw new InputError(m.unreadable(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message), {
      remedy: m.unreadableRemedy,
    });
  }
}

const lint = defineCommand<LintArgs>({
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
  async run(args, context) {
    // yargs hands a lone "-" positional over as "": both mean stdin (no file has an empty name).
    const file = args.file === '' ? '-' : args.file;
    const input = await readInput(file, context.cwd);
    const text = input.toString('utf8');
    const { lintMessage, trailerValuesFromParse } = await import('../../record/lint.js');
    const { commentCharFor } = await import('../../record/message.js');
    const { parseTrailers } = await import('../../record/write.js');
    // Inside a repository git's view adds the "not in the trailer block" check and core.commentChar.
    let commentChar = '#';
    let trailerValues: Set<string> | undefined;
    try {
      const { findRepo } = await import('../../core/git/repo.js');
      const repo = await findRepo(context.cwd);
      commentChar = await commentCharFor(repo.top, text);
      trailerValues = trailerValuesFromParse(await parseTrailers(input, { cwd: repo.top, commentChar }));
    } catch {
      // outside a repository: the rows are still checked
    }
    const result = lintMessage(text, { commentChar, trailerValues });
    const { trailerMessages: m } = await import('../../messages/trailers.js');
    const name = file === '-' ? '<stdin>' : file;
    if (args.json) {
      context.stdout.write(
        `${JSON.stringify({ file: name, rows: result.rows.length, errors: result.errors, warnings: result.warnings, problems: result.problems }, null, 2)}\n`,
      );
    } else {
      const out = result.problems.map((p) => `${esc(m.problem(name, p.line, p.level, p.reason))}\n  ${esc(p.text)}`);
      if (out.length) context.stdout.write(`${out.join('\n')}\n`);
      context.stderr.write(`${m.lintSummary(name, result.rows.length, result.errors, result.warnings)}\n`);
    }
    return result.errors ? 1 : 0;
  },
});

export default defineCommand({
  command: 'trailers',
  describe: 'Check the Review-Finding trailers of a commit message (trailers lint FILE|-)',
  builder: (yargs) => yargs.usage('$0 trailers lint FILE|-'),
  subcommands: [lint],
});
