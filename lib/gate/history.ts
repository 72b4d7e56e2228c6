/**
 * The history candidates and statistics read: HEAD and the mainline (or every ref with
 * --all), mined through the same cache as `revtrail mine`.
 */
import { peel, run } from '../core/git/commands.js';
import { mineAll } from '../mine/index.js';
import { countedCommits, type BodyRow } from '../mine/counted.js';
import type { CommitResult } from '../mine/types.js';
import { resolveMainline, type KnownRefs } from './mainline.js';
import { signatureAnswerOf } from '../mine/cache.js';
import type { Mainline } from './types.js';

export interface History {
  commits: CommitResult[];
  mainline: Mainline | null;
  mainlineProblem: string | null;
  /** Mined commits reachable from the mainline, when the history read is the mainline's own. */
  reachable?: Set<string>;
  /** Rows in a message body: not counted (docs/record.md "Counting"), named in a warning. */
  bodyRows: BodyRow[];
}

export async function loadHistory(options: {
  cwd: string;
  commonDir: string;
  mainline?: string;
  all?: boolean;
  cache?: boolean;
  /**
   * What the caller already asked of git (lib/org/repos.ts): HEAD's commit, the refs, the team
   * remote and the replace refs. The mainline, HEAD and the mining cache's signature then need
   * no process of their own; only `git log` runs (docs/org.md "Bench").
   */
  known?: KnownRefs & { head: string | null; replaced: ReadonlyArray<readonly [name: string, object: string]> };
}): Promise<History> {
  const { known } = options;
  const [{ mainline, problem }, head] = await Promise.all([
    resolveMainline(options.cwd, options.mainline, known),
    known ? known.head : run(peel('HEAD'), { cwd: options.cwd }),
  ]);
  const revs: string[] = [];
  if (head !== null) revs.push('HEAD');
  // On the mainline itself, HEAD alone walks the same commits, and shares `revtrail mine`'s cache.
  if (mainline && mainline.sha !== head) revs.push(mainline.name);
  if (!options.all && revs.length === 0) return { commits: [], mainline, mainlineProblem: problem, bodyRows: [] };
  const tips = revs.map((r) => (r === 'HEAD' ? head : mainline!.sha)) as string[];
  const mined = await mineAll({
    cwd: options.cwd,
    commonDir: options.commonDir,
    revs: options.all ? [] : revs,
    all: options.all,
    cache: options.cache,
    signatureAnswer: known && !options.all ? signatureAnswerOf(tips, known.replaced) : undefined,
  });
  const { commits, body } = countedCommits(mined);
  // On the mainline itself (the usual case), everything read is reachable from it.
  const onMainline = !options.all && mainline !== null && (head === null || head === mainline.sha);
  return {
    commits,
    mainline,
    mainlineProblem: problem,
    reachable: onMainline ? new Set(commits.map((c) => c.commit)) : undefined,
    bodyRows: body,
  };
}
