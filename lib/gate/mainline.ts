/**
 * The mainline (docs/gate.md): config `mainline`, else the default branch of the team's remote
 * (the current branch's upstream remote, else the only remote, else origin: its HEAD's target,
 * else its main or master), else main, else master.
 */
import { configValue, listRefs, peel, remoteNames, run, symbolicRef, type ListedRef } from '../core/git/commands.js';
import type { Mainline } from './types.js';
import { gateMessages as m } from '../messages/gate.js';

const commitOf = (cwd: string, rev: string) => run(peel(rev), { cwd });

/**
 * What a caller already listed (lib/org/repos.ts: one for-each-ref of refs/heads/ and
 * refs/remotes/, and the remotes' config): the mainline is then decided without a process.
 */
export interface KnownRefs {
  /** Every ref under refs/heads/ and refs/remotes/ (a superset of the candidates). */
  refs: ReadonlyMap<string, ListedRef>;
  /** The team's remote (teamRemoteOf). */
  remote: string;
}

export async function resolveMainline(
  cwd: string,
  configured?: string,
  known?: KnownRefs,
): Promise<{ mainline: Mainline | null; problem: string | null }> {
  if (configured) {
    const sha = await commitOf(cwd, configured);
    return sha
      ? { mainline: { name: configured, sha }, problem: null }
      : { mainline: null, problem: m.noMainlineConfigured(configured) };
  }
  // The remote and every candidate ref at once: two steps of git processes, not one per ref.
  const [remote, refs] = known
    ? [known.remote, known.refs]
    : await Promise.all([
        teamRemote(cwd),
        run(listRefs(['refs/heads/main', 'refs/heads/master', 'refs/remotes/']), { cwd }),
      ]);
  const main = refs.get('refs/heads/main')?.commit ?? null;
  const master = refs.get('refs/heads/master')?.commit ?? null;
  const head = refs.get(`refs/remotes/${remote}/HEAD`)?.symref ?? null;
  // A remote added by `git remote add` has no HEAD until `git remote set-head`: its main, else master.
  for (const target of head ? [head] : [`refs/remotes/${remote}/main`, `refs/remotes/${remote}/master`]) {
    // Every ref under refs/remotes/ was listed (one not there does not exist); a HEAD pointing
    // elsewhere (set by hand) is asked for on its own.
    const sha = target.startsWith('refs/remotes/') ? (refs.get(target)?.commit ?? null) : await commitOf(cwd, target);
    if (sha) return { mainline: { name: target.replace(/^refs\/remotes\//, ''), sha }, problem: null };
  }
  if (main) return { mainline: { name: 'main', sha: main }, problem: null };
  if (master) return { mainline: { name: 'master', sha: master }, problem: null };
  return { mainline: null, problem: m.noMainlineFound };
}

/** The remote the team pushes to: the current branch's upstream remote, else the only one, else origin. */
export async function teamRemote(cwd: string): Promise<string> {
  const [branch, remotes] = await Promise.all([
    run(symbolicRef('HEAD', { short: true }), { cwd }),
    run(remoteNames, { cwd }),
  ]);
  const upstream = branch ? await run(configValue(`branch.${branch}.remote`), { cwd }) : null;
  return teamRemoteOf(upstream, remotes);
}

/** The team's remote from HEAD's branch's upstream remote (or null) and the configured remotes' names. */
export function teamRemoteOf(upstream: string | null, remotes: readonly string[]): string {
  // `.` is the local repository (an upstream that is a local branch), not a remote.
  if (upstream && upstream !== '.' && remotes.includes(upstream)) return upstream;
  return remotes.length === 1 ? remotes[0]! : 'origin';
}
