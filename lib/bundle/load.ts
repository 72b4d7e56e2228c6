/**
 * Loads a knowledge bundle (SPEC §3) by progressive disclosure: from `<bundle>/index.md`,
 * follow the index links; linked `.md` files are concepts, linked folders and `index.md` files
 * are indexes to descend into. Never throws for content problems: they become diagnostics.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Bundle, Concept, Diagnostic } from './types.js';
import { extractLinks, linkPath } from './links.js';
import { buildConcept } from './concept.js';
import { bundleMessages as m } from '../messages/bundle.js';

export interface LoadOptions {
  /** Folder that diagnostic file names are relative to (default: the process's cwd). */
  base?: string;
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
    realRoot = await realpath(absRoot);
    if (!(await stat(realRoot)).isDirectory()) {
      warn(show(absRoot), null, m.notAFolder(show(absRoot)));
      return bundle;
    }
  } catch {
    warn(show(absRoot), null, m.noBundle(show(absRoot)));
    return bundle;
  }
  const rootIndex = join(realRoot, 'index.md');
  if (!(await isFile(rootIndex))) {
    warn(show(absRoot), null, m.noRootIndex(show(absRoot)));
    return bundle;
  }
  // Shown paths keep the bundle path the user gave, even when the bundle itself is a symlink.
  const display = (real: string) => show(join(absRoot, relative(realRoot, real)));
  const inside = (p: string) => p === realRoot || p.startsWith(realRoot + sep);

  const visited = new Set<string>([rootIndex]);
  const conceptFiles: string[] = [];
  const walk = async (index: string, ancestors: Set<string>): Promise<void> => {
    let text: string;
    try {
      text = await readFile(index, 'utf8');
    } catch (error) {
      warn(display(index), null, m.unreadable(reason(error)));
      return;
    }
    for (const link of extractLinks(text)) {
      const target = linkPath(link.target);
      if (!target) continue;
      const here = display(index);
      const lexical = target.absolute ? join(realRoot, target.path) : resolve(dirname(index), target.path);
      if (!inside(lexical)) {
        warn(here, link.line, m.linkLeaves(link.target));
        continue;
      }
      let real: string;
      try {
        real = await realpath(lexical);
      } catch {
        warn(here, link.line, m.linkMissing(link.target));
        continue;
      }
      if (!inside(real)) {
        warn(here, link.line, m.linkLeavesViaSymlink(link.target, real));
        continue;
      }
      let kind: 'index' | 'concept' | 'other';
      let file = real;
      if (await isDirectory(real)) {
        file = join(real, 'index.md');
        if (!(await isFile(file))) {
          warn(here, link.line, m.folderWithoutIndex(link.target));
          continue;
        }
        kind = 'index';
      } else {
        const name = basename(real).toLowerCase();
        kind = name === 'index.md' ? 'index' : name === 'log.md' || !name.endsWith('.md') ? 'other' : 'concept';
      }
      if (kind === 'other') continue;
      if (visited.has(file)) {
        if (kind === 'index' && ancestors.has(file)) warn(here, link.line, m.indexCycle(link.target));
        continue;
      }
      visited.add(file);
      if (kind === 'concept') conceptFiles.push(file);
      else await walk(file, new Set([...ancestors, file]));
    }
  };
  await walk(rootIndex, new Set([rootIndex]));

  // Concept files are independent of one another: read them all at once.
  const results = await Promise.all(
    conceptFiles.map(async (file) => {
      try {
        return { file, text: await readFile(file, 'utf8') };
      } catch (error) {
        return { file, error: reason(error) };
      }
    }),
  );
  const byId = new Map<string, Concept>();
  for (const result of results) {
    const shown = display(result.file);
    if ('error' in result) {
      warn(shown, null, m.unreadable(result.error!));
      continue;
    }
    const { concept, problems, idLine } = buildConcept(toPosix(relative(realRoot, result.file)), result.text);
    for (const p of problems) diagnostics.push({ level: p.level, file: shown, line: p.line, message: p.message });
    if (!concept) continue;
    const other = byId.get(concept.id);
    if (other) {
      diagnostics.push({ level: 'error', file: shown, line: idLine, message: m.duplicateId(concept.id, display(join(realRoot, other.file))) });
      continue;
    }
    byId.set(concept.id, concept);
    bundle.concepts.push(concept);
  }
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

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

