/**
 * The mainline (docs/gate.md): config `mainline`, else the default branch of the team's remote
 * (the current branch's upstream remote, else the only remote, else origin: its HEAD's target,
 * else its main or master), else main, else master.
 */
import { configValue, peelCommit, remoteNames, runGit, symbolicRef } from '../core/git/commands.js';
import type { Mainline } from './types.js';
import { gateMessages as m } from '../messages/gate.js';

const commitOf = peelCommit;

export async function resolveMainline(
  cwd: string,
  configured?: string,
): Promise<{ mainline: Mainline | null; problem: string | null }> {
  if (configured) {
    const sha = await commitOf(cwd, configured);
    return sha
      ? { mainline: { name: configured, sha }, problem: null }
      : { mainline: null, problem: m.noMainlineConfigured(configured) };
  }
  const [remote, main, master] = await Promise.all([
    teamRemote(cwd),
    commitOf(cwd, 'refs/heads/main'),
    commitOf(cwd, 'refs/heads/master'),
  ]);
  const head = await runGit(symbolicRef(`refs/remotes/${remote}/HEAD`), { cwd });
  // A remote added by `git remote add` has no HEAD until `git remote set-head`: its main, else master.
  for (const target of head ? [head] : [`refs/remotes/${remote}/main`, `refs/remotes/${remote}/master`]) {
    const sha = await commitOf(cwd, target);
    if (sha) return { mainline: { name: target.replace(/^refs\/remotes\//, ''), sha }, problem: null };
  }
  if (main) return { mainline: { name: 'main', sha: main }, problem: null };
  if (master) return { mainline: { name: 'master', sha: master }, problem: null };
  return { mainline: null, problem: m.noMainlineFound };
}

/** The remote the team pushes to: the current branch's upstream remote, else the only one, else origin. */
export async function teamRemote(cwd: string): Promise<string> {
  const branch = await runGit(symbolicRef('HEAD', { short: true }), { cwd });
  const [upstream, remotes] = await Promise.all([
    branch ? runGit(configValue(`branch.${branch}.remote`), { cwd }) : Promise.resolve(null),
    runGit(remoteNames, { cwd }),
  ]);
  // `.` is the local repository (an upstream that is a local branch), not a remote.
  if (upstream && upstream !== '.' && remotes.includes(upstream)) return upstream;
  return remotes.length === 1 ? remotes[0]! : 'origin';
}
