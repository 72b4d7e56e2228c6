/**
 * The one `git log` that mining reads: commits prefiltered by git (`--grep`, case-insensitive),
 * streamed through a child process and cut into commits as they arrive.
 */
import { miningLog, stream } from '../core/git/commands.js';
import type { RawCommit } from './types.js';

// Five NUL-separated fields per commit, and -z ends each commit with one more NUL. %B is last
// but one so a message of any size is one field; git's own trailer view rides in the same call.
const FORMAT = '%H%x00%cI%x00%an <%ae>%x00%(trailers:key=Review-Finding,valueonly,unfold,separator=%x1f)%x00%B';
const FIELDS = 5;

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
  let fields: string[] = [];
  for await (const records of stream(miningLog(FORMAT, revArgs, stdin), { cwd, readAhead: READ_AHEAD })) {
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
