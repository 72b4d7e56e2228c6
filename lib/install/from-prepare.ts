/**
 * `revtrail install --from-prepare`: what the lifecycle script runs in a fresh clone (docs/hooks.md,
 * "Fresh clones"). Only husky's part: core.hooksPath and .husky/_; the hook files are committed.
 * It never fails the package install: whatever goes wrong is one line on stderr.
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { findRepo } from '../core/git/repo.js';
import { HOOKS, HUSKY_DIR, isHuskyPath, readHooksPath, runHusky } from './install.js';
import { installMessages as m } from '../messages/install.js';
import { unchainedHooks } from './chain.js';

export interface FromPrepareReport {
  /** Lines for stderr (nothing on success, as husky says nothing). */
  lines: string[];
  done: boolean;
}

export async function setUpFromPrepare(cwd: string): Promise<FromPrepareReport> {
  if (process.env.HUSKY === '0') return { lines: [], done: false };
  // A published package's script runs in its users' installs too, from inside their
  // node_modules: their repository is not ours to set up.
  if (cwd.split(sep).includes('node_modules')) return { lines: [], done: false };
  let top: string;
  let commonDir: string;
  try {
    ({ top, commonDir } = await findRepo(cwd));
  } catch {
    return { lines: [], done: false }; // no git work tree (a tarball, a Docker build): nothing to set up
  }
  try {
    const current = await readHooksPath(top);
    if (current && !isHuskyPath(current.value, top))
      return { lines: [m.fromPrepareElsewhere(current.value)], done: false };
    const said = await runHusky(top);
    if (said) return { lines: [m.fromPrepareFailed(said.trim())], done: false };
    const missing = HOOKS.filter((h) => !existsSync(join(top, HUSKY_DIR, h)));
    // This clone's own hooks in .git/hooks stop running now: said, never silent (docs/hooks.md, "Hooks already there").
    const unchained = current ? [] : unchainedHooks(top, commonDir);
    return {
      lines: [
        ...(missing.length === HOOKS.length ? [m.fromPrepareNoHooks] : []),
        ...(unchained.length ? [m.fromPrepareUnchained(unchained)] : []),
      ],
      done: true,
    };
  } catch (error) {
    return { lines: [m.fromPrepareFailed((error as Error).message)], done: false };
  }
}
