/**
 * Writes candidate files to `<out>/<slug>.md` (default `.revtrail/candidates/`), never into
 * the knowledge bundle: a candidate becomes knowledge only when a human moves it there.
 */
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { basename, dirname, join, resolve } from 'node:path';
import { contains } from '../core/fs/path.js';
import { UsageError, InputError } from '../core/errors.js';
import { candidatesMessages as m } from '../messages/candidates.js';

/** realpath of the deepest existing ancestor, with the rest appended (symlinks cannot smuggle a path in). */
async function realish(path: string): Promise<string> {
  let existing = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(path);
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/** contains() of the real paths: a link to the bundle is in it. */
async function realContains(folder: string, path: string): Promise<boolean> {
  return contains(await realish(folder), await realish(path));
}

/** Refuses an output folder inside the bundle (exit 2). */
export async function checkOutDir(out: string, bundleRoot: string): Promise<void> {
  if (await realContains(bundleRoot, out))
    throw new UsageError(m.outInBundle(out, bundleRoot), { remedy: m.outInBundleRemedy });
}

export interface Written {
  file: string;
  changed: boolean;
}

/** Writes each file atomically; a file whose content is already right is left alone. */
export async function writeCandidateFiles(
  out: string,
  files: ReadonlyArray<{ name: string; text: string }>,
): Promise<Written[]> {
  try {
    await mkdir(out, { recursive: true });
  } catch (error) {
    throw new InputError(m.outUnwritable(out, (error as Error).message), { remedy: m.outUnwritableRemedy });
  }
  const written: Written[] = [];
  for (const { name, text } of files) {
    const file = join(out, name);
    const before = await readFile(file, 'utf8').catch(() => null);
    if (before === text) {
      written.push({ file, changed: false });
      continue;
    }
    try {
      await writeFileAtomic(file, text);
    } catch (error) {
      throw new InputError(m.outUnwritable(out, (error as Error).message), { remedy: m.outUnwritableRemedy });
    }
    written.push({ file, changed: true });
  }
  return written;
}
