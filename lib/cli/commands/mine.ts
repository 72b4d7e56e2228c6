/** `revtrail mine [REVS…]` (docs/mining.md): parses arguments, streams records, prints. */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl as esc, progress } from '../../core/output.js';
import type { MineFormat } from '../../mine/output.js';

// Kept here (not imported) so that listing commands does not load mining.
const MINE_FORMATS = ['jsonl', 'json', 'csv'] as const;

interface MineArgs {
  revs?: string[];
  _: Array<string | number>;
  all: boolean;
  format: MineFormat;
  json: boolean;
  out?: string;
  'include-open': boolean;
  redact: boolean;
  cache: boolean;
  'signed-answers': boolean;
}

export default defineCommand<MineArgs>({
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
      .option('format', { choices: MINE_FORMATS, default: 'jsonl' as MineFormat, describe: 'output format' })
      .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
      .option('out', { type: 'string', requiresArg: true, describe: 'write to FILE instead of stdout' })
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
        format: args.json ? 'json' : args.format,
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
