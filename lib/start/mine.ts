/**
 * `revtrail mine [REVS…] [--all]` answered from the mine cache without yargs or the ES module
 * loader (docs/mining.md "At history scale"): bin/revtrail.js requires this one CommonJS file for
 * a `mine` with nothing but revisions and `--all`. When the cache holds exactly this run, the
 * cached records are copied to stdout and the notices printed, as the `mine` command does; in
 * every other case (no repository, a configuration that redacts authors, no cache entry, tips
 * that moved) it answers null before writing anything, and the full CLI runs as before.
 */
import { findRepo } from '../core/git/repo.js';
import { loadConfig } from '../config/load.js';
import { configCacheFile } from '../core/state.js';
import { cachedRunAnswered, mineArgs } from '../mine/replay.js';
import { signatureQuestion } from '../mine/cache.js';
import { copyInto, copyToFd, streamSink, writeToFd } from '../mine/sink.js';
import { escapeControl as esc } from '../core/output.js';
import { reportError } from '../core/fail.js';
import { mineMessages as m } from '../messages/mine.js';

/** Whether `args` (after `mine`) are all this path reads: revisions and `--all`. */
export function plainMineArgs(args: readonly string[]): boolean {
  return args.every((a) => a === '--all' || (a !== '' && !a.startsWith('-')));
}

/** The exit code, or null: not answered here (nothing was written), run the full CLI. */
export async function fastMine(
  args: readonly string[],
  given?: { cwd: string; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number | null> {
  // process.stdout and process.stderr are not made unless needed: a stream makes its descriptor
  // non-blocking, and the output below is written to the descriptors directly (sink.ts copyToFd).
  const context = given ?? {
    cwd: process.cwd(),
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
  };
  const say = (text: string) => (given ? given.stderr.write(text) : writeToFd(2, text, () => process.stderr));
  if (!plainMineArgs(args)) return null;
  const options = { revs: args.filter((a) => a !== '--all'), all: args.includes('--all') };
  const question = signatureQuestion(mineArgs(options));
  if (!question) return null;
  let run: ReturnType<typeof cachedRunAnswered> | undefined;
  const unused = async () => (await run?.catch(() => null))?.file.close().catch(() => {});
  let cached: Awaited<ReturnType<typeof cachedRunAnswered>>;
  try {
    // Where the repository is and what the tips are, from one git process (docs/mining.md "Start-up").
    const { repo, rest } = await findRepo(context.cwd, { more: question });
    run = cachedRunAnswered(context.cwd, repo.commonDir, options, rest);
    run.catch(() => {});
    const { config } = await loadConfig(repo.top, { cacheFile: configCacheFile(repo.commonDir) });
    if (config.privacy.redactAuthors) {
      await unused();
      return null; // the cached records are not redacted
    }
    cached = await run;
  } catch {
    await unused();
    return null; // the full CLI says why
  }
  if (!cached) return null;
  const { file, meta } = cached;
  // From here on output is written: an error is reported, never left to the full CLI.
  const crash = (error: unknown) => process.exit(reportError(error, context.stderr));
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  try {
    if (process.env.REVTRAIL_DEBUG === '1') say(`revtrail: mine cache: replay (${meta.commits} commits, copied)\n`);
    if (given) {
      const sink = streamSink(given.stdout);
      await copyInto(sink, file);
      await sink.end();
    } else await copyToFd(1, file, () => process.stdout);
  } catch (error) {
    return reportError(error, context.stderr);
  } finally {
    await file.close().catch(() => {});
  }
  let notices = '';
  for (const n of meta.notices)
    notices += `${esc(n.kind === 'warning' ? m.warning(n.commit, n.text) : m.rejectedLine(n.commit, n.text))}\n`;
  if (meta.noticeCount > meta.notices.length) notices += `${m.warningsMore(meta.noticeCount - meta.notices.length)}\n`;
  if (notices) say(notices);
  return 0;
}
