/**
 * The one `git log` that mining reads: commits prefiltered by git (`--grep`, case-insensitive),
 * streamed through a child process and cut into commits as they arrive.
 */
import { gitRecordBatches } from '../core/git/run.js';
import type { RawCommit } from './types.js';
import { TRAILER_CONFIG } from '../record/history.js';

// Five NUL-separated fields per commit, and -z ends each commit with one more NUL. %B is last
// but one so a message of any size is one field; git's own trailer view rides in the same call.
const FORMAT = '%H%x00%cI%x00%an <%ae>%x00%(trailers:key=Review-Finding,valueonly,unfold,separator=%x1f)%x00%B';
const FIELDS = 5;

/**
 * Options every mining log uses. `--encoding=UTF-8` makes git re-encode messages written with
 * another i18n.commitEncoding; the grep is a superset (the parser decides what a finding is).
 */
export const LOG_OPTIONS = [
  ...TRAILER_CONFIG,
  'log',
  '-z',
  '--encoding=UTF-8',
  `--format=${FORMAT}`,
  '-i',
  '--grep=review-finding',
] as const;

// Into a pipe git flushes after every commit: a read of a kilobyte or so each, and each read
// costs Node more than parsing what it brings. Buffered, git writes in pages.
const LOG_ENV = { GIT_FLUSH: '0' };

// Reads held while the parser works: four keep git writing (a read is parsed faster than git
// fills the next), more only hold memory.
const READ_AHEAD = 4;

const SHA = /^[0-9a-f]{40,64}$/;

/**
 * Commits of `git log <args>` (or of the revisions given on stdin with `--stdin`), in git's
 * order, as many at a time as one read of git's output completes.
 */
export async function* readCommitBatches(
  cwd: string,
  revArgs: readonly string[],
  stdin?: string,
): AsyncGenerator<RawCommit[]> {
  const args = [...LOG_OPTIONS, ...(stdin !== undefined ? ['--stdin'] : []), ...revArgs, '--'];
  let fields: string[] = [];
  for await (const records of gitRecordBatches(args, { cwd, input: stdin, env: LOG_ENV, readAhead: READ_AHEAD })) {
    const commits: RawCommit[] = [];
    for (const field of records) {
      fields.push(field);
      if (fields.length < FIELDS) continue;
      const [commit, date, author, trailers, body] = fields as [string, string, string, string, string];
      fields = [];
      if (!SHA.test(commit)) throw new Error(`unexpected git log output near "${commit.slice(0, 40)}"`);
      commits.push({ commit, date, author, body, trailerValues: trailers ? trailers.split('\x1f') : [] });
    }
    if (commits.length) yield commits;
  }
}
