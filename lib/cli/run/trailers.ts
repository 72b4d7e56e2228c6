/** The handlers of `revtrail trailers` (its options: ../commands/trailers.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../../core/errors.js';
import { escapeControl as esc } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { LintArgs } from '../commands/trailers.js';
import { lintMessage, trailerValuesFromParse } from '../../record/lint.js';
import { commentCharFor } from '../../record/message.js';
import { parseTrailers } from '../../record/write.js';
import { findRepo } from '../../core/git/repo.js';
import { trailerMessages as m } from '../../messages/trailers.js';

export const handlers = {
  async lint(args: LintArgs, context: CliContext): Promise<number> {
    // yargs hands a lone "-" positional over as "": both mean stdin (no file has an empty name).
    const file = args.file === '' ? '-' : args.file;
    const input = await readInput(file, context.cwd);
    const text = input.toString('utf8');
    // Inside a repository git's view adds the "not in the trailer block" check and core.commentChar.
    let commentChar = '#';
    let trailerValues: Set<string> | undefined;
    try {
      const repo = await findRepo(context.cwd);
      commentChar = await commentCharFor(repo.top, text);
      trailerValues = trailerValuesFromParse(await parseTrailers(input, { cwd: repo.top, commentChar }));
    } catch {
      // outside a repository: the rows are still checked
    }
    const result = lintMessage(text, { commentChar, trailerValues });
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
};

async function readInput(file: string, cwd: string): Promise<Buffer> {
  try {
    if (file !== '-') return await readFile(resolve(cwd, file));
    const parts: Buffer[] = [];
    for await (const part of process.stdin) parts.push(part as Buffer);
    return Buffer.concat(parts);
  } catch (error) {
    throw new InputError(m.unreadable(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message), {
      remedy: m.unreadableRemedy,
    });
  }
}
