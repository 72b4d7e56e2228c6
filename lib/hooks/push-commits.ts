/**
 * The pushed commits' own diffs, for the per-commit credential check of pre-push (docs/hooks.md
 * "Push"): one `git log` for all of them, streamed, each commit's diff handed on as bytes so the
 * credential screen can pass over it without decoding it, and capped per file (../diff/cap.ts)
 * so that no file of any size holds more than its share of memory.
 *
 * Each commit starts with a line `<marker> <commit>`, the marker a random word of this run: a
 * patch's own lines all start with ` `, `+`, `-`, `\`, `@@` or a header word, and none can guess
 * the marker, so no content (a NUL byte, a line that looks like a header) moves a boundary.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { crypto } from '../core/node-module.js';
import { gitChunks } from '../core/git/run.js';
import { DIFF_ARGS, DIFF_CONFIG } from '../diff/source.js';
import { DiffCapper, DEFAULT_CAPS, StreamSplitter, type DiffCaps } from '../diff/cap.js';

export interface CommitPatch {
  commit: string;
  /** The commit's diff against its first parent (a root commit: against the empty tree), UTF-8. */
  diff: Buffer;
  /** Files of this diff cut to the per-file cap. */
  capped: string[];
}

const NEWLINE = 0x0a;

/**
 * `bytes` unpredictable bytes as hex: from /dev/urandom where there is one (node:crypto costs
 * milliseconds to load, on every push), else from crypto.
 */
function randomHex(bytes: number): string {
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      if (readSync(fd, buffer, 0, bytes, null) === bytes) return buffer.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    // none here (Windows)
  }
  return crypto().randomBytes(bytes).toString('hex');
}

/**
 * Each commit's own diff against its first parent, in the order given, from one `git log`
 * streamed commit by commit. `{ walk }`: the commits git's walk of these revision arguments
 * reaches instead (what `git rev-list` of them lists, in git log's order), so the stream can
 * start before the list is known (./push-start.ts).
 */
export async function* commitPatches(
  top: string,
  commits: readonly string[] | { walk: readonly string[] },
  caps: DiffCaps = DEFAULT_CAPS,
): AsyncGenerator<CommitPatch> {
  const listed = Array.isArray(commits) ? (commits as readonly string[]) : null;
  if (listed?.length === 0) return;
  const marker = `revtrail-${randomHex(12)}`;
  const which = listed ? ['--no-walk=unsorted', '--stdin'] : [];
  const args = [
    ...DIFF_CONFIG,
    'log',
    ...which,
    `--format=${marker} %H`,
    '-p',
    '--root',
    '--diff-merges=first-parent',
    '--no-show-signature',
    ...DIFF_ARGS.slice(1),
    ...(listed ? [] : [...(commits as { walk: readonly string[] }).walk, '--']),
  ];
  const done: CommitPatch[] = [];
  // The current commit: its header line's bytes until its newline, then its patch, capped.
  let header: Buffer[] | null = null;
  let commit = '';
  let capper: DiffCapper | null = null;
  let blank = false;
  const finish = () => {
    if (header) commit = Buffer.concat(header).toString('utf8').trim();
    if (commit) {
      const diff = capper ? capper.end() : Buffer.alloc(0);
      done.push({ commit, diff, capped: capper?.capped ?? [] });
    }
    header = null;
    commit = '';
    capper = null;
  };
  const splitter = new StreamSplitter(Buffer.from(`\n${marker} `), {
    boundary() {
      // The delimiter took the newline that ended the patch's last line.
      if (capper && !blank) capper.write(Buffer.from('\n'));
      finish();
      header = [];
    },
    bytes(part) {
      if (header) {
        const newline = part.indexOf(NEWLINE);
        if (newline === -1) {
          header.push(part);
          return;
        }
        header.push(part.subarray(0, newline));
        commit = Buffer.concat(header).toString('utf8').trim();
        header = null;
        capper = new DiffCapper(caps);
        blank = true;
        part = part.subarray(newline + 1);
      }
      if (!capper || part.length === 0) return;
      // git puts a blank line between the header and the patch.
      if (blank) {
        blank = false;
        if (part[0] === NEWLINE) part = part.subarray(1);
      }
      if (part.length) capper.write(part);
    },
  });
  const input = listed ? `${listed.join('\n')}\n` : undefined;
  for await (const piece of gitChunks(args, { cwd: top, input })) {
    splitter.write(piece);
    yield* done.splice(0);
  }
  splitter.end();
  finish();
  yield* done.splice(0);
}
