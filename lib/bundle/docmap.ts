/**
 * The doc map (docs/bundle.md "Doc map"): a YAML file `{mappings: [{paths: [globs], docs: [files
 * or folders]}]}` that maps plain design documents to code. Each document becomes a concept
 * governed by the globs of every mapping that names it. Like the bundle, it never throws for
 * content: every bad part is one diagnostic naming it, and the rest is used. Loaded only when
 * `docMap` is configured.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { contains, toPosix } from '../core/fs/path.js';
import type { Bundle, Concept } from './types.js';
import { ConceptCache, rememberOverrun } from './cache.js';
import type { ConceptResult } from './concept.js';
import { checkGlob } from './globs.js';
import { parseWithLibrary } from './frontmatter.js';
import { decodeUtf8, MAX_FILE_BYTES, readCapped } from './read.js';
import { readFailure } from '../core/fs/read.js';
import { bundleMessages as m } from '../messages/bundle.js';

/** The most documents one doc map brings in (a folder such as `.` expands to a lot). */
export const MAX_MAPPED_DOCS = 10_000;
/** At most this many problems of one document are listed (as for a bundle concept). */
const MAX_PROBLEMS = 20;

export interface DocMapOptions {
  /** Absolute path of the doc map file. */
  file: string;
  /** Absolute path of the work tree's top: documents and globs are relative to it. */
  top: string;
}

interface Mapped {
  /** Repo-relative path (POSIX), as the doc map names it. */
  rel: string;
  real: string;
  globs: Set<string>;
}

type Warn = (file: string | null, line: number | null, message: string) => void;

/**
 * Reads the doc map and adds its documents to `bundle` (after the bundle's own concepts).
 * `show` names a file for a diagnostic; `cacheFile` is the bundle cache's file, if any.
 */
export async function addDocMap(
  bundle: Bundle,
  options: DocMapOptions,
  show: (abs: string) => string,
  cacheFile?: string,
): Promise<void> {
  const info = { file: options.file, top: options.top, unusable: true };
  bundle.docMap = info;
  const warn: Warn = (file, line, message) => bundle.diagnostics.push({ level: 'warning', file, line, message });
  const mapName = show(options.file);
  let realTop: string;
  let realMap: string;
  try {
    realTop = realpathSync.native(options.top);
    realMap = realpathSync.native(options.file);
  } catch {
    warn(mapName, null, m.docMapMissing(mapName));
    return;
  }
  const inside = (real: string) => contains(realTop, real);
  if (!inside(realMap)) {
    warn(mapName, null, m.docMapLeaves(mapName));
    return;
  }
  const parsed = await readDocMap(realMap);
  if (!parsed.ok) {
    warn(mapName, parsed.line, m.docMapInvalid(parsed.why));
    return;
  }
  info.unusable = false;
  const { data, lineAt } = parsed;
  const docs = collect(data, lineAt, options.top, inside, (line, message) => warn(mapName, line, message));
  if (!docs.length) return;

  const cache = cacheFile !== undefined ? ConceptCache.open(cacheFile, realMap) : null;
  if (cache && cacheFile !== undefined && !bundle.overran) {
    bundle.overran = new Set(cache.overran());
    bundle.rememberOverrun = (key) => rememberOverrun(cacheFile, realMap, key);
  }
  const owner = new Map<string, string>();
  for (const c of bundle.concepts) owner.set(c.id, c.mapped ? c.file : show(join(bundle.root, c.file)));
  let build: typeof import('./mapped.js').buildMappedConcept | undefined;
  for (const doc of docs) {
    const shown = show(join(options.top, doc.rel));
    let read: ReturnType<typeof readCapped>;
    try {
      read = readCapped(doc.real);
    } catch (error) {
      warn(shown, null, m.unreadable(readFailure(error)));
      continue;
    }
    if (read.truncated) warn(shown, null, m.tooBig(read.size, MAX_FILE_BYTES));
    let result: ConceptResult | null = null;
    let hash = '';
    if (cache) ({ result, hash } = cache.get(doc.rel, read.bytes));
    if (!result) {
      const decoded = decodeUtf8(read.bytes);
      if (!decoded.ok) {
        warn(shown, decoded.line, m.notUtf8(decoded.byte));
        continue;
      }
      build ??= (await import('./mapped.js')).buildMappedConcept;
      try {
        result = await build(doc.rel, decoded.text);
      } catch (error) {
        warn(shown, 1, m.conceptFailed(error instanceof Error ? error.message : String(error)));
        continue;
      }
      cache?.set(doc.rel, hash, result);
    }
    for (const p of result.problems.slice(0, MAX_PROBLEMS))
      bundle.diagnostics.push({ level: p.level, file: shown, line: p.line, message: p.message });
    const concept: Concept | null = result.concept && { ...result.concept, paths: [...doc.globs] };
    if (!concept) continue;
    const other = owner.get(concept.id);
    if (other !== undefined) {
      bundle.diagnostics.push({
        level: 'error',
        file: shown,
        line: result.idLine,
        message: m.docMapIdClash(concept.id, other),
      });
      continue;
    }
    owner.set(concept.id, doc.rel);
    bundle.concepts.push(concept);
  }
  cache?.save();
}

type Parsed =
  | { ok: true; data: Record<string, unknown>; lineAt(path: ReadonlyArray<string | number>): number }
  | { ok: false; line: number | null; why: string };

