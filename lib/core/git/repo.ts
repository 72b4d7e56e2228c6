/**
 * Where we are: the work tree's top level and the git dirs, from one `git rev-parse`, with
 * whatever else the caller asks in the same process (docs/architecture.md "The git runner").
 * The one way revtrail locates its repository.
 */
import { isAbsolute, resolve } from 'node:path';
import { run } from './run.js';
import { receivingWhere, whereWith } from './commands/repository.js';
import { GitError, NotARepositoryError } from './errors.js';

export interface Repo {
  /** Top level of the work tree (absolute). */
  top: string;
  /** This work tree's git dir (differs from commonDir in a linked worktree). */
  gitDir: string;
  /** The git common dir: shared by all worktrees; where queues and caches live. */
  commonDir: string;
  /** Folder the command was started from. */
  cwd: string;
}

/** What else to ask the `rev-parse` that locates the repository: one of these. */
export type FindOptions =
  /**
   * The commit `rev` names too (a tag peeled; null when it names none): the hooks ask whether
   * HEAD is a commit on every commit (false on an unborn branch), pre-push its tip
   * (lib/flows/push-plan.ts). git prints the folders even when `rev` does not resolve, and exits 1 then.
   */
  | { commit: string }
  /**
   * More questions: the rest of its output lines, as git printed them (a cached `revtrail mine`
   * asks where the repository is and what the tips are in one git process: lib/mine/cache.ts
   * signatureQuestion).
   */
  | { more: readonly string[] }
  /**
   * The repository a server hook runs in (a bare one, usually): there is no work tree, so `top`
   * is the git dir, where every git call of the hook runs.
   */
  | { receiving: true };

export interface Located {
  repo: Repo;
  /** `{ commit }`'s answer (null otherwise). */
  commit: string | null;
  /** `{ more }`'s answer lines (empty otherwise). */
  rest: string[];
}

/** The repository `cwd` is in (NotARepositoryError when none), and with `options` what else was asked. */
export function findRepo(cwd?: string): Promise<Repo>;
export function findRepo(cwd: string, options: FindOptions): Promise<Located>;
export async function findRepo(cwd: string = process.cwd(), options?: FindOptions): Promise<Repo | Located> {
  if (!options) return parseRepo(await ask(() => run(whereWith([], []), { cwd }), cwd), cwd);
  if ('receiving' in options) {
    const out = await ask(() => run(receivingWhere, { cwd }), cwd);
    const [gitDir, common] = out.stdout.split('\n');
    if (!gitDir || !common) throw new NotARepositoryError(cwd);
    const repo = { top: gitDir, gitDir, commonDir: isAbsolute(common) ? common : resolve(cwd, common), cwd };
    return { repo, commit: null, rest: [] };
  }
  if ('commit' in options) {
    const out = await ask(
      () => run(whereWith(['--verify', '--quiet', `${options.commit}^{commit}`], [1]), { cwd }),
      cwd,
    );
    return { repo: parseRepo(out, cwd), commit: (out.status === 0 && out.stdout.split('\n')[3]) || null, rest: [] };
  }
  const out = await ask(() => run(whereWith(options.more, []), { cwd }), cwd);
  return { repo: parseRepo(out, cwd), commit: null, rest: out.stdout.split('\n').slice(3) };
}

async function ask<T>(question: () => Promise<T>, cwd: string): Promise<T> {
  try {
    return await question();
  } catch (error) {
    if (error instanceof GitError) throw new NotARepositoryError(cwd);
    throw error;
  }
}

/** The first three lines of the answer; a relative common dir is relative to `cwd`. */
export function parseRepo(out: { stdout: string }, cwd: string): Repo {
  const [top, gitDir, common] = out.stdout.split('\n');
  if (!top || !gitDir || !common) throw new NotARepositoryError(cwd);
  return { top, gitDir, commonDir: isAbsolute(common) ? common : resolve(cwd, common), cwd };
}
