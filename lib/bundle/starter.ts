/**
 * The starter set `revtrail init` writes from templates/init/: revtrail.config.json and a
 * bundle with a root index and one example ADR. Never overwrites: a file is created only when
 * nothing is there (O_EXCL), and a bundle that already has an index.md gets no starter concepts
 * (they would not be linked from it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../core/errors.js';
import { initMessages as m } from '../messages/init.js';

export interface StarterResult {
  /** Paths relative to the top level, POSIX. */
  written: string[];
  skipped: Array<{ path: string; reason: 'exists' | 'config-in-package-json' | 'bundle-has-index' }>;
}

/** templates/init, found upward from this module (it runs from dist/lib/... or the dist/cli bundle). */
export function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'templates', 'init');
    if (existsSync(join(candidate, 'revtrail.config.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new InputError(m.noTemplates('templates/init'), { remedy: m.noTemplatesRemedy });
    dir = parent;
  }
}

export async function writeStarter(
  top: string,
  options: { knowledge: string; configInPackageJson: boolean; templates?: string },
): Promise<StarterResult> {
  const templates = options.templates ?? templatesDir();
  const result: StarterResult = { written: [], skipped: [] };
  const show = (abs: string) => relative(top, abs).split(sep).join('/');

  if (options.configInPackageJson) result.skipped.push({ path: 'package.json#revtrail', reason: 'config-in-package-json' });
  else await create(join(templates, 'revtrail.config.json'), join(top, 'revtrail.config.json'), show, result);

  const bundle = resolve(top, options.knowledge);
  if (existsSync(join(bundle, 'index.md'))) {
    result.skipped.push({ path: show(bundle), reason: 'bundle-has-index' });
    return result;
  }
  const source = join(templates, 'bundle');
  // The index last: a bundle that has an index.md is a finished bundle to a later init.
  const files = (await listFiles(source)).sort((a, b) => Number(a === 'index.md') - Number(b === 'index.md') || a.localeCompare(b));
  for (const file of files) await create(join(source, file), join(bundle, file), show, result);
  return result;
}

async function create(from: string, to: string, show: (abs: string) => string, result: StarterResult): Promise<void> {
  const content = await readFile(from);
  try {
    await mkdir(dirname(to), { recursive: true });
    await writeFile(to, content, { flag: 'wx' });
    result.written.push(show(to));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') result.skipped.push({ path: show(to), reason: 'exists' });
    else throw new InputError(m.cannotWrite(show(to), (error as Error).message), { remedy: m.cannotWriteRemedy });
  }
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out;
}
