/** Refs and revisions: what a name peels to, the refs listed, symbolic refs, the remotes' names and tips. */
import type { GitCommand } from '../run.js';
import { text } from './shape.js';
import { parseLines, parseListedRefs, parseVerified, type ListedRef } from './parse.js';

/** `rev-parse --verify REV^{commit}`: the commit a revision names, or null (unborn branch, no such rev). */
export function peel(rev: string): GitCommand<string | null> {
  return {
    args: ['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`],
    okCodes: [1, 128],
    parse: (a) => parseVerified(a.text, a.status),
  };
}

/**
 * The full ref names a short NAME can mean, in git's own order of rules (gitrevisions(7):
 * refs/NAME, tags, heads, remotes, a remote's HEAD): more than one is an ambiguous name.
 */
export function refsNamed(name: string): GitCommand<string[]> {
  const candidates = [
    `refs/${name}`,
    `refs/tags/${name}`,
    `refs/heads/${name}`,
    `refs/remotes/${name}`,
    `refs/remotes/${name}/HEAD`,
  ];
  return {
    args: ['for-each-ref', '--format=%(refname)', '--end-of-options', ...candidates],
    parse: (a) => {
      const found = new Set(a.text.split('\n'));
      return candidates.filter((c) => found.has(c));
    },
  };
}

/**
 * The refs under `patterns` (for-each-ref's: a full name or a prefix of whole components) in one
 * process, with what the mainline, the org stamp and the mining signature need of each
 * (docs/org.md "Bench").
 */
export function listRefs(patterns: readonly string[]): GitCommand<Map<string, ListedRef>> {
  return {
    args: [
      'for-each-ref',
      '--format=%(refname)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)%00%(symref)%00%(HEAD)%00%(upstream:remotename)',
      '--',
      ...patterns,
    ],
    parse: (a) => parseListedRefs(a.text),
  };
}

/** The ref a symbolic ref points at (`--short`: its short name), or null when it is none (a detached HEAD). */
export function symbolicRef(ref: string, options: { short?: boolean } = {}): GitCommand<string | null> {
  return {
    args: ['symbolic-ref', ...(options.short ? ['--short'] : []), '-q', ref],
    okCodes: [1, 128],
    parse: (a) => parseVerified(a.text, a.status),
  };
}

/** What `git rev-parse REV…` prints for each revision (`C^@`: a commit's parents). */
export function revParse(...revs: string[]): GitCommand<string[]> {
  return { args: ['rev-parse', ...revs], parse: (a) => parseLines(a.text) };
}

/** `git rev-parse QUESTION…` as git printed it (lib/mine/cache.ts signatureQuestion: sections it reads back). */
export function revParseAnswer(question: readonly string[]): GitCommand<string> {
  return text(['rev-parse', ...question]);
}

/** The revisions `args` names, as `rev-parse --revs-only` prints them (the options left out). */
export function revsOnly(args: readonly string[]): GitCommand<string> {
  return text(['rev-parse', '--revs-only', ...args]);
}

/** `refname objectname` of each ref under `prefix`, one a line. */
export function refObjects(prefix: string): GitCommand<string> {
  return text(['for-each-ref', '--format=%(refname) %(objectname)', prefix]);
}

/** The names of the configured remotes. */
export const remoteNames: GitCommand<string[]> = { args: ['remote'], parse: (a) => parseLines(a.text) };

/** The distinct objects a remote's refs name now (`git ls-remote REMOTE`: one round trip to it). */
export function remoteTips(remote: string): GitCommand<string[]> {
  return {
    args: ['ls-remote', '--end-of-options', remote],
    parse: (a) => [...new Set(parseLines(a.text).map((l) => l.split('\t')[0]!))].filter((t) => /^[0-9a-f]+$/.test(t)),
  };
}

/** `ref` set to `value` (HEAD itself, not the branch it names, with `noDeref`). */
export function updateRef(ref: string, value: string, options: { noDeref?: boolean } = {}): GitCommand<string> {
  return text(['update-ref', ...(options.noDeref ? ['--no-deref'] : []), ref, value]);
}
