/**
 * The package.json part of `revtrail install`: the lifecycle script that sets the hooks up in
 * a teammate's fresh clone, for the package manager the project uses (docs/hooks.md, "Fresh
 * clones"), and its undoing in `revtrail uninstall`.
 */
import { dirname, join } from 'node:path';
import { addScript, readPackage, removeScript, replaceScript } from './package-json.js';
import {
  appendedScript,
  detectPackageManager,
  lifecycleScript,
  SETUP_SCRIPT,
  setsUpHooks,
  type Detected,
} from './package-manager.js';
import type { WorktreeRecord } from './record.js';
import { installMessages as m } from '../messages/install.js';

export type ScriptRecord = NonNullable<WorktreeRecord['prepareAdded']>;

export interface ScriptPlan {
  actions: string[];
  notes: string[];
  /** What install changed (kept for uninstall), or the previous record when nothing changed. */
  record: ScriptRecord | null;
}

/** The package.json the team installs with: the top level's, else the one beside the CLI found. */
export function packageFile(top: string, cli: string | null, exists: (file: string) => boolean): string | null {
  if (exists(join(top, 'package.json'))) return 'package.json';
  if (cli?.includes('node_modules/')) {
    const folder = cli.slice(0, cli.indexOf('node_modules/')).replace(/\/$/, '');
    return folder ? `${folder}/package.json` : 'package.json';
  }
  return null;
}

function hasDependency(json: Record<string, unknown>, name: string): boolean {
  return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => {
    const deps = json[k];
    return deps !== null && typeof deps === 'object' && name in (deps as object);
  });
}

export async function planScript(
  top: string,
  rel: string,
  options: { append: boolean; previous: ScriptRecord | null },
): Promise<ScriptPlan> {
  const file = join(top, rel);
  const detected: Detected = detectPackageManager(dirname(file), top);
  const name = lifecycleScript(detected.pm);
  const notes: string[] = [];
  const actions: string[] = [];
  let record = options.previous;
  if (detected.pm === 'yarn-berry' && detected.nodeLinker === 'pnp') notes.push(m.berryPnp);

  const pkg = await readPackage(file);
  if (!pkg) return { actions, notes, record };
  const scripts = (pkg.json.scripts ?? {}) as Record<string, unknown>;
  const current = scripts[name];
  const topLevel = rel === 'package.json';
  if (detected.pm === 'yarn-berry' && pkg.json.private !== true) notes.push(m.berryPublishable(rel));

  if (current === undefined) {
    if (!topLevel && !options.append) {
      notes.push(m.scriptSuggested(rel, name, SETUP_SCRIPT));
      return { actions, notes, record };
    }
    const added = await addScript(file, name, SETUP_SCRIPT);
    if (added.kind === 'added') {
      record = { file: rel, scriptsCreated: added.scriptsCreated, script: name, value: SETUP_SCRIPT };
      actions.push(m.scriptAdded(rel, name, SETUP_SCRIPT, detected.pm));
    }
    return { actions, notes, record };
  }
  if (typeof current !== 'string') {
    notes.push(m.scriptKept(rel, name, JSON.stringify(current)));
    return { actions, notes, record };
  }
  // A bare `husky` an earlier revtrail install wrote: pnpm cannot run it (husky is only
  // revtrail's dependency), so it becomes revtrail's own command.
  const ours =
    record && record.file === rel && (record.script ?? 'prepare') === name && (record.value ?? 'husky') === current;
  if (ours && current === 'husky' && !hasDependency(pkg.json, 'husky')) {
    if (await replaceScript(file, name, current, { value: SETUP_SCRIPT })) {
      record = { ...record!, script: name, value: SETUP_SCRIPT };
      actions.push(m.scriptUpgraded(rel, name, SETUP_SCRIPT));
    }
    return { actions, notes, record };
  }
  if (setsUpHooks(current)) {
    if (!current.includes('revtrail') && !hasDependency(pkg.json, 'husky'))
      notes.push(m.huskyNotADependency(rel, name, current));
    return { actions, notes, record };
  }
  const appended = appendedScript(current);
  if (!options.append) {
    notes.push(m.scriptAppendSuggested(rel, name, current, appended));
    return { actions, notes, record };
  }
  const previous = await replaceScript(file, name, current, { value: appended });
  if (previous !== null) {
    record = { file: rel, scriptsCreated: false, script: name, value: appended, previous };
    actions.push(m.scriptAppended(rel, name, appended));
  }
  return { actions, notes, record };
}

/** Undoes what planScript wrote, when the script is still exactly that. */
export async function undoScript(top: string, record: ScriptRecord): Promise<string | null> {
  const file = join(top, record.file);
  const name = record.script ?? 'prepare';
  const value = record.value ?? 'husky';
  if (record.previous !== undefined) {
    return (await replaceScript(file, name, value, { literal: record.previous })) !== null
      ? m.scriptRestored(record.file, name)
      : null;
  }
  return (await removeScript(file, name, value, record.scriptsCreated))
    ? m.removedScript(record.file, name, value)
    : null;
}
