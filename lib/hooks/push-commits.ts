/**
 * The pushed commits' own diffs, for the per-commit credential check of pre-push (docs/hooks.md
 * "Push"): one `git log` for all of them, streamed, each commit's diff handed on as bytes so the
 * credential screen can pass over it without decoding it.
 */
import { gitChunks } from '../core/git/run.js';
import { DIFF_ARGS } from '../diff/source.js';

export interface CommitPatch {
  commit: string;
  /** The commit's diff against its first parent (a root commit: against the empty tree), UTF-8. */
  diff: Buffer;
}

const NUL = 0;
const NEWLINE = 0x0a;

/**
 * Each commit's own diff against its first parent, in the order given, from one `git log`
 * streamed commit by commit (the record of each starts with a NUL and the commit's name).
 */
export async function* commitPatches(top: string, commits: readonly string[]): AsyncGenerator<CommitPatch> {
  if (commits.length === 0) return;
  const args = [
    'log', '--no-walk=unsorted', '--stdin', '--format=%x00%H', '-p', '--root', '--diff-merges=first-parent', '--no-show-signature',
    ...DIFF_ARGS.slice(1),
  ];
  let parts: Buffer[] = [];
  for await (const piece of gitChunks(args, { cwd: top, input: `${commits.join('\n')}\n` })) {
    let start = 0;
    for (let at = piece.indexOf(NUL); at !== -1; at = piece.indexOf(NUL, start)) {
      parts.push(piece.subarray(start, at));
      const patch = toPatch(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
      parts = [];
      start = at + 1;
      if (patch) yield patch;
    }
    if (start < piece.length) parts.push(piece.subarray(start));
  }
  const last = parts.length ? toPatch(Buffer.concat(parts)) : null;
  if (last) yield last;
}

/** One record: the commit's name on its first line, a blank line, the diff. */
function toPatch(record: Buffer): CommitPatch | null {
  const newline = record.indexOf(NEWLINE);
  const commit = (newline === -1 ? record : record.subarray(0, newline)).toString('utf8').trim();
  if (!commit) return null;
  if (newline === -1) return { commit, diff: Buffer.alloc(0) };
  const body = record.subarray(newline + 1);
  return { commit, diff: body[0] === NEWLINE ? body.subarray(1) : body };
}
