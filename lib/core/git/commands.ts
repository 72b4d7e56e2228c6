/**
 * Git commands revtrail runs in more than one place, named once (like simple-git's tasks): each
 * is data (the argv, the input, the exit codes that are answers, a timeout) plus the parse of
 * its answer, run by `runGit` over the one runner in ./run.ts. The parsers are plain functions
 * of git's output, tested without a process (test/core/git-commands.test.ts). A command one
 * place runs, with its parse beside it, stays there (docs/architecture.md, "The git runner").
 */
import { gitBytes, type GitOptions } from './run.js';

/** What git answered: the exit code and stdout, as bytes or (decoded on first use) as text. */
export interface GitAnswer {
  readonly status: number;
  readonly bytes: Buffer;
  readonly text: string;
}

export interface GitCommand<T> {
  /** The argv after `git`. */
  readonly args: readonly string[];
  /** Written to git's stdin (none: stdin is /dev/null). */
  readonly input?: string | Buffer;
  /** Exit codes that are answers, not failures. */
  readonly okCodes?: readonly number[];
  readonly timeoutMs?: number;
  /** Set for this command on top of the caller's (GIT_LITERAL_PATHSPECS for paths from a tree). */
  readonly env?: NodeJS.ProcessEnv;
  readonly parse: (answer: GitAnswer) => T;
}

/** Runs a named command and returns its parsed answer; a failing exit code throws GitError. */
export async function runGit<T>(command: GitCommand<T>, options: Pick<GitOptions, 'cwd' | 'env'>): Promise<T> {
  const env = command.env ? { ...options.env, ...command.env } : options.env;
  const result = await gitBytes(command.args, {
    cwd: options.cwd,
    env,
    input: command.input,
    okCodes: command.okCodes,
    timeoutMs: command.timeoutMs,
  });
  let text: string | undefined;
  return command.parse({
    status: result.status,
    bytes: result.stdout,
    get text() {
      return (text ??= result.stdout.toString('utf8'));
    },
  });
}

// ---- parsers: pure functions of git's output -------------------------------------------------

/** A rev-parse --verify answer: the object name, or null when git said there is none. */
export function parseVerified(text: string, status: number): string | null {
  const sha = text.trim();
  return status === 0 && sha ? sha : null;
}

/** A `git config --get` answer: the value, or null when the key is unset (exit 1). */
export function parseConfigValue(text: string, status: number): string | null {
  return status === 0 ? text.trim() : null;
}

/** Output of one name per line (rev-parse of several revisions, rev-list). */
export function parseLines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}

/** Output of NUL-terminated names (`-z`). */
export function parseNulList(text: string): string[] {
  return text.split('\0').filter(Boolean);
}

/** The paths of `git status --porcelain -z` (each entry is `XY path`). */
export function parseStatusPaths(text: string): string[] {
  return parseNulList(text).map((entry) => entry.slice(3));
}

export interface Worktree {
  path: string;
  bare: boolean;
}

/** `git worktree list --porcelain`: one block per worktree, blocks parted by an empty line. */
export function parseWorktreeList(text: string): Worktree[] {
  const found: Worktree[] = [];
  for (const block of text.split('\n\n')) {
    const path = /^worktree (.*)$/m.exec(block)?.[1];
    if (path) found.push({ path, bare: /^bare$/m.test(block) });
  }
  return found;
}

export interface CatFileObject {
  type: string;
  content: Buffer;
}

/**
 * `git cat-file --batch` for the names asked, in order: `<oid> <type> <size>`, the content and
 * a newline per object; `<name> missing` (or `ambiguous`) alone for a name git does not have,
 * which maps to null. Output that ends early leaves the names after it out.
 */
export function parseCatFileBatch(bytes: Buffer, asked: readonly string[]): Map<string, CatFileObject | null> {
  const found = new Map<string, CatFileObject | null>();
  let at = 0;
  for (const name of asked) {
    const eol = bytes.indexOf(0x0a, at);
    if (eol === -1) break;
    const header = /^[0-9a-f]+ (\S+) (\d+)$/.exec(bytes.subarray(at, eol).toString('utf8'));
    at = eol + 1;
    if (!header) {
      found.set(name, null);
      continue;
    }
    const size = Number(header[2]);
    found.set(name, { type: header[1]!, content: bytes.subarray(at, at + size) });
    at += size + 1;
  }
  return found;
}

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** A blob's size with `-l`; null without it, and for what has none (a tree, a submodule). */
  size: number | null;
  path: string;
}

