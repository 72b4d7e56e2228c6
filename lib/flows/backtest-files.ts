/**
 * What syntax-tree and import rules read during a backtest (docs/mining.md "Backtest"): each
 * commit's own version of a file, through the process's one reader of file versions (one `git
 * cat-file` for the whole history, core/git/versions.ts), and the files that exist at that commit, kept as the walk goes (the tree before the
 * oldest commit, then each first-parent change applied), so that no commit costs a process.
 */
import { fileVersions, type FileVersions, type ObjectRead } from '../core/git/versions.js';
import { lsTree, run } from '../core/git/commands.js';
import type { DiffFile } from '../diff/types.js';
import { MAX_PARSED_BYTES, TOO_LARGE, type FileVersion, type StructuralIO } from '../review/structural/index.js';
import { resolveContext } from '../review/structural/io.js';

export class HistoryFiles {
  private readonly cat: FileVersions;

  private constructor(
    top: string,
    private readonly files: Set<string>,
  ) {
    this.cat = fileVersions(top);
  }

  /** Starts at the tree before `oldest` (nothing before a root commit). */
  static async before(top: string, oldest: string): Promise<HistoryFiles> {
    let entries: Array<{ path: string }> = [];
    try {
      entries = await run(lsTree(`${oldest}^`, [], { recursive: true }), { cwd: top });
    } catch {
      // A root commit: no tree before it.
    }
    return new HistoryFiles(top, new Set(entries.map((e) => e.path)));
  }

  /** The files after a commit whose changes are `changed`. */
  apply(changed: readonly DiffFile[]): void {
    for (const f of changed) {
      if (f.oldPath !== null && (f.status === 'deleted' || f.status === 'renamed')) this.files.delete(f.oldPath);
      if (f.newPath !== null) this.files.add(f.newPath);
    }
  }

  /** What the structural pass reads at `commit` (after apply of its changes). */
  at(commit: string, budgetMs: number): StructuralIO {
    const read = async (path: string): Promise<FileVersion> =>
      asVersion(await this.cat.object(`${commit}:${path}`, MAX_PARSED_BYTES));
    const files = this.files;
    return {
      fileText: read,
      // The old version the commit's diff names (its `index` line, full with --full-index), for
      // what the commit introduced (docs/review.md "What a change introduces").
      oldText: async (file) => {
        const id = file.blobs?.old;
        if (!id || /^0+$/.test(id)) return null;
        return asVersion(await this.cat.object(id, MAX_PARSED_BYTES));
      },
      context: () =>
        resolveContext(async (path) => {
          const version = await read(path);
          return typeof version === 'string' ? version : null;
        }, files),
      budgetMs,
    };
  }

  close(): void {
    this.cat.close();
  }
}

/** A blob cut at the parse cap as the structural pass takes it: its text, TOO_LARGE past the cap, else null. */
function asVersion(object: ObjectRead | null): FileVersion {
  if (object?.type !== 'blob') return null;
  return object.cut ? TOO_LARGE : object.bytes.toString('utf8');
}
