/**
 * The repositories of an organisation run (docs/org.md "Repositories"): paths given on the
 * command line or one a line in a file, each a work tree's top level or a bare clone, each named
 * by its folder (`NAME=PATH` names it). A path that is not one is named and skipped, never a stop.
 */
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import { git } from '../core/git/run.js';
import { orgMessages as m } from '../messages/org.js';

/** One line of the list: the name it gets and the path as given (absolute). */
export interface RepoEntry {
  name: string;
  path: string;
}

/** A repository found where its entry says. */
export interface RepoSource extends RepoEntry {
  /** Where git runs: the work tree's top level, or the bare repository itself. */
  top: string;
  commonDir: string;
  bare: boolean;
  /** The team remote's URL as configured (`remote.<name>.url`), or null. */
  remote: string | null;
}

// A partition folder is `repo=<name>`: a name is one path segment any engine reads back as itself.
const NAME = /^[A-Za-z0-9._-]+$/;

/** A name from a folder: its base name without `.git` (`billing.git` and `billing/` are both `billing`). */
export function nameOf(path: string): string {
  const base = basename(path) === '.git' ? basename(dirname(path)) : basename(path);
  const name = base.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return name || '_';
}

/**
 * The entries of the command line and of `--from` files (relative paths in a file are relative
 * to the file's folder; blank lines and `#` comments are skipped). Two repositories with the
 * same name are a usage error that names both: their files would overwrite each other.
 */
export async function readEntries(
  cwd: string,
  paths: readonly string[],
  fromFiles: readonly string[],
): Promise<RepoEntry[]> {
  const raw: Array<{ text: string; base: string }> = paths.map((text) => ({ text, base: cwd }));
  for (const from of fromFiles) {
    const file = resolve(cwd, from);
    const text = await readFile(file, 'utf8').catch((e: Error) => {
      throw new InputError(m.fromUnreadable(from, e.message), { remedy: m.fromRemedy });
    });
    for (const line of text.split(/\r?\n/)) {
      const t = line.trim();
      if (t && !t.startsWith('#')) raw.push({ text: t, base: dirname(file) });
    }
  }
  const entries: RepoEntry[] = [];
  const byName = new Map<string, string>();
  for (const { text, base } of raw) {
    const eq = text.indexOf('=');
    const named = eq > 0 && NAME.test(text.slice(0, eq));
    const given = named ? text.slice(eq + 1) : text;
    const path = isAbsolute(given) ? resolve(given) : resolve(base, given);
    const name = named ? text.slice(0, eq) : nameOf(path);
    const before = byName.get(name);
    if (before !== undefined) {
      if (before === path) continue;
      throw new UsageError(m.sameName(name, before, path), { remedy: m.sameNameRemedy });
    }
    byName.set(name, path);
    entries.push({ name, path });
  }
  return entries;
}

/** Where an entry's repository is, or why it is not one (the reason names it). One `git rev-parse` and one `git config`. */
export async function locate(entry: RepoEntry): Promise<RepoSource> {
  const real = await realpath(entry.path).catch(() => null);
  if (real === null) throw new InputError(m.missing(entry.name, entry.path));
  // A bare repository has no top level: git prints the rest, then fails on --show-toplevel (128).
  const answer = await git(
    ['rev-parse', '--is-bare-repository', '--absolute-git-dir', '--git-common-dir', '--show-toplevel'],
    {
      cwd: real,
      okCodes: [128],
    },
  ).catch(() => null);
  const [bare, gitDir, common, shown] = answer?.stdout.split('\n') ?? [];
  if (!gitDir || !common || (bare !== 'true' && (answer?.status !== 0 || !shown)))
    throw new InputError(m.notARepository(entry.name, entry.path));
  const top = bare === 'true' ? gitDir : shown!;
  // A folder inside some other repository is not that repository: its own history is what was asked.
  if (top !== real) throw new InputError(m.notTopLevel(entry.name, entry.path, top));
  return { ...entry, top, commonDir: resolve(real, common), bare: bare === 'true', remote: await remoteUrl(top) };
}

/**
 * The remote's URL as configured: origin's, else the only remote's, else none (a platform team's
 * list is of clones of one server, where origin is the usual name; docs/org.md "Schema").
 */
export async function remoteUrl(top: string): Promise<string | null> {
  const out = await git(['config', '--get-regexp', '^remote\\..*\\.url$'], { cwd: top, okCodes: [1] }).catch(
    () => null,
  );
  const urls = new Map<string, string>();
  for (const line of out?.stdout.split('\n') ?? []) {
    const at = line.indexOf(' ');
    if (at > 0) urls.set(line.slice('remote.'.length, at - '.url'.length), line.slice(at + 1));
  }
  return urls.get('origin') ?? (urls.size === 1 ? [...urls.values()][0]! : null);
}

/**
 * What the repository's history is now, in one `git show-ref --head`: HEAD and every branch and
 * remote-tracking ref. Equal text, equal history for the org files (the mainline is one of them).
 */
export async function refsNow(top: string): Promise<string> {
  const out = await git(['show-ref', '--head'], { cwd: top, okCodes: [1] });
  return out.stdout
    .split('\n')
    .filter((l) => / (HEAD|refs\/heads\/.*|refs\/remotes\/.*)$/.test(l))
    .join('\n');
}
