/**
 * Loads a knowledge bundle (docs/bundle.md) by progressive disclosure: from `<bundle>/index.md`,
 * follow the index links; linked `.md` files are concepts, linked folders and `index.md` files
 * are indexes to descend into. Never throws for content problems: they become diagnostics.
 *
 * File access is synchronous on purpose: a bundle is many small local files, and one
 * syscall each beats a promise and a thread-pool round trip each by far (hooks load it on
 * every commit). Parsed concepts can be kept in a ConceptCache between runs.
 */
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { contains, toPosix } from '../core/fs/path.js';
import type { Bundle, Concept, Diagnostic } from './types.js';
import { addDocMap, type DocMapOptions } from './docmap.js';
import { unreachedFiles } from './unreached.js';
import { extractLinks, linkPath } from './links.js';
import type { ConceptResult } from './concept.js';
import { ConceptCache, rememberOverrun, statSignature } from './cache.js';
import { decodeUtf8, MAX_FILE_BYTES, readCapped } from './read.js';
import { forgetSnapshot, keepSnapshot, loadSnapshot, type SnapshotFiles } from './snapshot.js';
import { FileShapeError } from '../core/fs/read.js';
import { bundleMessages as m } from '../messages/bundle.js';

const LINUX = process.platform === 'linux';

export interface LoadOptions {
  /** Folder that diagnostic file names are relative to (default: the process's cwd). */
  base?: string;
  /**
   * A file where parsed concepts are kept between runs (bundleCacheFile(commonDir) of
   * ./cache.ts); the result is the same with or without it. None: every file is parsed.
   */
  cacheFile?: string;
  /**
   * A file where the whole bundle is kept between runs (./snapshot.ts), beside `cacheFile`: taken
   * as it is while every file it read keeps its signature. None: every load walks the indexes.
   */
  snapshotFile?: string;
  /** Also warn about `.md` files under the bundle that no index reaches (`knowledge check`). */
  audit?: boolean;
  /** The configured doc map, read after the bundle (docs/bundle.md "Doc map"); none: not a file more is read. */
  docMap?: DocMapOptions;
}

/** At most this many problems of one file are listed (a generated file can hold thousands). */
export const MAX_PROBLEMS_PER_FILE = 20;

/**
 * Links followed or concepts taken between two turns of the event loop. A review loads the
 * bundle while git writes the diff into a pipe that holds 64 KiB: git waits whenever the pipe
 * is full, so a load that never lets the loop turn holds git up for its whole length
 * (docs/review.md "Time of a large review"). A small bundle never reaches it.
 */
const TURN_EVERY = 64;

export async function loadBundle(root: string, options: LoadOptions = {}): Promise<Bundle> {
  const bundle = await loadOkf(root, options);
  if (options.docMap) {
    const base = options.base ?? process.cwd();
    await addDocMap(bundle, options.docMap, (abs) => toPosix(relative(base, abs)) || '.', options.cacheFile);
  }
  return bundle;
}

/** The path of a concept's file: mapped documents live in the work tree, bundle concepts in the bundle. */
export function conceptPath(bundle: Bundle, concept: Concept): string {
  return concept.mapped && bundle.docMap ? join(bundle.docMap.top, concept.file) : join(bundle.root, concept.file);
}

