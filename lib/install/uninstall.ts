/**
 * `revtrail uninstall`: removes exactly what install added, as install.json recorded it (the
 * markers alone where there is no record, for example in a fresh clone): the revtrail block or
 * the hook file install created, the prepare script it added, core.hooksPath if it set it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { chmod, rm, rmdir, unlink } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { readRegularFile } from '../core/fs/read.js';
import { dirname, join } from 'node:path';
import { findRepo } from '../core/git/repo.js';
import { run, setLocalConfig, unsetLocalConfig } from '../core/git/commands.js';
import { CHAIN_MARKS, isBlankScript, removeBlock } from './block.js';
import { GIT_HOOKS } from './existing.js';
import { removeScript } from './package-json.js';
import { packageFile } from './script.js';
import { detectPackageManager, SETUP_SCRIPT } from './package-manager.js';
import { removeAllowBuilds, removeNpmAllowScripts, WORKSPACE_FILE } from './pnpm-builds.js';
import { undoScript } from './script.js';
import { readInstallRecord, writeInstallRecord } from './record.js';
import { HOOKS, HUSKY_DIR, HUSKY_PATH, readHooksPath } from './install.js';
import { installMessages as m } from '../messages/install.js';

export interface UninstallReport {
  actions: string[];
  notes: string[];
  /** Nothing of revtrail was found. */
  nothing: boolean;
}

export async function uninstall(cwd: string): Promise<UninstallReport> {
  const { top, commonDir } = await findRepo(cwd);
  const actions: string[] = [];
  const notes: string[] = [];
  const record = await readInstallRecord(commonDir);
  const entry = record.worktrees[top];

  // revtrail's hooks and any hook a chain block ran for the folder git ran before install.
  for (const name of new Set([...HOOKS, ...GIT_HOOKS])) {
    const rel = `${HUSKY_DIR}/${name}`;
    const file = join(top, HUSKY_DIR, name);
    let text: string;
    try {
      text = readRegularFile(file, { maxBytes: 1024 * 1024 }).bytes.toString('utf8');
    } catch {
      continue; // none, or not a hook revtrail wrote (a FIFO, a device, too large)
    }
    const ours = removeBlock(text);
    const rest = ours === null ? removeBlock(text, CHAIN_MARKS) : (removeBlock(ours, CHAIN_MARKS) ?? ours);
    if (rest === null) continue;
    if (!rest.trim() || (entry?.hooks[name] === 'created' && isBlankScript(rest))) {
      await unlink(file);
      actions.push(m.removedFile(rel));
    } else {
      await writeFileAtomic(file, rest);
      // The user's file gets back the mode it had before install made it executable.
      const mode = entry?.modes?.[name];
      if (mode !== undefined) await chmod(file, mode);
      actions.push(m.removedBlock(rel));
    }
  }

  if (entry?.prepareAdded) {
    try {
      const undone = await undoScript(top, entry.prepareAdded);
      if (undone) actions.push(undone);
    } catch (error) {
      notes.push(m.badPackageJson(entry.prepareAdded.file, (error as Error).message));
    }
  } else if (!entry) {
    // A clone without a record (a teammate's: the prepare script set it up): the script is
    // revtrail's when it is exactly what install writes.
    const rel = packageFile(top, null, existsSync);
    for (const name of ['prepare', 'postinstall']) {
      try {
        // A "scripts" holding nothing else goes with it, as when install created it.
        if (rel && (await removeScript(join(top, rel), name, SETUP_SCRIPT, true)))
          actions.push(m.removedScript(rel, name, SETUP_SCRIPT));
      } catch (error) {
        notes.push(m.badPackageJson(rel!, (error as Error).message));
      }
    }
  }
  delete record.worktrees[top];
  const pkgRel = packageFile(top, null, existsSync);
  if (pkgRel) {
    const detected = detectPackageManager(dirname(join(top, pkgRel)), top);
    if (detected.pm === 'pnpm' && (await removeAllowBuilds(detected.root ?? dirname(join(top, pkgRel)))))
      actions.push(m.pnpmBuildsRemoved(WORKSPACE_FILE));
    if (detected.pm === 'npm' && (await removeNpmAllowScripts(join(top, pkgRel)).catch(() => false)))
      actions.push(m.npmAllowScriptsRemoved(pkgRel));
  }

  // core.hooksPath and .husky/_ go only when install set them up and nothing else relies on
  // them: another worktree with revtrail installed, or husky hooks of the user's own.
  const othersUse = Object.keys(record.worktrees).length > 0 || userHuskyHooks(top).length > 0;
  if (record.hooksPath && !othersUse) {
    const now = await readHooksPath(top);
    if (now && now.value === HUSKY_PATH && now.scope === 'local') {
      const previous = record.hooksPath.previous;
      if (previous) {
        await run(setLocalConfig('core.hooksPath', previous.value), { cwd: top });
        actions.push(m.hooksPathRestored(previous.value));
      } else {
        await run(unsetLocalConfig('core.hooksPath'), { cwd: top });
        actions.push(m.hooksPathUnset);
      }
    }
    record.hooksPath = null;
  } else if (!record.hooksPath && !othersUse && actions.length) {
    // No record of who set core.hooksPath (a teammate's clone, set up by the prepare script):
    // husky's folder with no hook left in .husky/ runs nothing, so it is handed back to git.
    const now = await readHooksPath(top);
    if (now && now.value === HUSKY_PATH && now.scope === 'local') {
      await run(unsetLocalConfig('core.hooksPath'), { cwd: top });
      actions.push(m.hooksPathUnset);
      await rm(join(top, HUSKY_DIR, '_'), { recursive: true, force: true });
      actions.push(m.removedHuskyDir(`${HUSKY_DIR}/_`));
    }
  } else if (record.hooksPath || entry) {
    const now = await readHooksPath(top);
    if (now) notes.push(m.keptHooksPath(now.value));
  }
  if (entry?.huskyDirCreated && !othersUseHusky(top)) {
    await rm(join(top, HUSKY_DIR, '_'), { recursive: true, force: true });
    actions.push(m.removedHuskyDir(`${HUSKY_DIR}/_`));
  }
  if (existsSync(join(top, HUSKY_DIR))) await rmdir(join(top, HUSKY_DIR)).catch(() => {}); // only when empty

  await writeInstallRecord(commonDir, record);
  return { actions, notes, nothing: actions.length === 0 };
}

/** Hook files in .husky/ that are not revtrail's (revtrail's own are gone by now). */
function userHuskyHooks(top: string): string[] {
  try {
    return readdirSync(join(top, HUSKY_DIR), { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

function othersUseHusky(top: string): boolean {
  return userHuskyHooks(top).length > 0;
}
