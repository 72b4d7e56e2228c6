/** `revtrail mine [REVS…]` (docs/mining.md): parses arguments, streams records, prints. */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl as esc, progress } from '../../core/output.js';
import type { MineFormat } from '../../mine/output.js';

// Kept here (not imported) so that listing commands does not load mining. `parquet` writes the
// organisation files of this repository (docs/org.md), through lib/org/ and DuckDB.
const MINE_FORMATS = ['jsonl', 'json', 'csv', 'parquet'] as const;

interface MineArgs {
  revs?: string[];
  _: Array<string | number>;
  all: boolean;
  format: MineFormat | 'parquet';
  json: boolean;
  out?: string;
  'include-open': boolean;
  redact: boolean;
  cache: boolean;
  'signed-answers': boolean;
}

const command = defineCommand<MineArgs>({
  command: 'mine [revs..]',
  describe: 'Mine Review-Finding trailers from git history into evidence records',
  builder: (y) =>
    y
      .positional('revs', {
        type: 'string',
        array: true,
        describe: 'revisions as git log takes them (default HEAD); after -- also git log options',
      })
      .option('all', { type: 'boolean', default: false, describe: 'every ref (git log --all)' })
      .option('format', {
        choices: MINE_FORMATS,
        default: 'jsonl' as MineFormat | 'parquet',
        describe: 'output format (parquet: a folder, docs/org.md)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
      .option('out', {
        type: 'string',
        requiresArg: true,
        describe: 'write to FILE instead of stdout (parquet: the folder, default .revtrail/org)',
      })
      .option('include-open', { type: 'boolean', default: false, describe: 'CSV: also rows for OPEN findings' })
      .option('redact', { type: 'boolean', default: false, describe: 'authors become REDACTED <p-pseudonym>' })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe: 'use the incremental cache in the git dir (--no-cache: read everything)',
      })
      .option('signed-answers', {
        type: 'boolean',
        default: false,
        describe: 'the audit of answers that need a reviewer signature (gate.reviewers) instead of the records',
      })
      .example('$0 mine --all --format csv --out feedback.csv', 'the feedback log of every branch'),
  async run(args, context) {
    const [{ mineFlow }, { mineMessages: m }] = await Promise.all([
      import('../../flows/mine.js'),
      import('../../messages/mine.js'),
    ]);
    const bar = progress(context.stderr);
    let outcome: Awaited<ReturnType<typeof mineFlow>>;
    try {
      outcome = await mineFlow({
        cwd: context.cwd,
        revs: [...(args.revs ?? []), ...args._.slice(1).map(String)],
        all: args.all,
        cache: args.cache,
        format: args.json ? 'json' : args.format,
        includeOpen: args['include-open'],
        redact: args.redact,
        out: args.out === undefined ? undefined : resolve(context.cwd, args.out),
        signedAnswers: args['signed-answers'],
        stdout: context.stdout,
        onProgress: (commits, records) => bar.update(m.progress(commits, records)),
        onPlan:
          process.env.REVTRAIL_DEBUG === '1'
            ? (plan, detail) => context.stderr.write(`revtrail: mine cache: ${plan}${detail ? ` (${detail})` : ''}\n`)
            : undefined,
      });
    } finally {
      bar.done();
    }
    for (const line of outcome.lines) context.stderr.write(`${esc(line)}\n`);
    return outcome.exit;
  },
});

export default command;
