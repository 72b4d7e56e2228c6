/**
 * The policy of a commit — its config, knowledge bundle, doc map with the documents the map
 * names, reviewers file and adoption baseline — copied out of git's objects into a folder the
 * normal loaders read as a top level (docs/server.md "Which policy"). The server gate and
 * `review --policy-from` review with the policy a branch had before the push, never with what the
 * pushed commits say.
 *
 * Only regular blobs are copied (a symlink or a submodule in the tree is left out, so nothing
 * outside the copy is ever read), each under the bundle's file cap (the baseline under its
 * reader's), at most MAX_FILES of them.
 * A copy is kept per content (the names of every object it holds), in the git common dir, so a
 * push against an unchanged policy reads a few tree entries and no blob.
 */
import { crypto } from '../core/node-module.js';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { contains } from '../core/fs/path.js';
import { lsTree, run } from '../core/git/commands.js';
import { fileVersions } from '../core/git/versions.js';
import { policyCopiesDir } from '../core/state.js';
import { MAX_FILE_BYTES } from '../bundle/read.js';
import { BASELINE_FILE, MAX_BASELINE_BYTES } from '../review/findings/baseline.js';
import { serverMessages as m } from '../messages/hooks.js';
import { parseWithLibrary } from '../bundle/frontmatter.js';

/** The most files one policy copy holds. */
export const MAX_FILES = 10_000;
/** Copies kept per repository (older ones are removed when a new one is made). */
const KEEP_COPIES = 8;
const DEFAULT_KNOWLEDGE = '.okfw';

export interface PolicyCopy {
  /** The folder to read the config, bundle and doc map from (as a top level). */
  dir: string;
  /** The bundle's folder inside it (the config's `knowledge`, when that stays inside the tree). */
  knowledge: string;
  /** The commit the policy came from, or null (no such commit: defaults and the baseline). */
  commit: string | null;
  /** What was left out (a symlink, a file over the cap), one line each. */
  warnings: string[];
}

interface Entry {
  mode: string;
  type: string;
  oid: string;
  size: number;
  path: string;
}

/**
 * The policy of `commit` (null: none, an empty policy) as a folder under `commonDir`. `cwd` is
 * where git runs (the bare repository, or any folder of a work tree).
 */
export async function copyPolicy(cwd: string, commonDir: string, commit: string | null): Promise<PolicyCopy> {
  const root = policyCopiesDir(commonDir);
  if (commit === null) {
    const dir = join(root, 'none');
    mkdirSync(dir, { recursive: true });
    return { dir, knowledge: join(dir, DEFAULT_KNOWLEDGE), commit, warnings: [] };
  }
  const warnings: string[] = [];
  // The config decides where the bundle and doc map are: read it first. The baseline comes from
  // the same commit as the rules it excuses, never from the push (docs/server.md "Which policy").
  const top = (
    await listTree(cwd, commit, ['revtrail.config.json', 'package.json', DEFAULT_KNOWLEDGE, BASELINE_FILE], false)
  ).filter((e) => e.path !== BASELINE_FILE || e.type !== 'tree'); // a folder by that name is no baseline
  const configEntry =
    regular(top.find((e) => e.path === 'revtrail.config.json')) ?? regular(top.find((e) => e.path === 'package.json'));
  const where = configEntry
    ? placesOf(configEntry.path, (await readBlobs(cwd, [configEntry])).get(configEntry.oid), warnings)
    : { knowledge: DEFAULT_KNOWLEDGE };
  const wanted = [...top.filter((e) => e.path !== DEFAULT_KNOWLEDGE || where.knowledge === DEFAULT_KNOWLEDGE)];
  const more = [
    where.knowledge === DEFAULT_KNOWLEDGE ? null : where.knowledge,
    where.docMap ?? null,
    where.reviewers ?? null,
  ].filter((p): p is string => p !== null);
  if (more.length) wanted.push(...(await listTree(cwd, commit, more, false)));
  const mapEntry = where.docMap === undefined ? undefined : regular(wanted.find((e) => e.path === where.docMap));
  // A folder the doc map names brings its .md files only (as the doc map reads it).
  const mdOnly = new Set<string>();
  if (mapEntry) {
    const docs = await docsOf((await readBlobs(cwd, [mapEntry])).get(mapEntry.oid));
    for (const e of await listTree(cwd, commit, docs, false)) {
      if (e.type === 'tree' && !wanted.some((w) => w.path === e.path)) mdOnly.add(e.path);
      wanted.push(e);
    }
  }
  const unique = new Map(wanted.map((e) => [e.path, e]));
  const key = crypto()
    .createHash('sha256')
    .update(JSON.stringify([where, [...unique.values()].map((e) => [e.path, e.mode, e.oid])]))
    .digest('hex')
    .slice(0, 24);
  const dir = join(root, key);
  if (existsSync(dir)) {
    touch(dir);
    prune(root, dir, false);
    return { dir, knowledge: join(dir, where.knowledge), commit, warnings: readLeftOut(dir) };
  }
  await makeCopy(cwd, commit, root, dir, unique, mdOnly, warnings);
  prune(root, dir);
  return { dir, knowledge: join(dir, where.knowledge), commit, warnings };
}

