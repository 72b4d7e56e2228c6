/**
 * What the structural pass reads (docs/structural.md): the new version of each changed file —
 * the work tree's for local changes, the index's for staged ones, the tip's for a range, through
 * the process's one reader of file versions (core/git/versions.ts) — and, for import resolution, `tsconfig.json` `paths`, `go.mod` and the
 * list of files that exist there. Only regular, size-capped files; nothing for a diff file.
 */
import { join } from 'node:path';
import { indexedAndOthers, run, treeNames } from '../../core/git/commands.js';
import { fileVersions, type ObjectRead } from '../../core/git/versions.js';
import type { DiffFile, DiffSource } from '../../diff/types.js';
import { newSideOf, objectName } from '../../diff/version.js';
import { MAX_PARSED_BYTES, TOO_LARGE, type FileVersion, type StructuralIO } from './index.js';
import type { ResolveContext } from './imports.js';

/** A version read through the one reader, as the pass takes it: text, TOO_LARGE past the parse cap, or null. */
function asVersion(object: ObjectRead | null): FileVersion {
  // `<name> missing`, or another object type than a blob: no file version.
  if (object?.type !== 'blob') return null;
  return object.cut ? TOO_LARGE : object.bytes.toString('utf8');
}

/** The work tree's file through the one safe reader (core/fs/read.ts: no FIFO or device is opened for good). */
async function readRegular(top: string, path: string): Promise<FileVersion> {
  return asVersion(await fileVersions(top).file({ kind: 'worktree' }, path, MAX_PARSED_BYTES, true));
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
 * object from the process's one `git cat-file` (core/git/versions.ts), each asked once here.
 */
export function structuralIO(top: string, source: DiffSource, tip: string | null): StructuralIO {
  const side = source.kind === 'text' ? null : newSideOf(source, tip);
  // A range whose tip is not known reads the work tree, as before the side was named; a diff
  // given as text reads the blobs its `index` lines name.
  const byBlob = source.kind === 'text';
  const prefix = byBlob ? null : side === null || side.kind === 'worktree' ? null : objectName(side, '');
  // Objects by name (`tip:path`, `:path`, a blob id), each asked once of the process's one
  // reader (core/git/versions.ts): what prefetch asks is on its way before the pass awaits it.
  const versions = fileVersions(top);
  const pending = new Map<string, Promise<FileVersion>>();
  const fetchNames = (names: readonly string[]) => {
    for (const n of names) if (!pending.has(n)) pending.set(n, versions.object(n, MAX_PARSED_BYTES).then(asVersion));
  };
  const byName = (name: string): Promise<FileVersion> => {
    fetchNames([name]);
    return pending.get(name)!;
  };
  const newName = (path: string, file?: DiffFile) => (byBlob ? blobOf(file, 'new') : `${prefix}${path}`);
  const fetch = (paths: readonly string[]) => {
    if (prefix !== null) fetchNames(paths.map((p) => `${prefix}${p}`));
  };
  const read = async (path: string, file?: DiffFile): Promise<FileVersion> => {
    if (prefix === null && !byBlob) return readRegular(top, path);
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
        prefix === null || side?.kind === 'index'
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
