/**
 * What the structural pass reads (docs/structural.md): the new version of each changed file —
 * the work tree's for local changes, the index's for staged ones, the tip's for a range, in one
 * `git cat-file --batch` — and, for import resolution, `tsconfig.json` `paths`, `go.mod` and the
 * list of files that exist there. Only regular, size-capped files; nothing for a diff file.
 */
import { join } from 'node:path';
import { FileShapeError, readRegularFile } from '../../core/fs/read.js';
import { catFileBatch, indexedAndOthers, run, treeNames, type CatFileObject } from '../../core/git/commands.js';
import type { DiffFile, DiffSource } from '../../diff/types.js';
import { newSideOf, objectName } from '../../diff/version.js';
import { MAX_PARSED_BYTES, TOO_LARGE, type FileVersion, type StructuralIO } from './index.js';
import type { ResolveContext } from './imports.js';

/** The work tree's file through the one safe reader (core/fs/read.ts: no FIFO or device is opened for good). */
function readRegular(file: string, cap: number): FileVersion {
  try {
    return readRegularFile(file, { maxBytes: cap }).bytes.toString('utf8');
  } catch (error) {
    return error instanceof FileShapeError && error.code === 'ETOOBIG' ? TOO_LARGE : null;
  }
}

/** Blobs by object name (`:path`, `tip:path`) in one cat-file; a name git does not have is null. */
async function catFiles(top: string, names: readonly string[]): Promise<Map<string, FileVersion>> {
  const out = new Map<string, FileVersion>();
  const asked = names.filter((n) => !/[\r\n]/.test(n));
  if (!asked.length) return out;
  let answer: Map<string, CatFileObject | null>;
  try {
    answer = await run(catFileBatch(asked), { cwd: top });
  } catch {
    // No repository to ask (a diff file reviewed outside one): no file versions.
    return out;
  }
  for (const [name, object] of answer) {
    // `<name> missing`, or another object type than a blob: no file version.
    if (object?.type !== 'blob') out.set(name, null);
    else out.set(name, object.content.length > MAX_PARSED_BYTES ? TOO_LARGE : object.content.toString('utf8'));
  }
  return out;
}

function jsonWithoutComments(text: string): unknown {
  try {
    return JSON.parse(text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"'])\/\/[^\n]*/g, '$1').replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return null;
  }
}

const ZERO_ID = /^0+$/;

/** The object id of one side of a diff file, from its `index` line; null for none (an added file's old side). */
function blobOf(file: DiffFile | undefined, side: 'old' | 'new'): string | null {
  const id = file?.blobs?.[side];
  return id && !ZERO_ID.test(id) ? id : null;
}

/**
 * The file versions a review reads (docs/review.md "What a change introduces"): each changed
 * file's new version (the work tree's, the index's, the tip's; for a diff given as text, the
 * blob its `index` line names) and its old version (the blob the `index` line names), every
 * object of a batch in one `git cat-file --batch`.
 */
export function structuralIO(top: string, source: DiffSource, tip: string | null): StructuralIO {
  const side = source.kind === 'text' ? null : newSideOf(source, tip);
  // A range whose tip is not known reads the work tree, as before the side was named; a diff
  // given as text reads the blobs its `index` lines name.
  const byBlob = source.kind === 'text';
  const prefix = byBlob ? null : side === null || side.kind === 'worktree' ? null : objectName(side, '');
  // Every file the pass will read is asked for in one cat-file (prefetch); any other on its own.
  const pending = new Map<string, Promise<Map<string, FileVersion>>>();
  // Objects by name (`tip:path`, `:path`, a blob id), asked in batches and answered once each.
  const fetchNames = (names: readonly string[]) => {
    const wanted = [...new Set(names)].filter((n) => !pending.has(n));
    if (!wanted.length) return;
    const batch = catFiles(top, wanted);
    for (const n of wanted) pending.set(n, batch);
  };
  const byName = async (name: string): Promise<FileVersion> => {
    fetchNames([name]);
    return (await pending.get(name)!).get(name) ?? null;
  };
  const newName = (path: string, file?: DiffFile) => (byBlob ? blobOf(file, 'new') : `${prefix}${path}`);
  const fetch = (paths: readonly string[]) => {
    if (prefix !== null) fetchNames(paths.map((p) => `${prefix}${p}`));
  };
  const read = async (path: string, file?: DiffFile): Promise<FileVersion> => {
    if (prefix === null && !byBlob) return readRegular(join(top, path), MAX_PARSED_BYTES);
    const name = newName(path, file);
    return name === null ? null : byName(name);
  };
  const text = async (path: string) => {
    const version = await read(path);
    return typeof version === 'string' ? version : null;
  };
  return {
    prefetch: (paths) => {
      if (prefix !== null) fetch(paths);
    },
    prefetchVersions: (files) => {
      const names: string[] = [];
      for (const file of files) {
        const old = blobOf(file, 'old');
        if (old) names.push(old);
        const path = file.newPath;
        const name = path === null ? null : prefix === null && !byBlob ? null : newName(path, file);
        if (name) names.push(name);
      }
      fetchNames(names);
    },
    fileText: read,
    oldText: (file) => {
      const old = blobOf(file, 'old');
      return old === null ? Promise.resolve(null) : byName(old);
    },
    async context() {
      if (byBlob) return { tsPaths: [], goModule: null, exists: () => false };
      const listed =
        prefix === null || prefix === ':'
          ? await run(indexedAndOthers, { cwd: top })
          : await run(treeNames(tip!), { cwd: top });
      return resolveContext(text, new Set(listed.split('\0').filter(Boolean)));
    },
  };
}

/**
 * What import resolution needs of one version of the repository: `tsconfig.json` `paths`,
 * `go.mod`'s module, read through `text`, and the files of that version. Shared with the
 * backtest, which keeps its files as it walks history (flows/backtest-files.ts).
 */
export async function resolveContext(
  text: (path: string) => Promise<string | null>,
  files: ReadonlySet<string>,
): Promise<ResolveContext & { exists(path: string): boolean }> {
  const tsconfig = jsonWithoutComments((await text('tsconfig.json')) ?? '') as {
    compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> };
  } | null;
  const base = tsconfig?.compilerOptions?.baseUrl ?? '.';
  const tsPaths = Object.entries(tsconfig?.compilerOptions?.paths ?? {})
    .filter(([, v]) => Array.isArray(v))
    .map(([alias, targets]): [string, string[]] => [alias, targets.map((t) => join(base, t).replace(/\\/g, '/'))]);
  const goModule = /^module\s+(\S+)/m.exec((await text('go.mod')) ?? '')?.[1] ?? null;
  return { tsPaths, goModule, exists: (p: string) => files.has(p) };
}

/**
 * The work tree's files, but `buffer.path` as an editor holds it, unsaved (docs/editor.md "What
 * is reviewed"): the file whose diff is reviewed is parsed from the buffer, every other file
 * an import resolves to is read as for local changes.
 */
export function bufferIO(top: string, buffer: { path: string; text: string }): StructuralIO {
  const io = structuralIO(top, { kind: 'worktree' }, null);
  const own: FileVersion = Buffer.byteLength(buffer.text) > MAX_PARSED_BYTES ? TOO_LARGE : buffer.text;
  return { ...io, fileText: (path, file) => (path === buffer.path ? Promise.resolve(own) : io.fileText(path, file)) };
}
