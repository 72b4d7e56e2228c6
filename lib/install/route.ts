/**
 * The install command that will work in this repository as it stands, by install's own checks
 * (install.ts) without installing anything: `init` names it as the next step, so it never points
 * at a plain `revtrail install` that would refuse (docs/hooks.md, "Other hook managers").
 */
import { HUSKY_PATH, isHuskyPath, readHooksPath } from './install.js';
import { readHookSetup } from './existing.js';

export type InstallRoute =
  | { kind: 'husky' }
  | { kind: 'manager'; managers: readonly string[] }
  | { kind: 'hooks-path'; value: string };

export async function installRoute(top: string, commonDir: string): Promise<InstallRoute> {
  const current = await readHooksPath(top);
  if (current && isHuskyPath(current.value, top)) return { kind: 'husky' };
  const setup = readHookSetup(top, commonDir, current);
  if (setup.managers.length) return { kind: 'manager', managers: setup.managers.map((m) => m.manager) };
  if (current && current.value !== HUSKY_PATH) return { kind: 'hooks-path', value: current.value };
  return { kind: 'husky' };
}
