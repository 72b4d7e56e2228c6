/**
 * Which package manager a project uses, and so which lifecycle script sets the hooks up in a
 * teammate's fresh clone (docs/hooks.md, "Fresh clones"). npm, pnpm, yarn classic and bun run a
 * root `prepare` on install; yarn berry never does, but runs a workspace's `postinstall`.
 */
import { existsSync } from 'node:fs';
import { readRegularFile } from '../core/fs/read.js';
import { dirname, join, relative } from 'node:path';
import { contains, toPosix } from '../core/fs/path.js';

export type PackageManager = 'npm' | 'pnpm' | 'yarn-classic' | 'yarn-berry' | 'bun';

export interface Detected {
  pm: PackageManager;
  /** What told us: a lockfile, the packageManager field, or nothing (npm by default). */
  evidence: string;
  /** yarn berry's nodeLinker (.yarnrc.yml); `pnp` leaves no node_modules/.bin for the hooks. */
  nodeLinker?: string;
  /** The folder the evidence is in (the workspace root, where pnpm-workspace.yaml goes); none: nothing found. */
  root?: string;
}

/**
 * What the lifecycle script runs: revtrail's own bin, which reaches husky through revtrail's
 * dependencies (pnpm does not link an indirect dependency's bin, so a bare `husky` fails there).
 * `|| true`: an install without dev dependencies (`npm ci --omit=dev`) has no revtrail bin.
 */
export const SETUP_COMMAND = 'revtrail install --from-prepare';
export const SETUP_SCRIPT = `${SETUP_COMMAND} || true`;

/** The existing script followed by ours; the parentheses keep `|| true` from hiding its failure. */
export function appendedScript(existing: string): string {
  return `${existing} && (${SETUP_SCRIPT})`;
}

/** A script that already sets the hooks up (ours, or husky's where husky is the package's own dependency). */
export function setsUpHooks(script: string): boolean {
  return script.includes(SETUP_COMMAND) || /(?:^|[;&|(]\s*|\s)husky(?:\s|$|[;&|)])/.test(script);
}

export function lifecycleScript(pm: PackageManager): 'prepare' | 'postinstall' {
  return pm === 'yarn-berry' ? 'postinstall' : 'prepare';
}

export const PM_LABEL: Record<PackageManager, string> = {
  npm: 'npm',
  pnpm: 'pnpm',
  'yarn-classic': 'yarn classic (1.x)',
  'yarn-berry': 'yarn berry (2+)',
  bun: 'bun',
};

/** What a teammate runs to install the project's dependencies (and with them revtrail's CLI). */
export const INSTALL_COMMAND: Record<PackageManager, string> = {
  npm: 'npm install',
  pnpm: 'pnpm install',
  'yarn-classic': 'yarn install',
  'yarn-berry': 'yarn install',
  bun: 'bun install',
};

/**
 * The start of a file that decides the package manager, or null when there is none. Only a
 * regular file is read, at most 1 MiB of it (a yarn.lock's `__metadata:` is at its top): one
 * committed as a symlink to /dev/zero or a FIFO reads as empty, never as a hang.
 */
function read(file: string): string | null {
  try {
    return readRegularFile(file, { maxBytes: 1024 * 1024, truncate: true }).bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : '';
  }
}

function fromField(field: unknown): PackageManager | null {
  if (typeof field !== 'string') return null;
  const m = /^(npm|pnpm|yarn|bun)@(\d+)/.exec(field);
  if (!m) return null;
  if (m[1] === 'yarn') return Number(m[2]) >= 2 ? 'yarn-berry' : 'yarn-classic';
  return m[1] as PackageManager;
}

/** Looks in `dir` and each folder up to `top` (a workspace root holds the lockfile). */
export function detectPackageManager(dir: string, top: string): Detected {
  const folders: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    folders.push(d);
    if (d === top || !contains(top, d) || dirname(d) === d) break;
  }
  const linker = (d: string) =>
    /^\s*nodeLinker:\s*["']?([\w-]+)/m.exec(read(join(d, '.yarnrc.yml')) ?? '')?.[1] ?? 'pnp';
  for (const d of folders) {
    const where = (name: string) => toPosix(relative(top, join(d, name)) || name);
    let field: PackageManager | null = null;
    try {
      field = fromField(
        (JSON.parse(read(join(d, 'package.json')) ?? '{}') as { packageManager?: unknown }).packageManager,
      );
    } catch {
      // a broken package.json is reported elsewhere
    }
    if (field)
      return {
        pm: field,
        evidence: `"packageManager" in ${where('package.json')}`,
        root: d,
        ...(field === 'yarn-berry' ? { nodeLinker: linker(d) } : {}),
      };
    if (existsSync(join(d, 'pnpm-lock.yaml'))) return { pm: 'pnpm', evidence: where('pnpm-lock.yaml'), root: d };
    if (existsSync(join(d, 'bun.lock')) || existsSync(join(d, 'bun.lockb')))
      return { pm: 'bun', evidence: where(existsSync(join(d, 'bun.lock')) ? 'bun.lock' : 'bun.lockb') };
    const yarnLock = read(join(d, 'yarn.lock'));
    if (yarnLock !== null || existsSync(join(d, '.yarnrc.yml'))) {
      const berry = existsSync(join(d, '.yarnrc.yml')) || /^__metadata:/m.test(yarnLock ?? '');
      return berry
        ? { pm: 'yarn-berry', evidence: where(yarnLock !== null ? 'yarn.lock' : '.yarnrc.yml'), nodeLinker: linker(d) }
        : { pm: 'yarn-classic', evidence: where('yarn.lock') };
    }
    if (existsSync(join(d, 'package-lock.json')) || existsSync(join(d, 'npm-shrinkwrap.json')))
      return { pm: 'npm', evidence: where('package-lock.json') };
  }
  return { pm: 'npm', evidence: 'no lockfile (npm assumed)' };
}
