/**
 * The install command that will work in this repository as it stands, by install's own checks
 * (install.ts) without installing anything: `init` names it as the next step, so it never points
 * at a plain `revtrail install` that would refuse (docs/hooks.md, "Other hook managers").
 */
import { HUSKY_PATH, isHuskyPath, readHooksPath } from './install.js';
import { LEFTHOOK_FILES, PRE_COMMIT_FILES, readHookSetup } from './existing.js';
import { lefthookRoute, preCommitRoute } from './manager-config.js';
import { REVIEW_HOOKS } from './manager.js';
import { readRegularFile } from '../core/fs/read.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export type InstallRoute =
  | { kind: 'husky' }
  | { kind: 'manager'; managers: readonly string[] }
  | { kind: 'hooks-path'; value: string }
  | { kind: 'remote'; manager: 'lefthook' | 'pre-commit' };

/**
 * The manager whose config already takes revtrail from its repository (lefthook's `remotes:`,
 * pre-commit's `repo:`; docs/hooks.md, "Repositories that are not Node projects"): that
 * manager's own install is the step left, never revtrail install --<manager> beside it.
 */
function remoteRoute(top: string): 'lefthook' | 'pre-commit' | null {
  const read = (files: readonly string[]) => {
    const file = files.find((f) => /\.(ya?ml|json)$/.test(f) && existsSync(join(top, f)));
    try {
      // One config, capped as doctor caps its reads (docs/trust.md "Fails closed").
      return file ? readRegularFile(join(top, file), { maxBytes: 1024 * 1024 }).bytes.toString('utf8') : null;
    } catch {
      return null;
    }
  };
  const routed = (text: string | null, found: (text: string) => unknown) => {
    try {
      return text !== null && found(text) !== null;
    } catch {
      return false;
    }
  };
  if (routed(read(LEFTHOOK_FILES), lefthookRoute)) return 'lefthook';
  if (routed(read(PRE_COMMIT_FILES), (t) => preCommitRoute(t, REVIEW_HOOKS))) return 'pre-commit';
  return null;
}

export async function installRoute(top: string, commonDir: string): Promise<InstallRoute> {
  const current = await readHooksPath(top);
  if (current && isHuskyPath(current.value, top)) return { kind: 'husky' };
  const remote = current ? null : remoteRoute(top);
  if (remote) return { kind: 'remote', manager: remote };
  const setup = readHookSetup(top, commonDir, current);
  if (setup.managers.length) return { kind: 'manager', managers: setup.managers.map((m) => m.manager) };
  if (current && current.value !== HUSKY_PATH) return { kind: 'hooks-path', value: current.value };
  return { kind: 'husky' };
}
