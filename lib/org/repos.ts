/**
 * The repositories of an organisation run (docs/org.md "Repositories"): paths given on the
 * command line or one a line in a file, each a work tree's top level or a bare clone, each named
 * by its folder (`NAME=PATH` names it). A path that is not one is named and skipped, never a stop.
 */
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import { listRefs, remoteConfig, run, type ListedRef, type RemoteConfig, entryWhere } from '../core/git/commands.js';
import { teamRemoteOf } from '../gate/mainline.js';
import { replaceBaseOf } from '../mine/cache.js';
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

/** What one listing of the repository's refs says (docs/org.md "Bench"): asked once, read by the stamp, the mainline and the mining cache. */
export interface RepoRefs {
  /** HEAD's commit; null when HEAD is unborn. */
  head: string | null;
  /** Every ref under refs/heads/, refs/remotes/ and the replace refs' folder, in refname order. */
  listed: Map<string, ListedRef>;
  /** The team's remote (the current branch's upstream remote, else the only one, else origin). */
  teamRemote: string;
}

const SHA = /^[0-9a-f]{40,64}$/;

/**
 * Where an entry's repository is, or why it is not one (the reason names it), with its remote
 * and its refs: three git processes in all. One `rev-parse` says where it is and HEAD's commit
 * (located(), a pure function of its answer); then, side by side, one `config` for the remotes
 * and one `for-each-ref` for the refs (HEAD's branch and its upstream's remote among them).
 */
export async function locate(entry: RepoEntry): Promise<RepoSource & { refs: RepoRefs }> {
  const real = await realpath(entry.path).catch(() => null);
  if (real === null) throw new InputError(m.missing(entry.name, entry.path));
  // A bare repository has no top level: git prints the rest, then fails on --show-toplevel (128).
  // HEAD^{commit} before it: an unborn HEAD stops the answer there (128 too), and is asked again without it.
  const ask = (head: boolean) => run(entryWhere(head), { cwd: real }).catch(() => null);
  let where = located(await ask(true), true);
  if (where === 'again') where = located(await ask(false), false);
  if (where === null || where === 'again') throw new InputError(m.notARepository(entry.name, entry.path));
  const { top, common, bare, head } = where;
  // A folder inside some other repository is not that repository: its own history is what was asked.
  if (top !== real) throw new InputError(m.notTopLevel(entry.name, entry.path, top));
  const [remotes, listed] = await Promise.all([
    run(remoteConfig, { cwd: top }),
    run(listRefs(['refs/heads/', 'refs/remotes/', replaceBaseOf()]), { cwd: top }),
  ]);
  let upstream: string | null = null;
  for (const r of listed.values()) if (r.head) upstream = r.upstreamRemote;
  return {
    ...entry,
    top,
    commonDir: resolve(real, common),
    bare,
    remote: remoteUrlOf(remotes),
    refs: { head, listed, teamRemote: teamRemoteOf(upstream, remotes.names) },
  };
}

/**
 * The rev-parse answer of locate() read: where the repository is and HEAD's commit; null when
 * it is none; 'again' when an unborn HEAD stopped the answer before the top level (a work tree).
 */
export function located(
  answer: { stdout: string; status: number } | null,
  askedHead: boolean,
): { top: string; common: string; bare: boolean; head: string | null } | null | 'again' {
  if (!answer) return null;
  const lines = answer.stdout.split('\n');
  const [bare, gitDir, common] = lines;
  if (!gitDir || !common) return null;
  let rest = lines.slice(3);
  let head: string | null = null;
  if (askedHead) {
    if (!SHA.test(rest[0] ?? '')) {
      // rev-parse echoes what it could not resolve, then stops: HEAD is unborn.
      if (bare !== 'true') return 'again';
    } else head = rest[0]!;
    rest = rest.slice(1);
  }
  if (bare === 'true') return { top: gitDir, common, bare: true, head };
  const shown = rest[0];
  if (answer.status !== 0 || !shown) return null;
  return { top: shown, common, bare: false, head };
}

/**
 * The remote's URL as configured: origin's, else the only remote's, else none (a platform team's
 * list is of clones of one server, where origin is the usual name; docs/org.md "Schema").
 */
export function remoteUrlOf(remotes: RemoteConfig): string | null {
  const { urls } = remotes;
  return urls.get('origin') ?? (urls.size === 1 ? [...urls.values()][0]! : null);
}

/**
 * What the repository's history is now, from the listing: HEAD and every branch and
 * remote-tracking ref, as `git show-ref --head` prints them (the stamp's text since schema 1).
 * Equal text, equal history for the org files (the mainline is one of them).
 */
export function refsText(refs: RepoRefs): string {
  const lines = refs.head ? [`${refs.head} HEAD`] : [];
  for (const [name, r] of refs.listed)
    if (name.startsWith('refs/heads/') || name.startsWith('refs/remotes/')) lines.push(`${r.object} ${name}`);
  return lines.join('\n');
}

/** What loadHistory needs of the listing (lib/gate/history.ts `known`): no process of its own for the mainline, HEAD and the mining signature. */
export function knownRefs(refs: RepoRefs) {
  const replaced: Array<[string, string]> = [];
  const base = replaceBaseOf();
  for (const [name, r] of refs.listed) if (name.startsWith(base)) replaced.push([name, r.object]);
  return { head: refs.head, refs: refs.listed, remote: refs.teamRemote, replaced };
}