/** Where the config puts the bundle and the doc map (the defaults when it cannot be read: the review says why). */
function placesOf(
  file: string,
  bytes: Buffer | undefined,
  warnings: string[],
): { knowledge: string; docMap?: string; reviewers?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes?.toString('utf8') ?? '');
  } catch {
    return { knowledge: DEFAULT_KNOWLEDGE };
  }
  const config = file === 'package.json' ? (raw as { revtrail?: unknown } | null)?.revtrail : raw;
  if (!config || typeof config !== 'object') return { knowledge: DEFAULT_KNOWLEDGE };
  const { knowledge, docMap, gate } = config as {
    knowledge?: unknown;
    docMap?: unknown;
    gate?: { reviewers?: { file?: unknown } };
  };
  const k = typeof knowledge === 'string' ? inTree(knowledge) : null;
  if (typeof knowledge === 'string' && k === null) warnings.push(m.policyKnowledgeLeaves(knowledge, DEFAULT_KNOWLEDGE));
  const d = typeof docMap === 'string' ? inTree(docMap) : null;
  // The reviewers file of signed answers (docs/gate.md "Signed answers"): a policy file like the bundle.
  const signers = gate?.reviewers?.file;
  const r = typeof signers === 'string' ? inTree(signers) : null;
  return { knowledge: k ?? DEFAULT_KNOWLEDGE, ...(d ? { docMap: d } : {}), ...(r ? { reviewers: r } : {}) };
}

/** A path the config names, as a path inside the tree, or null when it leaves it. */
export function inTree(path: string): string | null {
  const slashed = path.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return null;
  const normal = posix.normalize(slashed).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../') || normal === '' || normal === '.') return null;
  return normal;
}

/** The `docs` entries of a doc map (its own reader checks the rest when the review loads it). */
async function docsOf(bytes: Buffer | undefined): Promise<string[]> {
  if (!bytes || bytes.length > MAX_FILE_BYTES) return [];
  const parsed = await parseWithLibrary(
    bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r\n/g, '\n'),
  );
  if (!parsed.ok) return [];
  const mappings = (parsed.data as { mappings?: unknown }).mappings;
  if (!Array.isArray(mappings)) return [];
  const docs = new Set<string>();
  for (const mapping of mappings) {
    const value = (mapping as { docs?: unknown } | null)?.docs;
    for (const doc of Array.isArray(value) ? value : [value]) {
      const path = typeof doc === 'string' ? inTree(doc.trim()) : null;
      if (path) docs.add(path);
    }
  }
  return [...docs];
}

const regular = (e: Entry | undefined) =>
  e && e.type === 'blob' && (e.mode === '100644' || e.mode === '100755') ? e : undefined;

/** `git ls-tree` of `paths` in `commit` (recursive: every file under the folders). */
async function listTree(cwd: string, commit: string, paths: readonly string[], recursive: boolean): Promise<Entry[]> {
  if (paths.length === 0) return [];
  return (await run(lsTree(commit, paths, { recursive, sizes: true }), { cwd })).map((e) => ({
    ...e,
    size: e.size ?? 0,
  }));
}