/** `git ls-tree -z` records, `<mode> <type> <oid>[ <size>]\t<path>` each. */
export function parseLsTree(text: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of parseNulList(text)) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [mode, type, oid, size] = record.slice(0, tab).split(/\s+/);
    entries.push({
      mode: mode!,
      type: type!,
      oid: oid!,
      size: size === undefined || size === '-' ? null : Number(size),
      path: record.slice(tab + 1),
    });
  }
  return entries;
}

/** A file a diff leaves in the new tree: its path, mode and blob. */
export interface ChangedBlob {
  path: string;
  mode: string;
  oid: string;
}

/**
 * `git diff --raw -z` records (`:<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0`,
 * no renames) of what a diff leaves behind: deletions are left out.
 */
export function parseRawDiff(text: string): ChangedBlob[] {
  const fields = text.split('\0');
  const out: ChangedBlob[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const head = /^:(\d+) (\d+) [0-9a-f]+ ([0-9a-f]+) ([A-Z])\d*$/.exec(fields[i]!);
    if (!head) break;
    if (head[4] !== 'D') out.push({ path: fields[i + 1]!, mode: head[2]!, oid: head[3]! });
  }
  return out;
}

// ---- the commands ----------------------------------------------------------------------------

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

/** `git merge-base A B`: a best common ancestor, or null when the histories share none. */
export function mergeBase(a: string, b: string): GitCommand<string | null> {
  return { args: ['merge-base', a, b], okCodes: [1], parse: (r) => (r.status === 0 ? r.text.trim() || null : null) };
}

/** The names of the configured remotes. */
export const remoteNames: GitCommand<string[]> = { args: ['remote'], parse: (a) => parseLines(a.text) };

/**
 * One ref as for-each-ref lists it: the commit it names (peeled through one tag), the ref it
 * points to when it is symbolic, the object it names, whether HEAD is on it and its upstream's remote.
 */
