/**
 * The parsers of the named commands (./*.ts): plain functions of git's output, tested without a
 * process (test/core/git-commands.test.ts).
 */
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
