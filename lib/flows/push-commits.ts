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
import { patchesOfCommits, stream } from '../core/git/commands.js';
import { DiffCapper, DEFAULT_CAPS, StreamSplitter, type DiffCaps } from '../diff/cap.js';
import { CombinedToUnified } from '../diff/combined.js';
import { addedFile } from '../diff/build.js';
import { formatFile } from '../diff/format.js';

export interface CommitPatch {
  commit: string;
  /** The commit's diff against its first parent (a root commit: against the empty tree), UTF-8. */
  diff: Buffer;
  /** Files of this diff cut to the per-file cap. */
  capped: string[];
}

const NEWLINE = 0x0a;
/** Reads of git's output (64 KiB each) held ahead of the reader. */
const READ_AHEAD = 256;
/** The most bytes of one commit message reviewed (a longer one is read up to here). */
const MESSAGE_BYTES = 1024 * 1024;

/**
 * A commit's message as a diff that adds it as a file, `(message of commit <12 hex>)`: the
 * credential rules read it as they read a file (docs/hooks.md "Push": a key in a message is
 * pushed as surely as one in a file).
 */
export function messageDiff(commit: string, message: Buffer): Buffer {
  return Buffer.from(addedFileDiff(messagePath('commit', commit.slice(0, 12)), message.toString('utf8')));
}

/**
 * Text as a diff that adds it as the file `path` ('' for blank text): the model's added file
 * (../diff/build.ts) written by the one writer (../diff/format.ts), which quotes a name as git
 * would.
 */
export function addedFileDiff(path: string, text: string): string {
  const file = addedFile(path, text);
  return file ? formatFile(file) : '';
}

/** The name a commit's paths go by in findings: `(paths of commit 1a2b3c4d5e6f)`. */
export function pathsPath(commit12: string): string {
  return `(paths of commit ${commit12})`;
}

const DIFF_HEADER = Buffer.from('diff --git ');
const DELETED = Buffer.from('deleted file mode ');

/**
 * The paths a commit's patch adds or changes, as its `diff --git` lines name them: a key can be a
 * file or folder name, and one a later commit of the push renames is in no tip's paths (docs/hooks.md
 * "Push", issue 58). A file over the caps keeps its header (../diff/cap.ts); a deleted file is
 * not named (its path was pushed before). A name git quotes, or a rename, is kept as git wrote it.
 */
export function patchPaths(patch: Buffer): string[] {
  const paths: string[] = [];
  for (let at = patch.indexOf(DIFF_HEADER); at !== -1; at = patch.indexOf(DIFF_HEADER, at + 1)) {
    if (at > 0 && patch[at - 1] !== NEWLINE) continue; // a content line (`+diff --git …`)
    const newline = patch.indexOf(NEWLINE, at);
    const end = newline === -1 ? patch.length : newline;
    const next = end + 1;
    if (patch.subarray(next, next + DELETED.length).equals(DELETED)) continue;
    const names = patch.toString('utf8', at + DIFF_HEADER.length, end);
    // `a/P b/P`: the one path, once.
    const half = (names.length - 5) / 2;
    const path = names.slice(2, 2 + half);
    paths.push(Number.isInteger(half) && names === `a/${path} b/${path}` ? path : names);
  }
  return paths;
}

/** `bytes` without the end line (`\n<marker>.`) it ends with, kept to the message cap. */
function withoutEnd(bytes: Buffer, end: Buffer): Buffer {
  const cut = bytes.length >= end.length && bytes.subarray(bytes.length - end.length).equals(end);
  const text = cut ? bytes.subarray(0, bytes.length - end.length) : bytes;
  return text.subarray(0, MESSAGE_BYTES);
}

/** The name a message goes by in findings: `(message of commit 1a2b3c4d5e6f)`, `(message of tag v1)`. */
export function messagePath(kind: 'commit' | 'tag', name: string): string {
  return `(message of ${kind} ${name})`;
}

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
 * Which commits' patches to read: a list, with the merges among it named; or the commits git's
 * walk of these revision arguments reaches (what `git rev-list` of them lists), so the stream can
 * start before the list is known (./push-start.ts), with the merges among them once it is.
 */
export type PatchSource =
  | { commits: readonly string[]; merges: ReadonlySet<string> }
  | { walk: readonly string[]; merges: Promise<readonly string[]> };

/**
 * Each commit's own diff with its message, streamed commit by commit. A commit with one parent:
 * its diff against it (a root commit: against the empty tree), in one `git log` in the order
 * given. A merge: only what it adds beyond its parents, from a second `git log --cc` beside the
 * first (docs/hooks.md "Merges in the credential pass"); the two streams interleave.
 */
export async function* commitPatches(
  top: string,
  source: PatchSource,
  caps: DiffCaps = DEFAULT_CAPS,
): AsyncGenerator<CommitPatch> {
  const ones =
    'walk' in source
      ? logPatches(top, { walk: source.walk }, caps, false)
      : logPatches(
          top,
          source.commits.filter((c) => !source.merges.has(c)),
          caps,
          false,
        );
  const merges = 'walk' in source ? source.merges : Promise.resolve(source.commits.filter((c) => source.merges.has(c)));
  yield* interleave([ones, mergePatches(top, merges, caps)]);
}

async function* mergePatches(
  top: string,
  merges: Promise<readonly string[]>,
  caps: DiffCaps,
): AsyncGenerator<CommitPatch> {
  yield* logPatches(top, await merges, caps, true);
}

