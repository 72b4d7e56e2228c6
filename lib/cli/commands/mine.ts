/** `revtrail mine [REVS…]` (docs/mining.md): parses arguments, streams records, prints. */
import { relative, resolve } from 'node:path';
import { defineCommand, type CliContext } from '../command.js';
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
    // git looks for the repository while the rest loads.
    const { findRepo } = await import('../../core/git/repo.js');
    const found = findRepo(context.cwd);
    found.catch(() => {});
    const [{ loadConfig }, { configCacheFile }, { runMine }, { mineMessages: m }] = await Promise.all([
      import('../../config/load.js'),
      import('../../core/state.js'),
      import('../../mine/run.js'),
      import('../../messages/mine.js'),
    ]);
    const repo = await found;
    // A configuration validated before is not validated again (zod loads only when it changed).
    const { config } = await loadConfig(repo.top, { cacheFile: configCacheFile(repo.commonDir) });
    const revs = [...(args.revs ?? []), ...args._.slice(1).map(String)];
    if (args['signed-answers'])
      return (await import('../../stats/signed-audit.js')).writeSignedAudit({
        top: repo.top,
        commonDir: repo.commonDir,
        config,
        rules: (await import('../../review/findings/signed.js')).signedAnswerRules(config),
        revs,
        all: args.all,
        json: args.json || args.format === 'json',
        redact: args.redact || config.privacy.redactAuthors,
        out: args.out === undefined ? undefined : resolve(context.cwd, args.out),
        stdout: context.stdout,
      });
    if (args.format === 'parquet' && !args.json) return mineParquet(args, repo, revs, context);
    const debug = process.env.REVTRAIL_DEBUG === '1';
    const bar = progress(context.stderr);
    let result: Awaited<ReturnType<typeof runMine>>;
    try {
      result = await runMine({
        cwd: repo.top,
        commonDir: repo.commonDir,
        revs,
        all: args.all,
        cache: args.cache,
        format: args.json ? 'json' : (args.format as MineFormat),
        includeOpen: args['include-open'],
        redact: args.redact || config.privacy.redactAuthors,
        out: args.out === undefined ? undefined : resolve(context.cwd, args.out),
        stdout: context.stdout,
        onProgress: (commits, records) => bar.update(m.progress(commits, records)),
        onPlan: debug
          ? (plan, detail) => context.stderr.write(`revtrail: mine cache: ${plan}${detail ? ` (${detail})` : ''}\n`)
          : undefined,
      });
    } finally {
      bar.done();
    }
    const { notices, noticeCount } = result;
    for (const n of notices)
      context.stderr.write(
        `${esc(n.kind === 'warning' ? m.warning(n.commit, n.text) : m.rejectedLine(n.commit, n.text))}\n`,
      );
    if (noticeCount > notices.length) context.stderr.write(`${m.warningsMore(noticeCount - notices.length)}\n`);
    return 0;
  },
});

export default command;

/**
 * `mine --format parquet [--out DIR]`: this repository's partition of the organisation files
 * (docs/org.md "Schema"), the history `stats` reads (HEAD and the mainline), rewritten only when
 * it moved. Revisions and --all name other histories, which the files do not describe.
 */
async function mineParquet(
  args: MineArgs,
  repo: { top: string },
  revs: string[],
  context: CliContext,
): Promise<number> {
  const [{ runOrgMine }, { nameOf }, { orgMessages: m }, { UsageError }, { CREDENTIAL_RULE_SOURCES }] =
    await Promise.all([
      import('../../org/run.js'),
      import('../../org/repos.js'),
      import('../../messages/org.js'),
      import('../../core/errors.js'),
      import('../../review/builtin.js'),
    ]);
  if (revs.length || args.all) throw new UsageError(m.parquetRevisions, { remedy: m.parquetRevisionsRemedy });
  const dir = resolve(context.cwd, args.out ?? resolve(repo.top, '.revtrail', 'org'));
  const name = nameOf(repo.top);
  const [outcome] = await runOrgMine({
    dir,
    entries: [{ name, path: repo.top }],
    redact: args.redact,
    cache: args.cache,
    exempt: (s) => CREDENTIAL_RULE_SOURCES.has(s),
  });
  if (!outcome || outcome.state === 'skipped') {
    const { InputError } = await import('../../core/errors.js');
    throw new InputError(outcome?.problem ?? m.noRepositories);
  }
  const shown = relative(context.cwd, dir) || '.';
  context.stderr.write(
    `${esc(outcome.state === 'mined' ? m.parquetWrote(name, shown, outcome.commits, outcome.records) : m.parquetUnchanged(name, shown))}\n`,
  );
  return 0;
}
