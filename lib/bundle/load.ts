/**
 * Loads a knowledge bundle (SPEC §3) by progressive disclosure: from `<bundle>/index.md`,
 * follow the index links; linked `.md` files are concepts, linked folders and `index.md` files
 * are indexes to descend into. Never throws for content problems: they become diagnostics.
 *
 * File access is synchronous on purpose: a bundle is many small local files, and one
 * syscall each beats a promise and a thread-pool round trip each by far (hooks load it on
 * every commit). Parsed concepts can be kept in a ConceptCache between runs.
 */
import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Bundle, Concept, Diagnostic } from './types.js';
import { extractLinks, linkPath } from './links.js';
import type { ConceptResult } from './concept.js';
import { ConceptCache } from './cache.js';
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
}

export async function loadBundle(root: string, options: LoadOptions = {}): Promise<Bundle> {
  const absRoot = resolve(root);
  const base = options.base ?? process.cwd();
  const show = (abs: string) => toPosix(relative(base, abs)) || '.';
  const diagnostics: Diagnostic[] = [];
  const bundle: Bundle = { root: absRoot, concepts: [], diagnostics };
  const warn = (file: string | null, line: number | null, message: string) => diagnostics.push({ level: 'warning', file, line, message });

  let realRoot: string;
  try {
    realRoot = realpathSync.native(absRoot);
    if (!statSync(realRoot).isDirectory()) {
      warn(show(absRoot), null, m.notAFolder(show(absRoot)));
      return bundle;
    }
  } catch {
    warn(show(absRoot), null, m.noBundle(show(absRoot)));
    return bundle;
  }
  const rootIndex = join(realRoot, 'index.md');
  if (!statOf(rootIndex)?.isFile()) {
    warn(show(absRoot), null, m.noRootIndex(show(absRoot)));
    return bundle;
  }
  // Shown paths keep the bundle path the user gave, even when the bundle itself is a symlink.
  const display = (real: string) => show(join(absRoot, relative(realRoot, real)));
  const inside = (p: string) => p === realRoot || p.startsWith(realRoot + sep);
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
  const resolveLink = (lexical: string): { real: string; stats: Stats | null } | null => {
    if (LINUX && folderIsReal(dirname(lexical))) {
      let stats: Stats;
      try {
        stats = lstatSync(lexical);
      } catch {
        return null;
      }
      if (!stats.isSymbolicLink()) return { real: lexical, stats };
    }
    try {
      // The same libuv realpath as fs/promises' (symlinks followed), without the round trip.
      const real = realpathSync.native(lexical);
      return { real, stats: statOf(real) };
    } catch {
      return null;
    }
  };

  const visited = new Set<string>([rootIndex]);
  const conceptFiles: string[] = [];
  const walk = (index: string, ancestors: Set<string>): void => {
    let text: string;
    try {
      text = readFileSync(index, 'utf8');
    } catch (error) {
      warn(display(index), null, m.unreadable(reason(error)));
      return;
    }
    let shownIndex: string | undefined;
    // The index's shown name, made only for a warning.
    const here = () => (shownIndex ??= display(index));
    for (const link of extractLinks(text)) {
      const target = linkPath(link.target);
      if (!target) continue;
      const lexical = target.absolute ? join(realRoot, target.path) : resolve(dirname(index), target.path);
      if (!inside(lexical)) {
        warn(here(), link.line, m.linkLeaves(link.target));
        continue;
      }
      const resolved = resolveLink(lexical);
      if (!resolved) {
        warn(here(), link.line, m.linkMissing(link.target));
        continue;
      }
      const { real, stats } = resolved;
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
      if (kind === 'other') continue;
      if (visited.has(file)) {
        if (kind === 'index' && ancestors.has(file)) warn(here(), link.line, m.indexCycle(link.target));
        continue;
      }
      visited.add(file);
      if (kind === 'concept') conceptFiles.push(file);
      else walk(file, new Set([...ancestors, file]));
    }
  };
  walk(rootIndex, new Set([rootIndex]));

  const cache = options.cacheFile !== undefined && conceptFiles.length ? ConceptCache.open(options.cacheFile, realRoot) : null;
  // The concept parser is loaded only when some file is not in the cache.
  let build: typeof import('./concept.js').buildConcept | undefined;
  const byId = new Map<string, Concept>();
  for (const file of conceptFiles) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      warn(display(file), null, m.unreadable(reason(error)));
      continue;
    }
    const path = inBundle(file);
    let result: ConceptResult | null = null;
    let hash = '';
    if (cache) ({ result, hash } = cache.get(path, text));
    if (!result) {
      build ??= (await import('./concept.js')).buildConcept;
      result = await build(path, text);
      cache?.set(path, hash, result);
    }
    const { concept, problems, idLine } = result;
    for (const p of problems) diagnostics.push({ level: p.level, file: display(file), line: p.line, message: p.message });
    if (!concept) continue;
    const other = byId.get(concept.id);
    if (other) {
      diagnostics.push({ level: 'error', file: display(file), line: idLine, message: m.duplicateId(concept.id, display(join(realRoot, other.file))) });
      continue;
    }
    byId.set(concept.id, concept);
    bundle.concepts.push(concept);
  }
  cache?.save();
  return bundle;
}

/** `file:line: message` for errors, `file:line: warning: message` for warnings (compiler style). */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file === null ? '' : d.line === null ? `${d.file}: ` : `${d.file}:${d.line}: `;
  return `${where}${d.level === 'warning' ? 'warning: ' : ''}${d.message}`;
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EISDIR') return 'it is a folder';
  if (e.code === 'EACCES') return 'permission denied';
  return e.message ?? String(error);
}

/** stat() (symlinks followed), or null when there is nothing there. */
function statOf(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}
