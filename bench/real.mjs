// Real projects for the bench rows measured on real history (issue 41): a repository's public
// history as `fetch` (or `git clone --mirror`) brought it onto the machine. Offline: the bench
// never clones over the network; a row whose project is not here says so and is skipped.
//
//   REVTRAIL_BENCH_MIRRORS=DIR   where `owner+name/repo` (or `owner+name.git`) folders are;
//                                default: the folder beside the project (../.mirror)
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedFolder, git, root, tmp } from './lib.mjs';

const mirrors = process.env.REVTRAIL_BENCH_MIRRORS || join(root, '..', '.mirror');

/** The bare repository holding `slug`'s history (e.g. "git/git"), or null when it is not here. */
export function mirrorOf(slug) {
  const base = join(mirrors, slug.replace('/', '+'));
  for (const dir of [join(base, 'repo'), `${base}.git`, base]) {
    try {
      if (existsSync(dir) && git(dir, ['rev-parse', '--is-bare-repository']).trim() === 'true') return dir;
    } catch {
      // not a repository
    }
  }
  return null;
}

/** Why a row measured on `slug` is skipped: the line the table's note prints. */
export const missing = (slug) =>
  `${slug} is not on this machine: fetch it (or git clone --mirror) into ${mirrors}/${slug.replace('/', '+')}/repo, or set REVTRAIL_BENCH_MIRRORS`;

/**
 * A repository whose objects are the mirror's (alternates: nothing copied) with `branch` at `rev`,
 * checked out when `checkout`; `bare` gives a remote. Made in a fresh temporary folder.
 */
export function borrow(mirror, rev, { bare = false, branch = 'main', checkout = true } = {}) {
  const dir = tmp('revtrail-bench-real-');
  git(dir, ['init', '-q', ...(bare ? ['--bare'] : []), '-b', branch]);
  const gitDir = bare ? dir : join(dir, '.git');
  writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), `${join(mirror, 'objects')}\n`);
  const sha = git(mirror, ['rev-parse', `${rev}^{commit}`]).trim();
  git(dir, ['update-ref', `refs/heads/${branch}`, sha]);
  if (!bare && checkout) git(dir, ['reset', '-q', '--hard', sha]);
  return { dir, sha };
}

/** As borrow, but kept in the bench cache between runs (a checkout of a big tree takes a while). */
export function borrowCached(name, mirror, rev) {
  const sha = git(mirror, ['rev-parse', `${rev}^{commit}`]).trim();
  return cachedFolder(name, `${mirror} ${sha}`, (dir) => {
    git(dir, ['init', '-q', '-b', 'main']);
    writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), `${join(mirror, 'objects')}\n`);
    git(dir, ['update-ref', 'refs/heads/main', sha]);
    git(dir, ['reset', '-q', '--hard', sha]);
  });
}
