/**
 * What `revtrail install` changed, so that `uninstall` undoes exactly that:
 * <commonDir>/revtrail/install.json. core.hooksPath is shared by every worktree, the .husky
 * files belong to one work tree, hence one entry per work tree.
 */
import { mkdir, readFile, unlink } from 'node:fs/promises';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { installFile, revtrailDir } from '../core/state.js';

const hookRecord = z.enum(['created', 'block']);

const worktreeSchema = z.object({
  hooks: z.record(z.string(), hookRecord),
  /** .husky/_ did not exist before: husky made it for us. */
  huskyDirCreated: z.boolean(),
  /**
   * package.json (relative to the top level) whose lifecycle script install wrote: `script`
   * (default prepare) = `value` (default "husky", as older installs wrote it); `previous`: the
   * JSON text of the value it replaced (an appended script), to put back byte for byte.
   */
  prepareAdded: z.nullable(
    z.object({
      file: z.string(),
      scriptsCreated: z.boolean(),
      script: z.optional(z.string()),
      value: z.optional(z.string()),
      previous: z.optional(z.string()),
    }),
  ),
  /** Permission bits of a user's hook file before install made it executable, per hook. */
  modes: z.optional(z.record(z.string(), z.number())),
});

/**
 * `install --lefthook` / `--pre-commit` in one work tree: the config's text before install
 * (null: there was none) and after it, so uninstall gives it back byte for byte when nobody
 * edited it since; git's hook files of the hooks added, as they were (base64; null: none), for
 * the ones the manager's own install then writes.
 */
const managerSchema = z.object({
  manager: z.string(),
  config: z.string(),
  before: z.nullable(z.string()),
  after: z.string(),
  gitHooks: z.record(z.string(), z.nullable(z.string())),
});

const recordSchema = z.object({
  version: z.literal(1),
  managers: z.optional(z.record(z.string(), managerSchema)),
  /** revtrail install changed core.hooksPath; `previous` is what to restore (null: unset). */
  hooksPath: z.nullable(z.object({ previous: z.nullable(z.object({ value: z.string(), scope: z.string() })) })),
  worktrees: z.record(z.string(), worktreeSchema),
});

export type InstallRecord = z.output<typeof recordSchema>;
export type WorktreeRecord = z.output<typeof worktreeSchema>;
export type ManagerRecord = z.output<typeof managerSchema>;

export async function readInstallRecord(commonDir: string): Promise<InstallRecord> {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(await readFile(installFile(commonDir), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // none yet, or damaged: start over (uninstall then falls back to the markers alone)
  }
  return { version: 1, hooksPath: null, worktrees: {} };
}

export async function writeInstallRecord(commonDir: string, record: InstallRecord): Promise<void> {
  if (
    record.hooksPath === null &&
    Object.keys(record.worktrees).length === 0 &&
    Object.keys(record.managers ?? {}).length === 0
  ) {
    await unlink(installFile(commonDir)).catch(() => {});
    return;
  }
  await mkdir(revtrailDir(commonDir), { recursive: true });
  await writeFileAtomic(installFile(commonDir), JSON.stringify(record, null, 2) + '\n');
}
