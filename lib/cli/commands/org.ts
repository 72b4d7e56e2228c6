/**
 * `revtrail org mine|stats|candidates|query` (docs/org.md): many repositories' records in one
 * folder of Parquet files, answered by embedded DuckDB. Parses, calls lib/org/, prints. Exit 1
 * when a repository was skipped (the answer covers the rest), 2 for a usage or input error.
 */
import type { Argv } from 'yargs';
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import type { RepoOutcome } from '../../org/mine.js';

export interface OrgArgs {
  repos?: string[];
  from?: string[];
  dir: string;
  jobs?: number;
  json: boolean;
  redact: boolean;
  cache: boolean;
}

export const DEFAULT_DIR = '.revtrail/org';

function repoOptions(y: Argv): Argv {
  return y
    .positional('repos', {
      type: 'string',
      array: true,
      describe: 'repositories: work trees (top level) or bare clones; NAME=PATH names one',
    })
    .option('from', {
      type: 'string',
      array: true,
      requiresArg: true,
      describe: 'a file of repository paths, one a line (NAME=PATH names one; # comments)',
    })
    .option('jobs', { type: 'number', requiresArg: true, describe: 'repositories mined at once (default: the cores)' });
}

function common(y: Argv): Argv {
  return y
    .option('dir', {
      type: 'string',
      default: DEFAULT_DIR,
      requiresArg: true,
      describe: 'the folder of Parquet files (repo=<name>/…), written and read',
    })
    .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
    .option('redact', { type: 'boolean', default: false, describe: 'authors become REDACTED <p-pseudonym>' })
    .option('cache', { type: 'boolean', default: true, describe: 'use each repository’s mining cache' });
}

export interface Bar {
  repo(o: RepoOutcome, done: number, total: number): void;
  done(): void;
}

export const skippedOf = (outcomes: readonly RepoOutcome[]) =>
  outcomes.filter((o): o is Extract<RepoOutcome, { state: 'skipped' }> => o.state === 'skipped');

const mineCommand = defineCommand<OrgArgs>({
  command: 'mine [repos..]',
  describe: 'Mine repositories in parallel into the folder of Parquet files (an unchanged one is not rewritten)',
  builder: (y) =>
    common(repoOptions(y)).example('$0 org mine --from repos.txt --dir org-files', 'every repository of the list'),
  run: lazyRun('org', 'mine'),
});

const statsCommand = defineCommand<OrgArgs>({
  command: 'stats [repos..]',
  describe: 'Per-rule reject rates across the repositories, with n and where each rule is noisy',
  builder: (y) =>
    common(repoOptions(y))
      .usage('$0 org stats [REPOS…] [--from FILE] [--dir DIR] [--json]\n\nRepositories given are mined first.')
      .example('$0 org stats --dir org-files', 'from files mined before (or synced from elsewhere)'),
  run: lazyRun('org', 'stats'),
});

export interface QueryArgs extends OrgArgs {
  sql: string;
}

const queryCommand = defineCommand<QueryArgs>({
  command: 'query <sql>',
  describe: 'Run SQL over the folder’s tables (records, threads, rules) and views with embedded DuckDB',
  builder: (y) =>
    common(y.positional('sql', { type: 'string', describe: 'one SQL statement', demandOption: true }))
      .option('from', {
        type: 'string',
        array: true,
        requiresArg: true,
        describe: 'mine the repositories of FILE first',
      })
      .example('$0 org query "SELECT repository, count(*) FROM records GROUP BY 1"', 'records per repository'),
  run: lazyRun('org', 'query'),
});

export interface CandidatesArgs extends OrgArgs {
  out?: string;
  knowledge?: string;
}

const candidatesCommand = defineCommand<CandidatesArgs>({
  command: 'candidates [repos..]',
  describe: 'The promotion gate over the threads of several repositories: one draft per rule, naming each repository',
  builder: (y) =>
    repoOptions(y)
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .option('out', {
        type: 'string',
        requiresArg: true,
        describe: 'also write each candidate as an OKF file in DIR (never inside the bundle)',
      })
      .option('knowledge', {
        type: 'string',
        requiresArg: true,
        describe: 'the shared bundle: a rule it holds is knowledge already',
      })
      .example('$0 org candidates --from repos.txt --knowledge shared/.okfw', 'what the teams found and fixed alike'),
  run: lazyRun('org', 'candidates'),
});

export default defineCommand({
  command: 'org',
  describe: 'Many repositories in one place: mine them into Parquet, then stats, candidates or SQL with DuckDB',
  builder: (yargs) => yargs.usage('$0 org <mine|stats|candidates|query> [options]'),
  subcommands: [mineCommand, statsCommand, candidatesCommand, queryCommand],
});
