/**
 * Histories made from a fetched real project's commits (the `fetch` tool, or `git clone
 * --mirror`, put it in ../.mirror beside the project, or REVTRAIL_BENCH_MIRRORS, as for the
 * benches: bench/real.mjs). Nothing of the project is committed here: its objects are borrowed
 * (alternates) and its first-parent commits replayed into a temporary repository, tree by tree,
 * with their authors and dates. A test whose project is not on the machine is skipped, saying so.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { makeRepo, projectRoot, testEnv, type TestRepo } from './repo.js';

const mirrors = process.env.REVTRAIL_BENCH_MIRRORS || join(projectRoot, '..', '.mirror');

/** The bare repository holding `slug`'s history (owner/name), or null. */
export function fetchedMirror(slug: string): string | null {
  const base = join(mirrors, slug.replace('/', '+'));
  for (const dir of [join(base, 'repo'), `${base}.git`, base]) if (existsSync(join(dir, 'objects'))) return dir;
  return null;
}

/** Why a test on `slug` did not run. */
export const notFetched = (slug: string) =>
  `${slug} is not on this machine: fetch it into ${mirrors}/${slug.replace('/', '+')}/repo (or set REVTRAIL_BENCH_MIRRORS)`;

export interface Replayed {
  repo: TestRepo;
  /** The replayed commits, oldest first: the original's id and the replay's. */
  commits: Array<{ original: string; replay: string; author: string }>;
}

/**
 * The last `count` first-parent commits of `rev` in the mirror of `slug`, replayed oldest first
 * onto an empty branch `main` (the first one's tree whole, each next one's as a change), checked out.
 */
export function replayFetched(slug: string, rev: string, count: number): Replayed | null {
  const mirror = fetchedMirror(slug);
  if (!mirror) return null;
  const repo = makeRepo();
  writeFileSync(join(repo.dir, '.git', 'objects', 'info', 'alternates'), `${join(mirror, 'objects')}\n`);
  const log = execFileSync(
    'git',
    [
      'log',
      '--first-parent',
      '--reverse',
      `--max-count=${count}`,
      '--format=%H%x00%T%x00%an%x00%ae%x00%ad%x00%s',
      '--date=raw',
      rev,
    ],
    { cwd: mirror, env: testEnv(), encoding: 'utf8' },
  );
  const commits: Replayed['commits'] = [];
  let parent: string | null = null;
  for (const line of log.split('\n').filter(Boolean)) {
    const [original, tree, name, email, date, subject] = line.split('\0') as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const env = {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      GIT_COMMITTER_DATE: date,
    };
    const replay: string = repo
      .git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', subject || 'replayed'], { env })
      .trim();
    commits.push({ original, replay, author: `${name} <${email}>` });
    parent = replay;
  }
  repo.git(['update-ref', 'refs/heads/main', parent!]);
  repo.git(['reset', '-q', '--hard', 'main']);
  return { repo, commits };
}
