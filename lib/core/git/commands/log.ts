/**
 * Commits' messages, trailers, notes, signatures and metadata (`git log`, `blame`). A format
 * string whose fields a parser elsewhere reads (mining, the record's history) is the caller's
 * value: the parse and its format stay together there, the argv here.
 */
import type { GitCommand, StreamCommand } from '../run.js';
import { batches, records, stdinLines, text } from './shape.js';
import { parseLines } from './parse.js';

/**
 * git's trailer view follows `trailer.separators` and `core.commentChar`: with `=` as the
 * separator, or `R` as the comment character (then every `Review-Finding: …` line counts as a
 * comment), the rows are no trailers at all. revtrail writes with `:` and reads committed
 * messages with `:` and git's default `#`, whatever the config says, so every reader sees the
 * rows its writer wrote (docs/record.md "Git's settings"). The writer passes the separator and
 * the message's own comment character (./config.ts interpretTrailers).
 */
export const SEPARATOR_CONFIG = ['-c', 'trailer.separators=:'] as const;
export const TRAILER_CONFIG = [...SEPARATOR_CONFIG, '-c', 'core.commentChar=#'] as const;

/** A commit's message (UTF-8), or '' when it has none. */
export function commitMessage(commit: string): GitCommand<string> {
  return {
    args: ['log', '-1', '--no-walk', '--encoding=UTF-8', '--format=%B', '--end-of-options', commit, '--'],
    parse: (a) => a.text,
  };
}

/** The commits among `commits` whose own diff (first parent) touches `path`, in the order given. */
export function commitsTouching(commits: readonly string[], path: string): GitCommand<string[]> {
  return {
    args: ['log', '--no-walk=unsorted', '--stdin', '--format=%H', '--diff-merges=first-parent', '--', path],
    input: `${commits.join('\n')}\n`,
    env: { GIT_LITERAL_PATHSPECS: '1' },
    parse: (a) => parseLines(a.text),
  };
}

/** The last commit before or at `commit` that changed `file`, as `log -1 --format=%H` prints it. */
export function lastCommitTouching(commit: string, file: string): GitCommand<string> {
  return text(['log', '-1', '--format=%H', commit, '--', file]);
}

/** `git blame --porcelain` of one line of `file` as `commit` has it. */
export function blameLine(commit: string, file: string, line: number): GitCommand<string> {
  return text(['blame', '--porcelain', '-L', `${line},${line}`, commit, '--', file]);
}

/** `<commit>\0<parents>\0<subject>` of each of `commits`, one a line, in the order given. */
export function subjectsAndParents(commits: readonly string[]): GitCommand<string> {
  return text(['log', '--no-walk=unsorted', '--format=%H%x00%P%x00%s', ...commits, '--']);
}

/** The paths each of `commits` changes (`-z`, no renames), the commits one after another. */
export function namesChangedBy(commits: readonly string[]): GitCommand<string> {
  return text(['log', '--no-walk=unsorted', '--stdin', '--format=', '--name-only', '-z', '--no-renames'], {
    input: stdinLines(commits),
  });
}

/**
 * The commits from `tip` (and the tips `more`, before it) whose message has a `key:` line
 * (case-insensitive grep), each printed as `format` with -z, read in the trailer settings above.
 */
export function trailerLog(
  format: string,
  key: string,
  tip: string,
  more: readonly string[],
): StreamCommand<'records'> {
  return records([...TRAILER_CONFIG, 'log', `--format=${format}`, '-z', `--grep=^${key}:`, '-i', ...more, tip, '--']);
}

/** Each of `commits` printed as `format` with -z, read in the trailer settings above. */
export function trailersOf(format: string, commits: readonly string[]): StreamCommand<'records'> {
  return records([...TRAILER_CONFIG, 'log', '--no-walk=unsorted', '--stdin', `--format=${format}`, '-z'], {
    input: stdinLines(commits),
  });
}

/** `<commit>\0<message>` of each of `commits` (-z records). */
export function messagesOf(commits: readonly string[]): StreamCommand<'records'> {
  return records(['log', '--no-walk=unsorted', '--stdin', '--format=%H%x00%B', '-z'], { input: stdinLines(commits) });
}

/**
 * The one `git log` mining reads (lib/mine/log.ts): `format` per commit with -z, re-encoded to
 * UTF-8 (a message written with another i18n.commitEncoding), prefiltered by a case-insensitive
 * grep that is a superset (the parser decides what a finding is); of `revArgs`, or of the
 * revisions on stdin when `stdin` is given. Into a pipe git flushes after every commit: a read
 * of a kilobyte or so each, and each read costs Node more than parsing what it brings.
 * Buffered (GIT_FLUSH=0), git writes in pages.
 */
export function miningLog(format: string, revArgs: readonly string[], stdin?: string): StreamCommand<'batches'> {
  return batches(
    [
      ...TRAILER_CONFIG,
      'log',
      '-z',
      '--encoding=UTF-8',
      `--format=${format}`,
      '-i',
      '--grep=review-finding',
      ...(stdin !== undefined ? ['--stdin'] : []),
      ...revArgs,
      '--',
    ],
    { input: stdin, env: { GIT_FLUSH: '0' } },
  );
}

/** `<commit>\x01<note>` of each of `commits` under the notes ref `ref` (-z records). */
export function notesOf(ref: string, commits: readonly string[]): StreamCommand<'records'> {
  return records(['log', '--no-walk=unsorted', '--stdin', '-z', `--notes=${ref}`, '--format=%H%x01%N'], {
    input: stdinLines(commits),
  });
}

/**
 * Each of `commits` printed as `format` (signature fields), checked against `signersFile`
 * (none: /dev/null, so no key is allowed) and without the signature shown in the output.
 */
export function signaturesOf(
  format: string,
  signersFile: string | null,
  commits: readonly string[],
): GitCommand<string> {
  return text(
    [
      '-c',
      `gpg.ssh.allowedSignersFile=${signersFile ?? '/dev/null'}`,
      '-c',
      'log.showSignature=false',
      'log',
      '--no-walk=unsorted',
      '--stdin',
      `--format=${format}`,
    ],
    { input: stdinLines(commits) },
  );
}

/**
 * Up to `max` commits of `revs` that change `paths` against their first parent, each as
 * `\x1e<commit>\x1f<author e-mail>\x1f<committer date>` and its raw diff (full blob ids, -z).
 */
export function policyLog(max: number, revs: readonly string[], paths: readonly string[]): GitCommand<string> {
  return text([
    'log',
    `--max-count=${max}`,
    '--no-renames',
    '--no-abbrev',
    '--raw',
    '--diff-merges=first-parent',
    '-z',
    '--format=%x1e%H%x1f%ae%x1f%cI',
    ...revs,
    '--',
    ...paths,
  ]);
}

/** A commit's id, parents and subject, `rev` peeled to a commit; null when `rev` names none. */
export function commitHeadline(rev: string): GitCommand<{ commit: string; parents: string[]; subject: string } | null> {
  return {
    args: ['log', '-1', '--format=%H%x00%P%x00%s', `${rev}^{commit}`, '--'],
    okCodes: [128],
    parse: (a) => {
      if (a.status !== 0) return null;
      const [commit = '', parents = '', subject = ''] = a.text.replace(/\n$/, '').split('\0');
      return { commit, parents: parents.split(' ').filter(Boolean), subject };
    },
  };
}