/** The items of `sources` as each has them ready; every source is closed when this one is. */
async function* interleave<T>(sources: Array<AsyncGenerator<T>>): AsyncGenerator<T> {
  type Step = { at: number; step: IteratorResult<T> };
  const pending = new Map<number, Promise<Step>>();
  const ask = (at: number) =>
    pending.set(
      at,
      sources[at]!.next().then((step) => ({ at, step })),
    );
  for (let at = 0; at < sources.length; at++) ask(at);
  try {
    while (pending.size) {
      const { at, step } = await Promise.race(pending.values());
      if (step.done) {
        pending.delete(at);
        continue;
      }
      ask(at);
      yield step.value;
    }
  } finally {
    for (const p of pending.values()) p.catch(() => {});
    await Promise.all(sources.map((s) => s.return(undefined).catch(() => {})));
  }
}

/**
 * One `git log -p` of `commits`: against the first parent, or (`merges`) git's dense combined
 * diff made two-way (../diff/combined.ts). `{ walk }`: the commits that walk reaches, merges left
 * out (they come from the list once it is known).
 */
async function* logPatches(
  top: string,
  commits: readonly string[] | { walk: readonly string[] },
  caps: DiffCaps,
  merges: boolean,
): AsyncGenerator<CommitPatch> {
  const listed = Array.isArray(commits) ? (commits as readonly string[]) : null;
  if (listed?.length === 0) return;
  const marker = `revtrail-${randomHex(12)}`;
  // A merge's combined diff without rename detection: a file one side renamed is that side's
  // file in the merge, so it differs from no parent and is not shown (and finding renames
  // across three trees costs git several times the diff itself).
  const command = patchesOfCommits(
    marker,
    listed,
    listed ? [] : (commits as { walk: readonly string[] }).walk,
    merges,
    DEFAULT_CAPS.fileBytes,
  );
  const done: CommitPatch[] = [];
  // The message ends at a line of its own that no message can guess (the marker and a dot).
  const messageEnd = Buffer.from(`\n${marker}.\n`);
  // The current commit: its header line's bytes until its newline, its message until its end
  // line (kept up to MESSAGE_BYTES), then its patch, capped.
  let header: Buffer[] | null = null;
  let commit = '';
  let message: Buffer | null = null;
  let messageBytes: Buffer[] = [];
  let capper: DiffCapper | null = null;
  let combined: CombinedToUnified | null = null;
  let blank = false;
  const feed = (part: Buffer) => capper!.write(combined ? combined.write(part) : part);
  const finish = () => {
    if (header) commit = Buffer.concat(header).toString('utf8').trim();
    if (commit) {
      if (capper && combined) capper.write(combined.end());
      const patch = capper ? capper.end() : Buffer.alloc(0);
      // A commit with no patch: the next commit's delimiter took the end line's newline.
      const text = message ?? withoutEnd(Buffer.concat(messageBytes), messageEnd.subarray(0, -1));
      const paths = Buffer.from(addedFileDiff(pathsPath(commit.slice(0, 12)), patchPaths(patch).join('\n')));
      done.push({
        commit,
        diff: Buffer.concat([patch, paths, messageDiff(commit, text)]),
        capped: capper?.capped ?? [],
      });
    }
    header = null;
    commit = '';
    message = null;
    messageBytes = [];
    capper = null;
    combined = null;
  };
  /** Takes message bytes; returns what follows the message's end line, or null while it goes on. */
  const takeMessage = (part: Buffer): Buffer | null => {
    // The end line may straddle two pieces: look in what was held back with this piece.
    const held = Buffer.concat([...messageBytes, part]);
    const end = held.indexOf(messageEnd);
    if (end === -1) {
      // Hold the start (up to the cap) and enough of the tail to see the end line arrive.
      messageBytes = [
        held.length > MESSAGE_BYTES + messageEnd.length
          ? Buffer.concat([
              held.subarray(0, MESSAGE_BYTES),
              held.subarray(Math.max(MESSAGE_BYTES, held.length - messageEnd.length)),
            ])
          : held,
      ];
      return null;
    }
    message = held.subarray(0, Math.min(end, MESSAGE_BYTES));
    return held.subarray(end + messageEnd.length);
  };
  const splitter = new StreamSplitter(Buffer.from(`\n${marker} `), {
    boundary() {
      // The delimiter took the newline that ended the patch's last line.
      if (capper && !blank) feed(Buffer.from('\n'));
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
        messageBytes = [];
        part = part.subarray(newline + 1);
      }
      if (commit && message === null) {
        const rest = takeMessage(part);
        if (rest === null) return;
        capper = new DiffCapper(caps);
        if (merges) combined = new CombinedToUnified();
        blank = true;
        part = rest;
      }
      if (!capper || part.length === 0) return;
      // git puts a blank line between the header and the patch.
      if (blank) {
        blank = false;
        if (part[0] === NEWLINE) part = part.subarray(1);
      }
      if (part.length) feed(part);
    },
  });
  // Up to 16 MiB read ahead: git goes on while the full hook loads (./push-start.ts hands this
  // stream over); past that, git waits for the reader.
  for await (const piece of stream(command, { cwd: top, readAhead: READ_AHEAD })) {
    splitter.write(piece);
    yield* done.splice(0);
  }
  splitter.end();
  finish();
  yield* done.splice(0);
}
