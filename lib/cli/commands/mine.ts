/** `revtrail mine [REVS…]` (docs/mining.md): parses arguments, streams records, prints. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import type { MineFormat } from '../../mine/output.js';

// Kept here (not imported) so that listing commands does not load mining. `parquet` writes the
// organisation files of this repository (docs/org.md), through lib/org/ and DuckDB.
const MINE_FORMATS = ['jsonl', 'json', 'csv', 'parquet'] as const;

export interface MineArgs {
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
  run: lazyRun('mine', 'mine'),
});

export default command;
