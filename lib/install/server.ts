/**
 * `revtrail install --server REPO` / `uninstall --server REPO` (docs/server.md): writes the server
 * gate's pre-receive hook into a repository on a server, naming node and the CLI by absolute path
 * (a server runs hooks with a minimal PATH). Gitea's layout (hooks/pre-receive.d/, which its own
 * pre-receive runs) gets hooks/pre-receive.d/revtrail; anywhere else hooks/pre-receive. A hook
 * file revtrail did not write is never overwritten.
 */
import { chmodSync, existsSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gitPath, run } from '../core/git/commands.js';
import { InputError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { packageRoot } from '../core/package-root.js';
import { serverInstallMessages as m } from '../messages/install.js';
import { POLICY_REF_KEY, serverPolicyRef } from '../flows/policy-ref.js';

/** The line that marks a hook file as revtrail's. */
const MARK = '# revtrail server gate';

export interface ServerInstall {
  file: string;
  /** The ref whose policy reviews every push (../flows/policy-ref.ts). */
  policyRef: string;
  action: 'created' | 'updated' | 'unchanged';
  node: string;
  cli: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The hook script for `hook` (pre-receive, or update for a server that runs only that). */
export function serverHookScript(hook: 'pre-receive' | 'update' = 'pre-receive'): {
  text: string;
  node: string;
  cli: string;
} {
  const root = packageRoot();
  const node = realpathSync(process.execPath);
  const cli = realpathSync(join(root, 'bin', 'revtrail.js'));
  const template = readFileSync(join(root, 'hooks', 'server-pre-receive'), 'utf8');
  const text = template
    .replace('@REVTRAIL_NODE@', quote(node))
    .replace('@REVTRAIL_CLI@', quote(cli))
    .replace('@REVTRAIL_HOOK@', hook);
  return { text, node, cli };
}

/** The hooks folder of the repository at `path` (core.hooksPath respected). */
async function hooksDir(path: string): Promise<string> {
  const where = resolve(path);
  const env = { GIT_DIR: undefined, GIT_WORK_TREE: undefined };
  let hooks: string;
  try {
    hooks = await run(gitPath('hooks'), { cwd: where, env });
  } catch {
    throw new InputError(m.notARepository(path), { remedy: m.notARepositoryRemedy });
  }
  return resolve(where, hooks);
}

/** Where revtrail's hook goes: Gitea's pre-receive.d/ when the repository has one. */
function hookFile(hooks: string): string {
  const folder = join(hooks, 'pre-receive.d');
  return existsSync(folder) && statSync(folder).isDirectory() ? join(folder, 'revtrail') : join(hooks, 'pre-receive');
}

const ours = (text: string) => text.split('\n').some((l) => l.startsWith(MARK));

export async function installServer(path: string): Promise<ServerInstall> {
  const hooks = await hooksDir(path);
  // The gate reviews every push with the policy ref's policy: one that does not exist would
  // refuse every push, the first included (docs/server.md "Which policy").
  const policy = await serverPolicyRef(resolve(path));
  if (!policy.commit) throw new InputError(policy.problem!, { remedy: m.policyRefFirst(POLICY_REF_KEY) });
  const file = hookFile(hooks);
  const { text, node, cli } = serverHookScript();
  let action: ServerInstall['action'] = 'created';
  if (existsSync(file)) {
    const current = readFileSync(file, 'utf8');
    if (!ours(current)) throw new InputError(m.hookExists(file), { remedy: m.notOurs(file) });
    action = current === text ? 'unchanged' : 'updated';
  }
  if (action !== 'unchanged') await writeFileAtomic(file, text, { mode: 0o755 });
  chmodSync(file, 0o755);
  return { file, action, node, cli, policyRef: policy.ref };
}

export async function uninstallServer(path: string): Promise<{ file: string | null; notes: string[] }> {
  const hooks = await hooksDir(path);
  const notes: string[] = [];
  for (const file of [join(hooks, 'pre-receive.d', 'revtrail'), join(hooks, 'pre-receive')]) {
    if (!existsSync(file)) continue;
    if (!ours(readFileSync(file, 'utf8'))) {
      if (file.endsWith('revtrail')) notes.push(m.notOurs(file));
      continue;
    }
    rmSync(file, { force: true });
    return { file, notes };
  }
  return { file: null, notes };
}