/** The blobs' bytes by object name, through the process's one reader of file versions (core/git/versions.ts). */
async function readBlobs(cwd: string, entries: readonly Entry[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for (const [oid, object] of await fileVersions(cwd).objects(entries.map((e) => e.oid)))
    if (object) found.set(oid, object.bytes);
  return found;
}

/** Every regular file the wanted entries hold (folders listed recursively), and what is left out. */
async function filesOf(
  cwd: string,
  commit: string,
  wanted: ReadonlyMap<string, Entry>,
  mdOnly: ReadonlySet<string>,
  warnings: string[],
): Promise<Entry[]> {
  const folders = [...wanted.values()].filter((e) => e.type === 'tree').map((e) => e.path);
  const inFolders = (await listTree(cwd, commit, folders, true)).filter((e) => {
    // Only a doc map folder's .md files (unless the bundle's own folder holds them too).
    const under = folders.filter((f) => e.path.startsWith(`${f}/`));
    return under.some((f) => !mdOnly.has(f)) || e.path.toLowerCase().endsWith('.md');
  });
  const all = [...[...wanted.values()].filter((e) => e.type !== 'tree'), ...inFolders];
  const files: Entry[] = [];
  const seen = new Set<string>();
  for (const e of all) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    if (e.type === 'commit') continue; // a submodule: nothing of it is in this repository
    if (!regular(e)) warnings.push(m.policySymlink(e.path, commit));
    else if (e.size > capOf(e.path)) warnings.push(m.policyTooBig(e.path, e.size, capOf(e.path)));
    else if (!safePath(e.path)) warnings.push(m.policyBadPath(e.path));
    else if (files.length >= MAX_FILES) {
      warnings.push(m.policyTooMany(MAX_FILES));
      break;
    } else files.push(e);
  }
  return files;
}

/** A file's cap in the copy: the baseline's is its reader's own (a large codebase records thousands of lines). */
const capOf = (path: string) => (path === BASELINE_FILE ? MAX_BASELINE_BYTES : MAX_FILE_BYTES);

/** What a copy left out is kept beside its files and said again on each use. */
const LEFT_OUT = '.revtrail-left-out.json';

function readLeftOut(dir: string): string[] {
  try {
    const lines = JSON.parse(readFileSync(join(dir, LEFT_OUT), 'utf8')) as unknown;
    return Array.isArray(lines) ? lines.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

/** A path git could hold that is safe to write under the copy (no `..`, no empty or `.git` part). */
function safePath(path: string): boolean {
  return (
    !path.startsWith('/') &&
    path.split('/').every((p) => p !== '' && p !== '.' && p !== '..' && p.toLowerCase() !== '.git')
  );
}

async function makeCopy(
  cwd: string,
  commit: string,
  root: string,
  dir: string,
  wanted: ReadonlyMap<string, Entry>,
  mdOnly: ReadonlySet<string>,
  warnings: string[],
): Promise<void> {
  const files = await filesOf(cwd, commit, wanted, mdOnly, warnings);
  const blobs = await readBlobs(cwd, files);
  mkdirSync(root, { recursive: true });
  // Named for this process: a copy cut off by a kill is known as such and removed (prune).
  const staging = mkdtempSync(join(root, `${STAGING}${process.pid}-`));
  try {
    for (const f of files) {
      const target = resolve(staging, f.path);
      if (target === staging || !contains(staging, target)) continue;
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, blobs.get(f.oid) ?? Buffer.alloc(0));
    }
    if (warnings.length) writeFileSync(join(staging, LEFT_OUT), JSON.stringify(warnings));
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another push made the same copy meanwhile: theirs is as good.
      if (!existsSync(dir)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function touch(dir: string): void {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // only the pruning order
  }
}

const STAGING = '.staging-';
/** A copy used this recently may be being read by a push that runs now: never pruned. */
const IN_USE_MS = 10 * 60 * 1000;
/** A staging folder this old is a leftover whatever its process (another host's, a reused pid). */
const STALE_MS = 60 * 60 * 1000;

/**
 * Keeps (with `copies`) the KEEP_COPIES copies used last, and no copy in use (touched in the last IN_USE_MS),
 * and removes what a killed copy left (docs/server.md "Under load"). A copy appears only by one
 * rename of a finished folder, so no push ever reads a half-made one.
 */
function prune(root: string, keep: string, copies = true): void {
  try {
    const now = Date.now();
    const entries = readdirSync(root).map((n) => ({
      name: n,
      path: join(root, n),
      at: statSync(join(root, n)).mtimeMs,
    }));
    for (const e of entries)
      if (
        e.name.startsWith(STAGING) &&
        (now - e.at > STALE_MS || !alive(Number(e.name.slice(STAGING.length).split('-')[0])))
      )
        rmSync(e.path, { recursive: true, force: true });
    if (!copies) return;
    const kept = entries
      .filter((e) => e.name !== 'none' && !e.name.startsWith('.') && e.path !== keep)
      .sort((a, b) => b.at - a.at);
    for (const old of kept.slice(KEEP_COPIES - 1))
      if (now - old.at > IN_USE_MS) rmSync(old.path, { recursive: true, force: true });
  } catch {
    // the next copy tries again
  }
}

/** Whether a process of this host has this pid (a staging folder without one is a leftover). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