async function loadOkf(root: string, options: LoadOptions): Promise<Bundle> {
  const absRoot = resolve(root);
  // An audit looks past the indexes, so it always walks them.
  const snapshot: SnapshotFiles | null =
    options.snapshotFile !== undefined && options.cacheFile !== undefined && !options.audit
      ? { snapshotFile: options.snapshotFile, cacheFile: options.cacheFile }
      : null;
  if (snapshot) {
    const kept = await loadSnapshot(absRoot, snapshot);
    if (kept) return kept;
  }
  const base = options.base ?? process.cwd();
  const show = (abs: string) => toPosix(relative(base, abs)) || '.';
  const diagnostics: Diagnostic[] = [];
  const bundle: Bundle = { root: absRoot, concepts: [], diagnostics };
  const warn = (file: string | null, line: number | null, message: string) =>
    diagnostics.push({ level: 'warning', file, line, message });

  let realRoot: string;
  try {
    realRoot = realpathSync.native(absRoot);
    if (!statSync(realRoot).isDirectory()) {
      warn(show(absRoot), null, m.notAFolder(show(absRoot)));
      return bundle;
    }
  } catch {
    // A team with a doc map and no bundle is a normal setup, not one to warn about on every commit.
    if (!options.docMap) warn(show(absRoot), null, m.noBundle(show(absRoot)));
    return bundle;
  }
  // What the load read, by stat() signature, for a check that the bundle is unchanged without
  // loading it (bundle.sources); null once anything is not known by its signature.
  let sources: Map<string, string> | null = absRoot === realRoot ? new Map() : null;
  const source = (file: string, signature: string | undefined) => {
    if (signature === undefined) sources = null;
    else sources?.set(file, signature);
  };
  const rootIndex = join(realRoot, 'index.md');
  if (!statOf(rootIndex)?.isFile()) {
    warn(show(absRoot), null, m.noRootIndex(show(absRoot)));
    return bundle;
  }
  // Shown paths keep the bundle path the user gave, even when the bundle itself is a symlink.
  const display = (real: string) => show(join(absRoot, relative(realRoot, real)));
  const inside = (p: string) => contains(realRoot, p);
  // Inside the bundle: the path under the real root, POSIX (what a concept's `file` is).
  const inBundle = (real: string) => toPosix(real.slice(realRoot.length + (realRoot.endsWith(sep) ? 0 : 1)));

  // Real path and stat() of a link's target, or null when there is nothing there. On Linux a
  // path whose folder is real and whose last part is no symlink is its own real path: one
  // lstat() then answers both (realpath() does not fold case there, so the result is the same).
  const realFolders = new Map<string, boolean>();
  const folderIsReal = (folder: string) => {
    let real = realFolders.get(folder);
    if (real === undefined) {
      try {
        real = realpathSync.native(folder) === folder;
      } catch {
        real = false;
      }
      realFolders.set(folder, real);
    }
    return real;
  };
  // An index may name one file many times: each path is resolved once.
  const resolved = new Map<string, ReturnType<typeof resolveOnce>>();
  const resolveLink = (lexical: string) => {
    let r = resolved.get(lexical);
    if (!r) resolved.set(lexical, (r = resolveOnce(lexical)));
    return r;
  };
  const resolveOnce = (lexical: string): { real: string; stats: Stats | null } | { error: string } => {
    if (LINUX && folderIsReal(dirname(lexical))) {
      let stats: Stats;
      try {
        stats = lstatSync(lexical);
      } catch (error) {
        return { error: (error as NodeJS.ErrnoException).code ?? 'ENOENT' };
      }
      if (!stats.isSymbolicLink()) return { real: lexical, stats };
    }
    try {
      // The same libuv realpath as fs/promises' (symlinks followed), without the round trip.
      const real = realpathSync.native(lexical);
      return { real, stats: statOf(real) };
    } catch (error) {
      return { error: (error as NodeJS.ErrnoException).code ?? 'ENOENT' };
    }
  };

  // A file's text, read up to the cap; null (with the warning given) when it cannot be used.
  const readText = (file: string): { text: string; bytes: Buffer } | null => {
    let read: ReturnType<typeof readCapped>;
    try {
      read = readCapped(file);
    } catch (error) {
      warn(display(file), null, m.unreadable(reason(error)));
      return null;
    }
    if (read.truncated) warn(display(file), null, m.tooBig(read.size, MAX_FILE_BYTES));
    const decoded = decodeUtf8(read.bytes);
    if (!decoded.ok) {
      warn(display(file), decoded.line, m.notUtf8(decoded.byte));
      return null;
    }
    return { text: decoded.text, bytes: read.bytes };
  };

  let steps = 0;
  const turn = (): Promise<void> | null =>
    ++steps % TURN_EVERY === 0 ? new Promise<void>((done) => setImmediate(done)) : null;

  const visited = new Set<string>([rootIndex]);
  // Each concept file with what stat() said of it (its signature lets the cache skip reading it).
  const conceptFiles: Array<{ file: string; stats: Stats | null }> = [];
  const walk = async (index: string, ancestors: Set<string>): Promise<void> => {
    // stat() before the read: a change after it shows as a new signature.
    const indexStats = sources && statOf(index);
    if (sources) source(index, indexStats?.isFile() ? statSignature(indexStats) : undefined);
    const text = readText(index)?.text;
    if (text === undefined) return;
    let shownIndex: string | undefined;
    // The index's shown name, made only for a warning.
    const here = () => (shownIndex ??= display(index));
    for (const link of extractLinks(text)) {
      const turning = turn();
      if (turning) await turning;
      const target = linkPath(link.target);
      if (!target) continue;
      const lexical = target.absolute ? join(realRoot, target.path) : resolve(dirname(index), target.path);
      if (!inside(lexical)) {
        warn(here(), link.line, m.linkLeaves(link.target));
        continue;
      }
      const found = resolveLink(lexical);
      if ('error' in found) {
        const code = found.error;
        warn(
          here(),
          link.line,
          code === 'ELOOP'
            ? m.linkLoop(link.target)
            : code === 'ENOENT' || code === 'ENOTDIR'
              ? m.linkMissing(link.target)
              : m.linkUnreadable(link.target, reason({ code })),
        );
        continue;
      }
      const { real, stats } = found;
      // Through a symlink, what the link names is not known by the target's signature.
      if (real !== lexical) source(real, undefined);
      if (!inside(real)) {
        warn(here(), link.line, m.linkLeavesViaSymlink(link.target, real));
        continue;
      }
      let kind: 'index' | 'concept' | 'other';
      let file = real;
      if (stats?.isDirectory()) {
        file = join(real, 'index.md');
        if (!statOf(file)?.isFile()) {
          warn(here(), link.line, m.folderWithoutIndex(link.target));
          continue;
        }
        kind = 'index';
      } else {
        const name = basename(real).toLowerCase();
        kind = name === 'index.md' ? 'index' : name === 'log.md' || !name.endsWith('.md') ? 'other' : 'concept';
      }
      if (kind === 'other') {
        // Not read, but the same name as a folder or a concept later would be: known by its signature.
        if (sources) source(real, stats ? statSignature(stats) : undefined);
        continue;
      }
      if (visited.has(file)) {
        if (kind === 'index' && ancestors.has(file)) warn(here(), link.line, m.indexCycle(link.target));
        continue;
      }
      visited.add(file);
      if (kind === 'concept') conceptFiles.push({ file, stats });
      else await walk(file, new Set([...ancestors, file]));
    }
  };
  await walk(rootIndex, new Set([rootIndex]));

  const cache =
    options.cacheFile !== undefined && conceptFiles.length ? ConceptCache.open(options.cacheFile, realRoot) : null;
  if (cache) {
    const cacheFile = options.cacheFile!;
    bundle.overran = new Set(cache.overran());
    bundle.rememberOverrun = (key) => {
      rememberOverrun(cacheFile, realRoot, key);
      // The snapshot this load keeps (below) holds the overruns known before this review: it goes,
      // so the next load reads them from the cache (as a snapshot's own rememberOverrun does).
      if (snapshot) forgetSnapshot(snapshot);
    };
  }
  // Each file as the cache or its bytes left it: a result, or text for the parser. What reading
  // it said is kept with it, so diagnostics stay in file order when all are built at once.
  interface Pending {
    file: string;
    path: string;
    signature: string | undefined;
    hash: string;
    /** What reading it said (null: nothing, as for most files). */
    said: Diagnostic[] | null;
    result: ConceptResult | null;
    /** Index in `jobs`, or -1. */
    job: number;
  }
  const pending: Pending[] = [];
  const jobs: Array<{ file: string; text: string }> = [];
  const say = (entry: Pending, line: number | null, message: string) =>
    (entry.said ??= []).push({ level: 'warning', file: display(entry.file), line, message });
  for (const { file, stats } of conceptFiles) {
    const turning = turn();
    if (turning) await turning;
    const path = inBundle(file);
    const entry: Pending = {
      file,
      path,
      signature: stats?.isFile() ? statSignature(stats) : undefined,
      hash: '',
      said: null,
      result: null,
      job: -1,
    };
    pending.push(entry);
    entry.result = cache?.lookup(path, entry.signature) ?? null;
    if (entry.result) {
      if (stats!.size > MAX_FILE_BYTES) say(entry, null, m.tooBig(stats!.size, MAX_FILE_BYTES));
      continue;
    }
    let read: ReturnType<typeof readCapped>;
    try {
      read = readCapped(file);
    } catch (error) {
      say(entry, null, m.unreadable(reason(error)));
      continue;
    }
    // The signature is of what was read only if the size is still what stat() said.
    if (read.size !== stats?.size) entry.signature = undefined;
    if (read.truncated) say(entry, null, m.tooBig(read.size, MAX_FILE_BYTES));
    if (cache) ({ result: entry.result, hash: entry.hash } = cache.get(path, read.bytes, entry.signature));
    if (entry.result) continue;
    // Bytes in the cache were UTF-8 when they were stored: only a miss needs the check.
    const decoded = decodeUtf8(read.bytes);
    if (!decoded.ok) say(entry, decoded.line, m.notUtf8(decoded.byte));
    else entry.job = jobs.push({ file: path, text: decoded.text }) - 1;
  }
  // The concept parser is loaded only when some file is not in the cache.
  const built = jobs.length ? await (await import('./concept.js')).buildConcepts(jobs) : [];

  const byId = new Map<string, Concept>();
  for (const entry of pending) {
    const { file } = entry;
    source(file, entry.signature);
    if (entry.said) diagnostics.push(...entry.said);
    let result = entry.result;
    if (entry.job !== -1) {
      const out = built[entry.job]!;
      // Whatever a concept holds, it costs only itself: the rest of the bundle goes on.
      if ('error' in out) {
        warn(display(file), 1, m.conceptFailed(out.error instanceof Error ? out.error.message : String(out.error)));
        continue;
      }
      result = out.result;
      cache?.set(entry.path, entry.hash, result, entry.signature);
    }
    if (!result) continue;
    const { concept, problems, idLine } = result;
    for (const p of problems.slice(0, MAX_PROBLEMS_PER_FILE))
      diagnostics.push({ level: p.level, file: display(file), line: p.line, message: p.message });
    if (problems.length > MAX_PROBLEMS_PER_FILE)
      warn(display(file), null, m.tooManyProblems(problems.length - MAX_PROBLEMS_PER_FILE));
    if (!concept) continue;
    const other = byId.get(concept.id);
    if (other) {
      diagnostics.push({
        level: 'error',
        file: display(file),
        line: idLine,
        message: m.duplicateId(concept.id, display(join(realRoot, other.file))),
      });
      continue;
    }
    byId.set(concept.id, concept);
    bundle.concepts.push(concept);
  }
  cache?.save();
  if (sources) bundle.sources = [...(sources as Map<string, string>)];
  if (snapshot && cache) keepSnapshot(bundle, cache.overranAt(), snapshot);
  if (options.audit) {
    for (const file of unreachedFiles(realRoot, visited)) warn(display(file), null, m.unreached);
  }
  return bundle;
}

/** `file:line: message` for errors, `file:line: warning: message` for warnings (compiler style). */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file === null ? '' : d.line === null ? `${d.file}: ` : `${d.file}:${d.line}: `;
  return `${where}${d.level === 'warning' ? 'warning: ' : ''}${d.message}`;
}

function reason(error: unknown): string {
  if (error instanceof FileShapeError) return error.message;
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EISDIR') return 'it is a folder';
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ELOOP') return 'a symlink loop';
  return e.message ?? e.code ?? String(error);
}

/** stat() (symlinks followed), or null when there is nothing there. */
function statOf(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}