export interface ListedRef {
  commit: string | null;
  symref: string | null;
  /** The object the ref names (for a symbolic ref, its target's), as show-ref prints it. */
  object: string;
  /** HEAD is this branch (for-each-ref's `%(HEAD)`). */
  head: boolean;
  /** The remote of the branch's upstream (`branch.<name>.remote`), or null. */
  upstreamRemote: string | null;
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

export function parseListedRefs(text: string): Map<string, ListedRef> {
  const refs = new Map<string, ListedRef>();
  for (const line of text.split('\n')) {
    const [name, type, object, peeledType, peeled, symref, head, upstream] = line.split('\0');
    if (!name || !object || upstream === undefined) continue;
    const commit = type === 'commit' ? object : peeledType === 'commit' ? peeled! : null;
    refs.set(name, { commit, symref: symref || null, object, head: head === '*', upstreamRemote: upstream || null });
  }
  return refs;
}

/** The remotes as configured (`remote.<name>.*` keys): every name, in the config's order, and each one's URL. */
export interface RemoteConfig {
  names: string[];
  urls: Map<string, string>;
}

/** `git config -z --get-regexp ^remote\.`: every remote's keys in one process (none: exit 1). */
export const remoteConfig: GitCommand<RemoteConfig> = {
  args: ['config', '-z', '--get-regexp', '^remote\\.'],
  okCodes: [1],
  parse: (a) => parseRemoteConfig(a.status === 0 ? a.text : ''),
};

/** config -z entries are `key\nvalue\0` (a key with no value: `key\0`); a remote's name may hold dots. */
export function parseRemoteConfig(text: string): RemoteConfig {
  const names: string[] = [];
  const urls = new Map<string, string>();
  for (const entry of text.split('\0')) {
    const nl = entry.indexOf('\n');
    const key = nl < 0 ? entry : entry.slice(0, nl);
    const dot = key.lastIndexOf('.');
    if (!key.startsWith('remote.') || dot <= 'remote.'.length) continue;
    const name = key.slice('remote.'.length, dot);
    if (!names.includes(name)) names.push(name);
    // The last url of a remote, as `git config --get-regexp` lists it last (the stamp's remote since schema 1).
    if (nl >= 0 && key.slice(dot + 1) === 'url') urls.set(name, entry.slice(nl + 1));
  }
  return { names, urls };
}

/** The newest of `commits` by committer date (`rev-list --no-walk` sorts by it). */
export function newestOf(commits: readonly string[]): GitCommand<string | null> {
  return {
    args: ['rev-list', '--no-walk', '--max-count=1', '--stdin'],
    input: `${commits.join('\n')}\n`,
    parse: (a) => a.text.trim() || null,
  };
}

/** Whether `commit` reaches every one of `others`: nothing of theirs is left once its history is taken away. */
export function reachesAll(commit: string, others: readonly string[]): GitCommand<boolean> {
  return {
    args: ['rev-list', '--max-count=1', '--stdin'],
    input: `${[...others, `^${commit}`].join('\n')}\n`,
    parse: (a) => a.text.trim() === '',
  };
}

/** Of `commits`, those no other of them reaches (`merge-base --independent`). */
export function independentOf(commits: readonly string[]): GitCommand<string[]> {
  return { args: ['merge-base', '--independent', ...commits], parse: (a) => parseLines(a.text) };
}

/** The files a diff range (`A..B`, `A...B`) leaves in its new tree, with their blobs. */
export function changedBlobs(range: string): GitCommand<ChangedBlob[]> {
  return {
    args: ['diff', '--raw', '-z', '--no-renames', '--no-abbrev', '--no-ext-diff', '--end-of-options', range, '--'],
    parse: (a) => parseRawDiff(a.text),
  };
}

/** The commits among `commits` whose own diff (first parent) touches `path`, in the order given. */
export function commitsTouching(commits: readonly string[], path: string): GitCommand<string[]> {
  return {
    args: ['log', '--no-walk=unsorted', '--stdin', '--format=%H', '--diff-merges=first-parent', '--', path],
    input: `${commits.join('\n')}\n`,
    env: { GIT_LITERAL_PATHSPECS: '1' },
    parse: (a) => parseLines(a.text),
  };
}

/** What `rev` is once every tag is peeled (`rev^{}`): its object and type, or null when git has none. */
export function peeledObject(rev: string): GitCommand<{ oid: string; type: string } | null> {
  return {
    args: ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
    input: `${rev}^{}\n`,
    parse: (a) => {
      const m = /^([0-9a-f]+) (\w+)$/.exec(a.text.trim());
      return m ? { oid: m[1]!, type: m[2]! } : null;
    },
  };
}

/** A commit's message (UTF-8), or '' when it has none. */
export function commitMessage(commit: string): GitCommand<string> {
  return {
    args: ['log', '-1', '--no-walk', '--encoding=UTF-8', '--format=%B', '--end-of-options', commit, '--'],
    parse: (a) => a.text,
  };
}

/** The distinct objects a remote's refs name now (`git ls-remote REMOTE`: one round trip to it). */
export function remoteTips(remote: string): GitCommand<string[]> {
  return {
    args: ['ls-remote', '--end-of-options', remote],
    parse: (a) => [...new Set(parseLines(a.text).map((l) => l.split('\t')[0]!))].filter((t) => /^[0-9a-f]+$/.test(t)),
  };
}

/** `runGit(peel(rev), { cwd })`, the form most callers want. */
export function peelCommit(cwd: string, rev: string): Promise<string | null> {
  return runGit(peel(rev), { cwd });
}

/** The empty tree's object name in this repository's hash (a root commit's diff base). */
export const emptyTree: GitCommand<string> = {
  args: ['hash-object', '-t', 'tree', '--stdin'],
  parse: (a) => a.text.trim(),
};

/** One configuration value (every scope git reads), or null when unset. */
export function configValue(key: string): GitCommand<string | null> {
  return { args: ['config', '--get', key], okCodes: [1], parse: (a) => parseConfigValue(a.text, a.status) };
}

/** What `git rev-parse REV…` prints for each revision (`C^@`: a commit's parents). */
export function revParse(...revs: string[]): GitCommand<string[]> {
  return { args: ['rev-parse', ...revs], parse: (a) => parseLines(a.text) };
}

/** A path inside the git dir as git resolves it (`hooks` follows core.hooksPath), relative to the work tree. */
export function gitPath(name: string): GitCommand<string> {
  return { args: ['rev-parse', '--git-path', name], parse: (a) => a.text.trim() };
}

/** The worktrees git knows (none outside a repository). */
export const worktreeList: GitCommand<Worktree[]> = {
  args: ['worktree', 'list', '--porcelain'],
  okCodes: [128],
  parse: (a) => parseWorktreeList(a.text),
};

/** Which of `files` the index tracks (none outside a repository). */
export function trackedFiles(files: readonly string[]): GitCommand<string[]> {
  return { args: ['ls-files', '-z', '--', ...files], okCodes: [128], parse: (a) => parseNulList(a.text) };
}

/**
 * The commits of `rev` that no remote-tracking ref has, and the commits they stand on that one
 * has (git's boundary): what a push of `rev` would carry.
 */
export function unpushed(rev: string): GitCommand<{ commits: string[]; boundary: string[] }> {
  return {
    args: ['rev-list', '--boundary', rev, '--not', '--remotes', '--'],
    parse: (a) => {
      const lines = parseLines(a.text);
      return {
        commits: lines.filter((l) => !l.startsWith('-')),
        boundary: lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1)),
      };
    },
  };
}

