/** `revtrail mine [REVS…]` (SPEC §7): parses arguments, streams records, prints. */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defineCommand } from '../command.js';
import { escapeControl as esc, progress } from '../../core/output.js';
import type { MineFormat, Sink } from '../../mine/output.js';
import type { Notice } from '../../mine/cache.js';

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
}

export default defineCommand<MineArgs>({
  command: 'mine [revs..]',
  describe: 'Mine Review-Finding trailers from git history into evidence records',
  builder: (y) =>
    y
      .positional('revs', { type: 'string', array: true, describe: 'revisions as git log takes them (default HEAD); after -- also git log options' })
      .option('all', { type: 'boolean', default: false, describe: 'every ref (git log --all)' })
      .option('format', { choices: MINE_FORMATS, default: 'jsonl' as MineFormat, describe: 'output format' })
      .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
      .option('out', { type: 'string', requiresArg: true, describe: 'write to FILE instead of stdout' })
      .option('include-open', { type: 'boolean', default: false, describe: 'CSV: also rows for OPEN findings' })
      .option('redact', { type: 'boolean', default: false, describe: 'authors become REDACTED <p-pseudonym>' })
      .option('cache', { type: 'boolean', default: true, describe: 'use the incremental cache in the git dir (--no-cache: read everything)' })
      .example('$0 mine --all --format csv --out feedback.csv', 'the feedback log of every branch'),
  async run(args, context) {
    const [{ findRepo }, { loadConfig }, { mine, cachedRun }, { recordWriter, streamSink, copyInto }, { KEPT_NOTICES }, { InputError }, { mineMessages: m }] = await Promise.all([
      import('../../core/git/repo.js'),
      import('../../config/load.js'),
      import('../../mine/index.js'),
      import('../../mine/output.js'),
      import('../../mine/cache.js'),
      import('../../core/errors.js'),
      import('../../messages/mine.js'),
    ]);
    const repo = await findRepo(context.cwd);
    const { config } = await loadConfig(repo.top);
    const revs = [...(args.revs ?? []), ...args._.slice(1).map(String)];
    const format: MineFormat = args.json ? 'json' : args.format;
    const redact = args.redact || config.privacy.redactAuthors;
    const debug = process.env.REVTRAIL_DEBUG === '1';

    let sink: Sink;
    let finishFile: (() => Promise<void>) | null = null;
    let dropFile: (() => Promise<void>) | null = null;
    if (args.out) {
      const file = resolve(context.cwd, args.out);
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      const stream = await openFile(file, tmp).catch((e: Error) => {
        throw new InputError(m.outUnwritable(file, e.message), { remedy: m.outUnwritableRemedy });
      });
      sink = streamSink(stream, { close: true });
      finishFile = () => rename(tmp, file);
      dropFile = async () => {
        stream.destroy();
        await unlink(tmp).catch(() => {});
      };
    } else {
      sink = streamSink(context.stdout);
    }

    const bar = progress(context.stderr);
    const notices: Notice[] = [];
    let noticeCount = 0;
    const note = (n: Notice) => {
      if (notices.length < KEPT_NOTICES) notices.push(n);
      noticeCount += 1;
    };
    const options = {
      cwd: repo.top,
      commonDir: repo.commonDir,
      revs,
      all: args.all,
      cache: args.cache,
      onPlan: debug ? (plan: string, detail?: string) => context.stderr.write(`revtrail: mine cache: ${plan}${detail ? ` (${detail})` : ''}\n`) : undefined,
    };
    try {
      // The cache holds exactly this run and the default output is wanted: copy it.
      const cached = format === 'jsonl' && !redact ? await cachedRun(options) : null;
      if (cached) {
        try {
          options.onPlan?.('replay', `${cached.meta.commits} commits, copied`);
          await copyInto(sink, cached.file);
        } finally {
          await cached.file.close().catch(() => {});
        }
        await sink.end();
        cached.meta.notices.forEach(note);
        noticeCount = cached.meta.noticeCount;
      } else {
        const writer = recordWriter(sink, { format, includeOpen: args['include-open'], redact });
        let commits = 0;
        let records = 0;
        let shown = 0;
        for await (const commit of mine(options)) {
          commits += 1;
          records += commit.lines.length;
          const { warnings, rejected } = commit.notices();
          for (const w of warnings) note({ kind: 'warning', commit: w.commit, text: w.message });
          for (const r of rejected) note({ kind: 'rejected', commit: r.commit, text: r.reason });
          await writer.add(commit);
          if (commits - shown >= 500) {
            shown = commits;
            bar.update(m.progress(commits, records));
          }
        }
        await writer.finish();
      }
      await finishFile?.();
    } catch (error) {
      await dropFile?.();
      throw error;
    } finally {
      bar.done();
    }
    for (const n of notices) context.stderr.write(`${esc(n.kind === 'warning' ? m.warning(n.commit, n.text) : m.rejectedLine(n.commit, n.text))}\n`);
    if (noticeCount > notices.length) context.stderr.write(`${m.warningsMore(noticeCount - notices.length)}\n`);
    return 0;
  },
});

async function openFile(file: string, tmp: string): Promise<NodeJS.WritableStream & { destroy(): void }> {
  await mkdir(dirname(file), { recursive: true });
  const stream = createWriteStream(tmp);
  await new Promise<void>((resolvePromise, reject) => {
    stream.once('open', () => resolvePromise());
    stream.once('error', reject);
  });
  return stream;
}
