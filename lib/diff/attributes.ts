/**
 * Git's attributes for changed paths, read the way `git diff --check` reads them: they are the
 * authority on what a file is (docs/review.md "Git's attributes"). One `git check-attr --stdin -z`
 * batch per review, for the paths that need it.
 *
 * Which .gitattributes apply depends on what is reviewed: the work tree's for local changes,
 * the index's for staged ones, and the reviewed tip's for a range (what is pushed carries its own
 * attributes). git 2.39 has no `check-attr --source`, so for a tree the .gitattributes files that
 * can apply (those of the paths' folders) are put in a throwaway index and read with `--cached`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAttributes, lsTree, run, updateIndexInfo } from '../core/git/commands.js';
import { fileVersions, parseTreeObject } from '../core/git/versions.js';

export interface PathAttributes {
  /** `conflict-marker-size`, when the path sets it to a positive number. */
  markerSize: number | null;
  /** `binary`, or `-diff`: not text to read line by line. */
  binary: boolean;
  /** `linguist-generated`: made by a tool. */
  generated: boolean;
  /** `linguist-vendored`: someone else's code kept in the repository. */
  vendored: boolean;
}

export type AttributeSource = { kind: 'worktree' } | { kind: 'index' } | { kind: 'tree'; treeish: string };

export const ATTRIBUTE_NAMES = [
  'conflict-marker-size',
  'binary',
  'diff',
  'linguist-generated',
  'linguist-vendored',
] as const;

const DEFAULTS: PathAttributes = { markerSize: null, binary: false, generated: false, vendored: false };

/**
 * The attributes of `paths` (repo-relative, as the diff names them) that differ from the
 * defaults; a path with nothing set is absent from the map. Runs from the top level `top`.
 */
export async function readAttributes(
  top: string,
  paths: readonly string[],
  source: AttributeSource,
): Promise<Map<string, PathAttributes>> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return new Map();
  if (source.kind !== 'tree') return checkAttr(top, unique, source.kind === 'index', undefined);
  // Loaded here: a review of local changes (a hook's, the editor's) never needs it, and loading
  // node:fs/promises is milliseconds of a cold start (docs/editor.md "Start-up").
  const { mkdtemp, rm } = await import('node:fs/promises');
  const dir = await mkdtemp(join(tmpdir(), 'revtrail-attr-'));
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    const entries = await attributeFilesOf(top, source.treeish, unique);
    // No .gitattributes in the tree for these paths: an empty (missing) index still lets
    // check-attr apply $GIT_DIR/info/attributes and core.attributesFile.
    if (entries) await run(updateIndexInfo(entries), { cwd: top, env });
    return await checkAttr(top, unique, true, env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The folders' .gitattributes of `paths` in `treeish`, as `update-index --index-info -z` input ('' when none). */
async function attributeFilesOf(top: string, treeish: string, paths: readonly string[]): Promise<string> {
  const folders = new Set<string>(['']);
  for (const path of paths) {
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) folders.add(path.slice(0, at));
  }
  const file = (folder: string) => (folder ? `${folder}/.gitattributes` : '.gitattributes');
  // The folders' trees through the process's one reader of file versions (core/git/versions.ts),
  // each entry with its mode as ls-tree would list it; a folder name cat-file cannot take (a
  // line break in it) sends the whole question to ls-tree.
  if (![...folders].some((f) => /[\r\n]/.test(f))) {
    const trees = await fileVersions(top).objects([...folders].map((f) => `${treeish}:${f}`));
    let input = '';
    for (const folder of folders) {
      const tree = trees.get(`${treeish}:${folder}`);
      if (tree?.type !== 'tree') continue;
      const entry = parseTreeObject(tree.bytes, tree.oid.length / 2).find((e) => e.name === '.gitattributes');
      // A blob (a file or a symbolic link), as ls-tree's type says; not a folder or a submodule.
      if (entry && /^1[02]/.test(entry.mode)) input += `${entry.mode} ${entry.oid}\t${file(folder)}\0`;
    }
    return input;
  }
  const listed = await run(lsTree(treeish, [...folders].map(file)), { cwd: top });
  // index-info takes "<mode> <object>\t<path>".
  return listed
    .filter((e) => e.type === 'blob')
    .map((e) => `${e.mode} ${e.oid}\t${e.path}\0`)
    .join('');
}

async function checkAttr(
  top: string,
  paths: readonly string[],
  cached: boolean,
  env: NodeJS.ProcessEnv | undefined,
): Promise<Map<string, PathAttributes>> {
  const out = await run(checkAttributes(paths, ATTRIBUTE_NAMES, cached), { cwd: top, env });
  return parseCheckAttr(out);
}

/** check-attr -z output: `<path>\0<attribute>\0<value>\0` per attribute. */
export function parseCheckAttr(output: string): Map<string, PathAttributes> {
  const fields = output.split('\0');
  const found = new Map<string, PathAttributes>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [path, name, value] = [fields[i]!, fields[i + 1]!, fields[i + 2]!];
    if (value === 'unspecified') continue;
    const current = found.get(path) ?? { ...DEFAULTS };
    if (name === 'conflict-marker-size') {
      const size = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
      if (size > 0) current.markerSize = size;
    } else if (name === 'binary') current.binary ||= value === 'set';
    else if (name === 'diff') current.binary ||= value === 'unset';
    else if (name === 'linguist-generated') current.generated = truthy(value);
    else if (name === 'linguist-vendored') current.vendored = truthy(value);
    if (current.markerSize !== null || current.binary || current.generated || current.vendored)
      found.set(path, current);
  }
  return found;
}

/** Linguist reads `attr`, `attr=true` and `attr=1` as set; `-attr`, `attr=false` as unset. */
function truthy(value: string): boolean {
  return value === 'set' || value === 'true' || value === '1';
}