/** Which of `files` the ignore rules cover, tracked or not (`git add` skips such a new file with exit 0). */
export function ignoredFiles(files: readonly string[]): GitCommand<string[]> {
  return {
    // -z needs --stdin: the paths go in NUL-separated and come back so.
    args: ['check-ignore', '-z', '--stdin', '--no-index'],
    input: files.map((f) => `${f}\0`).join(''),
    okCodes: [1, 128],
    parse: (a) => parseNulList(a.text),
  };
}

/** Which of `files` differ from HEAD or are untracked (none outside a repository). */
export function changedFiles(files: readonly string[]): GitCommand<string[]> {
  return {
    args: ['status', '--porcelain', '-z', '--', ...files],
    okCodes: [128],
    parse: (a) => parseStatusPaths(a.text),
  };
}

/** Objects by name (an oid, `:path`, `tip:path`), from one `git cat-file --batch`; names must hold no newline. */
export function catFileBatch(names: readonly string[]): GitCommand<Map<string, CatFileObject | null>> {
  return {
    args: ['cat-file', '--batch'],
    input: `${names.join('\n')}\n`,
    parse: (a) => parseCatFileBatch(a.bytes, names),
  };
}

/** A `git cat-file --batch` started before its names are known (catFileAhead). */
export interface CatFileAhead {
  /** Asks it for `names` (once): catFileBatch's answer, without the wait for git to start. */
  ask(names: readonly string[]): Promise<Map<string, CatFileObject | null>>;
  /** Ends it unasked (its stdin closes: git reads nothing and exits). */
  cancel(): void;
}

/**
 * catFileBatch, started now and asked later: for a question whose names come when git would
 * otherwise only start (an editor's buffer review, docs/editor.md "Start-up"). git resolves
 * each name when it reads it, so the answer is of the repository as it is when asked.
 */
export function catFileAhead(cwd: string): CatFileAhead {
  let give: (input: string) => void = () => {};
  const input = new Promise<string>((resolve) => {
    give = resolve;
  });
  const answer = gitBytes(['cat-file', '--batch'], { cwd, input });
  answer.catch(() => {}); // a process that is cancelled, or asked and awaited below
  return {
    ask(names) {
      give(`${names.join('\n')}\n`);
      return answer.then((a) => parseCatFileBatch(a.stdout, names));
    },
    cancel() {
      give('');
    },
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

/**
 * The entries of `paths` in a tree (`recursive`: every file under the folders; `sizes`: blob
 * sizes, `-l`). Paths are literal: a `*` in a file name is that name, not a glob.
 */
export function lsTree(
  treeish: string,
  paths: readonly string[],
  options: { recursive?: boolean; sizes?: boolean } = {},
): GitCommand<TreeEntry[]> {
  return {
    args: [
      'ls-tree',
      '-z',
      ...(options.sizes ? ['-l'] : []),
      '--full-tree',
      ...(options.recursive ? ['-r'] : []),
      treeish,
      '--',
      ...paths,
    ],
    env: { GIT_LITERAL_PATHSPECS: '1' },
    parse: (a) => parseLsTree(a.text),
  };
}
