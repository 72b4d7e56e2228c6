/** Walks of the commit graph (`rev-list`, `merge-base`): which commits, in what order, how they meet. */
import type { GitCommand } from '../run.js';
import { lines, stdinLines, succeeds, text } from './shape.js';
import { parseLines } from './parse.js';

/** `git merge-base A B`: a best common ancestor, or null when the histories share none. */
export function mergeBase(a: string, b: string): GitCommand<string | null> {
  return { args: ['merge-base', a, b], okCodes: [1], parse: (r) => (r.status === 0 ? r.text.trim() || null : null) };
}

/** Whether `ancestor` is an ancestor of `tip` (`merge-base --is-ancestor`; an unknown commit is no). */
export function isAncestor(ancestor: string, tip: string): GitCommand<boolean> {
  return succeeds(['merge-base', '--is-ancestor', ancestor, tip], { okCodes: [1, 128] });
}

/** Of `commits`, those no other of them reaches (`merge-base --independent`). */
export function independentOf(commits: readonly string[]): GitCommand<string[]> {
  return { args: ['merge-base', '--independent', ...commits], parse: (a) => parseLines(a.text) };
}

/** The newest of `commits` by committer date (`rev-list --no-walk` sorts by it). */
export function newestOf(commits: readonly string[]): GitCommand<string | null> {
  return {
    args: ['rev-list', '--no-walk', '--max-count=1', '--stdin'],
    input: `${commits.join('\n')}\n`,
    parse: (a) => a.text.trim() || null,
  };
}

/** Whether `commit` reaches every one of `others`: nothing of theirs is left once its history is taken away. */
export function reachesAll(commit: string, others: readonly string[]): GitCommand<boolean> {
  return {
    args: ['rev-list', '--max-count=1', '--stdin'],
    input: `${[...others, `^${commit}`].join('\n')}\n`,
    parse: (a) => a.text.trim() === '',
  };
}

/**
 * The commits of `rev` that no remote-tracking ref has, and the commits they stand on that one
 * has (git's boundary): what a push of `rev` would carry.
 */
export function unpushed(rev: string): GitCommand<{ commits: string[]; boundary: string[] }> {
  return {
    args: ['rev-list', '--boundary', rev, '--not', '--remotes', '--'],
    parse: (a) => {
      const lines = parseLines(a.text);
      return {
        commits: lines.filter((l) => !l.startsWith('-')),
        boundary: lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1)),
      };
    },
  };
}

/** Each commit of `args` with its parents (`<commit> <parent>…`, first parent first), one a line. */
export function commitsWithParents(args: readonly string[]): GitCommand<string[]> {
  return lines(['rev-list', '--parents', ...args, '--']);
}

/** Every commit `tip` reaches, one a line ('' with exit 128 when git has no such commit). */
export function commitsOf(tip: string): GitCommand<string> {
  return text(['rev-list', tip], { okCodes: [128] });
}

/** Up to `max` commits `before` reaches and `after` does not, newest first, one a line. */
export function commitsDropped(before: string, after: string, max: number): GitCommand<string> {
  return text(['rev-list', `--max-count=${max}`, before, '--not', after, '--']);
}

/** How many commits the revisions `revs` (`^X` excludes) name: `rev-list --count --stdin`. */
export function commitCount(revs: readonly string[]): GitCommand<string> {
  return text(['rev-list', '--count', '--stdin'], { input: stdinLines(revs) });
}

/** The commits `revs` name with their committer times (`<time> <commit>`), and the boundary ones marked `-`. */
export function commitTimesWithBoundary(revs: readonly string[]): GitCommand<string> {
  return text(['rev-list', '--timestamp', '--boundary', '--stdin'], { input: stdinLines(revs) });
}

/** The committer time of each of `commits` (`<time> <commit>`), in the order given. */
export function commitTimes(commits: readonly string[]): GitCommand<string> {
  return text(['rev-list', '--no-walk=unsorted', '--timestamp', '--stdin'], { input: stdinLines(commits) });
}

/** The commits of HEAD's walk under `walk` (`--first-parent`, `--since`…), newest first; null without a commit (exit 128). */
export function headWalk(walk: readonly string[]): GitCommand<string | null> {
  return { args: ['rev-list', ...walk, 'HEAD'], okCodes: [128], parse: (a) => (a.status === 0 ? a.text : null) };
}
