/**
 * The starter set `revtrail init` writes from templates/init/: revtrail.config.json and a
 * bundle with a root index and one example ADR; with `--doc-map`, the config (naming the doc
 * map) and a starter doc map instead of the bundle (docs/bundle.md "Doc map"). Never overwrites: a file is created only when
 * nothing is there (O_EXCL), and a bundle that already has an index.md gets no starter concepts
 * (they would not be linked from it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { toPosix } from '../core/fs/path.js';
import { fileURLToPath } from 'node:url';
import { InputError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { initMessages as m } from '../messages/init.js';

export interface StarterResult {
  /** Paths relative to the top level, POSIX. */
  written: string[];
  skipped: Array<{ path: string; reason: 'exists' | 'config-in-package-json' | 'bundle-has-index' }>;
  /** With a doc map: the doc map file (repo-relative), and whether the configuration names it. */
  docMap?: { path: string; configured: boolean };
  /** `.revtrail/` (candidate drafts, local state) was added to .gitignore. */
  ignored?: boolean;
}

/** What init keeps out of git: candidate drafts are a person's, and a review would review them. */
export const LOCAL_FOLDER = '.revtrail/';

/** Adds `.revtrail/` to the top-level .gitignore unless a line there ignores it already. */
export async function ignoreLocalFolder(top: string): Promise<boolean> {
  const file = join(top, '.gitignore');
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new InputError(m.cannotWrite('.gitignore', (error as Error).message), { remedy: m.cannotWriteRemedy });
  }
  if (text.split(/\r?\n/).some((line) => /^\/?\.revtrail(\/(\*\*?)?)?\s*$/.test(line))) return false;
  const joined = `${text}${text && !text.endsWith('\n') ? '\n' : ''}${LOCAL_FOLDER}\n`;
  try {
    await writeFileAtomic(file, joined);
  } catch (error) {
    throw new InputError(m.cannotWrite('.gitignore', (error as Error).message), { remedy: m.cannotWriteRemedy });
  }
  return true;
}

/** Where `init --doc-map` puts the doc map when the configuration names none. */
export const STARTER_DOC_MAP = 'doc-map.yaml';

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
  options: {
    knowledge: string;
    configInPackageJson: boolean;
    templates?: string;
    docMap?: { configured: string | undefined };
  },
): Promise<StarterResult> {
  const templates = options.templates ?? templatesDir();
  const result: StarterResult = { written: [], skipped: [] };
  const show = (abs: string) => toPosix(relative(top, abs));

  let config = await readFile(join(templates, 'revtrail.config.json'));
  const docMap = options.docMap ? (options.docMap.configured ?? STARTER_DOC_MAP) : null;
  if (docMap !== null && options.docMap!.configured === undefined) {
    config = Buffer.from(`${JSON.stringify({ ...JSON.parse(config.toString('utf8')), docMap }, null, 2)}\n`);
  }
  if (options.configInPackageJson)
    result.skipped.push({ path: 'package.json#revtrail', reason: 'config-in-package-json' });
  else await create(config, join(top, 'revtrail.config.json'), show, result);
  result.ignored = await ignoreLocalFolder(top);

  // A team coming from a doc map has its documents already: the doc map instead of a starter bundle.
  if (docMap !== null) {
    await create(await readFile(join(templates, 'doc-map.yaml')), resolve(top, docMap), show, result);
    const configured = options.docMap!.configured !== undefined || result.written.includes('revtrail.config.json');
    result.docMap = { path: show(resolve(top, docMap)), configured };
    return result;
  }

  const bundle = resolve(top, options.knowledge);
  if (existsSync(join(bundle, 'index.md'))) {
    result.skipped.push({ path: show(bundle), reason: 'bundle-has-index' });
    return result;
  }
  const source = join(templates, 'bundle');
  // The index last: a bundle that has an index.md is a finished bundle to a later init.
  const files = (await listFiles(source)).sort(
    (a, b) => Number(a === 'index.md') - Number(b === 'index.md') || a.localeCompare(b),
  );
  for (const file of files) await create(await readFile(join(source, file)), join(bundle, file), show, result);
  return result;
}

async function create(
  content: Buffer,
  to: string,
  show: (abs: string) => string,
  result: StarterResult,
): Promise<void> {
  try {
    await mkdir(dirname(to), { recursive: true });
    await writeFileAtomic(to, content, { exclusive: true });
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
