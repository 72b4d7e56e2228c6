/** The mainline (docs/gate.md): config `mainline`, else origin/HEAD's target, else main, else master. */
import { peelCommit, runGit, symbolicRef } from '../core/git/commands.js';
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
  const [originHead, main, master] = await Promise.all([
    runGit(symbolicRef('refs/remotes/origin/HEAD'), { cwd }),
    commitOf(cwd, 'refs/heads/main'),
    commitOf(cwd, 'refs/heads/master'),
  ]);
  const target = originHead;
  if (target) {
    const sha = await commitOf(cwd, target);
    if (sha) return { mainline: { name: target.replace(/^refs\/remotes\//, ''), sha }, problem: null };
  }
  if (main) return { mainline: { name: 'main', sha: main }, problem: null };
  if (master) return { mainline: { name: 'master', sha: master }, problem: null };
  return { mainline: null, problem: m.noMainlineFound };
}