/** The doc map's YAML, through the bundle's bounded parsers (its lines are the file's). */
async function readDocMap(file: string): Promise<Parsed> {
  let text: string;
  try {
    const read = readCapped(file);
    if (read.truncated) return { ok: false, line: null, why: m.docMapTooBig(read.size, MAX_FILE_BYTES) };
    const decoded = decodeUtf8(read.bytes);
    if (!decoded.ok) return { ok: false, line: decoded.line, why: m.notUtf8(decoded.byte) };
    text = decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
  } catch (error) {
    return { ok: false, line: null, why: m.unreadable(readFailure(error)) };
  }
  const source = text.replace(/\r\n/g, '\n');
  if (source.trim() === '') return { ok: true, data: {}, lineAt: () => 1 };
  // Both parsers count the first YAML line as line 2 (a frontmatter's, after its ---).
  const parsed = await parseWithLibrary(source);
  if (!parsed.ok)
    return {
      ok: false,
      line: parsed.line - 1,
      why: parsed.message.replace(/^frontmatter /, 'the doc map ').replace(/; skipped$/, ''),
    };
  return { ok: true, data: parsed.data, lineAt: (path) => Math.max(1, parsed.lineAt(path) - 1) };
}

/** The mapped documents in doc map order (folders expanded in name order), each once, with its globs. */
function collect(
  data: Record<string, unknown>,
  lineAt: (path: ReadonlyArray<string | number>) => number,
  top: string,
  inside: (real: string) => boolean,
  warn: (line: number | null, message: string) => void,
): Mapped[] {
  for (const key of Object.keys(data))
    if (key !== 'mappings') warn(lineAt([key]), m.docMapUnknownKey(key, 'the doc map'));
  const mappings = data.mappings;
  if (!Array.isArray(mappings)) {
    warn('mappings' in data ? lineAt(['mappings']) : 1, m.docMapNoMappings);
    return [];
  }
  const byReal = new Map<string, Mapped>();
  let full = false;
  const add = (rel: string, real: string, globs: string[]) => {
    let doc = byReal.get(real);
    if (!doc) {
      if (byReal.size >= MAX_MAPPED_DOCS) {
        if (!full) warn(null, m.docMapTooMany(MAX_MAPPED_DOCS));
        full = true;
        return;
      }
      byReal.set(real, (doc = { rel, real, globs: new Set() }));
    }
    for (const g of globs) doc.globs.add(g);
  };
  mappings.forEach((raw, i) => {
    const n = i + 1;
    const at = (...path: Array<string | number>) => lineAt(['mappings', i, ...path]);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      warn(at(), m.docMapNotMapping(n));
      return;
    }
    const entry = raw as Record<string, unknown>;
    for (const key of Object.keys(entry))
      if (key !== 'paths' && key !== 'docs') warn(at(key), m.docMapUnknownKey(key, `mapping #${n}`));
    const texts = (key: 'paths' | 'docs'): Array<{ value: string; line: number }> => {
      const value = entry[key];
      if (value === undefined || value === null) return [];
      const list = Array.isArray(value) ? value : [value];
      const out: Array<{ value: string; line: number }> = [];
      list.forEach((item, j) => {
        const line = Array.isArray(value) ? at(key, j) : at(key);
        if (typeof item === 'string' && item.trim() !== '') out.push({ value: item.trim(), line });
        else warn(line, m.docMapNotText(n, key));
      });
      return out;
    };
    const globs: string[] = [];
    for (const { value, line } of texts('paths')) {
      const checked = checkGlob(value);
      if (!checked.ok) warn(line, `mapping #${n}: \`paths\`: ${checked.error}`);
      else {
        if (checked.warning) warn(line, `mapping #${n}: \`paths\`: ${checked.warning}`);
        globs.push(checked.glob);
      }
    }
    const docs = texts('docs');
    if (!globs.length) {
      warn(at(), m.docMapNoPaths(n));
      return;
    }
    if (!docs.length) {
      warn(at(), m.docMapNoDocs(n));
      return;
    }
    for (const { value, line } of docs) {
      const lexical = resolve(top, value);
      const rel = toPosix(relative(top, lexical));
      if (!contains(resolve(top), lexical)) {
        warn(line, m.docMapDocLeaves(value));
        continue;
      }
      let real: string;
      try {
        real = realpathSync.native(lexical);
      } catch {
        warn(line, m.docMapDocMissing(value));
        continue;
      }
      if (!inside(real)) {
        warn(line, m.docMapDocLeavesViaSymlink(value, real));
        continue;
      }
      if (!statSync(real).isDirectory()) {
        add(rel, real, globs);
        continue;
      }
      const found: Array<{ rel: string; real: string }> = [];
      expandFolder(real, rel === '' ? '' : rel, inside, new Set([real]), found, (child, to) =>
        warn(line, m.docMapDocLeavesViaSymlink(child, to)),
      );
      if (!found.length) warn(line, m.docMapEmptyFolder(value));
      for (const f of found) add(f.rel, f.real, globs);
    }
  });
  return [...byReal.values()];
}

/** Every `.md` file under `dir` (real path), recursively, in name order; symlinks that leave the work tree are refused. */
function expandFolder(
  dir: string,
  rel: string,
  inside: (real: string) => boolean,
  seen: Set<string>,
  out: Array<{ rel: string; real: string }>,
  refused: (rel: string, real: string) => void,
): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name === '.git') continue;
    const childRel = rel ? `${rel}/${e.name}` : e.name;
    let real = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      try {
        real = realpathSync.native(real);
        const s = statSync(real);
        isDir = s.isDirectory();
        isFile = s.isFile();
      } catch {
        continue; // a dangling link names no document
      }
      if (!inside(real)) {
        if (isDir || e.name.toLowerCase().endsWith('.md')) refused(childRel, real);
        continue;
      }
    }
    if (isDir) {
      if (seen.has(real)) continue;
      seen.add(real);
      expandFolder(real, childRel, inside, seen, out, refused);
    } else if (isFile && e.name.toLowerCase().endsWith('.md')) out.push({ rel: childRel, real });
  }
}
