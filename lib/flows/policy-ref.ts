/**
 * Where the server's policy comes from (docs/server.md "Which policy"): one ref the pusher cannot
 * change in the same push, the repository's `revtrail.policyRef` (a full ref name, e.g.
 * `refs/heads/main`), else what its HEAD names. Git moves refs only after pre-receive, so the
 * ref's commit read here is the one it had before the push. A ref that names no commit is never
 * read as "no policy": install refuses it, and the gate refuses every push until it exists.
 */
import { configValue, peel, run, symbolicRef } from '../core/git/commands.js';
import { serverMessages as m } from '../messages/hooks.js';

export const POLICY_REF_KEY = 'revtrail.policyRef';

export interface PolicyRef {
  /** The full ref name (HEAD's target, or the config's value). */
  ref: string;
  /** Where the name came from. */
  from: 'config' | 'HEAD';
  /** Its commit, or null: the ref does not exist (an unborn HEAD) or is no full ref name. */
  commit: string | null;
  /** Why there is no commit, one line for the user (null when there is one). */
  problem: string | null;
}

/** The policy ref of the repository git runs in at `cwd` (a bare repository on a server). */
export async function serverPolicyRef(cwd: string): Promise<PolicyRef> {
  const configured = await run(configValue(POLICY_REF_KEY), { cwd });
  if (configured !== null) {
    const ref = configured.trim();
    if (!/^refs\/\S+$/.test(ref))
      return { ref, from: 'config', commit: null, problem: m.policyRefNotFull(POLICY_REF_KEY, ref) };
    const commit = await run(peel(ref), { cwd });
    return { ref, from: 'config', commit, problem: commit ? null : m.policyRefMissing(ref, POLICY_REF_KEY) };
  }
  const [target, commit] = await Promise.all([run(symbolicRef('HEAD'), { cwd }), run(peel('HEAD'), { cwd })]);
  const ref = target ?? 'HEAD';
  return { ref, from: 'HEAD', commit, problem: commit ? null : m.policyHeadMissing(ref, POLICY_REF_KEY) };
}
