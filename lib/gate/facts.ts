/**
 * The observed facts behind the gate, each fetched with one git call for every thread that
 * needs it (never a process per thread).
 */
import { parseHunkHeader } from '../diff/hunk-header.js';
import { linesByCommit, namesByCommit, objectTypes, run, stream } from '../core/git/commands.js';
import { unquotePath } from '../diff/quote.js';

/** Files each commit's diff against its first parent touches (the root commit: all its files). */
export async function touchedFiles(cwd: string, commits: readonly string[]): Promise<Map<string, Set<string>>> {
  const touched = new Map<string, Set<string>>();
  if (commits.length === 0) return touched;
  const order = [...new Set(commits)];
  let next = 0;
  let current: Set<string> | null = null;
  for await (const token of stream(namesByCommit(order), { cwd })) {
    const name = token.replace(/^\n/, '');
    // --always prints every commit's header, in input order, so the next header is known.
    if (next < order.length && name === order[next]) {
      current = new Set();
      touched.set(order[next]!, current);
      next += 1;
      continue;
    }
    if (name) current?.add(name);
  }
  return touched;
}

/** Which of `paths` exist (as files) in the tree of `tip`. */
export async function filesAtTip(cwd: string, tip: string, paths: readonly string[]): Promise<Set<string>> {
  const present = new Set<string>();
  const list = [...new Set(paths)].filter((p) => !p.includes('\n'));
  if (list.length === 0) return present;
  const lines = await run(objectTypes(list.map((p) => `${tip}:${p}`)), { cwd });
  list.forEach((p, i) => {
    const type = lines[i];
    if (type === 'blob' || type === 'commit') present.add(p);
  });
  return present;
}

export type LineRanges = Array<[number, number]>;

/**
 * Lines each commit added or changed (new-file numbering), per file, for the files asked:
 * `git diff-tree -U0` against the first parent, restricted to those files.
 */
export async function changedLines(
  cwd: string,
  wanted: Map<string, Set<string>>,
): Promise<Map<string, Map<string, LineRanges>>> {
  const result = new Map<string, Map<string, LineRanges>>();
  if (wanted.size === 0) return result;
  const files = new Set<string>();
  for (const set of wanted.values()) for (const f of set) files.add(f);
  const pathspec = [...files];
  // A pathspec keeps git from diffing files nobody asked about; a huge one would overflow argv.
  const limited = pathspec.reduce((n, p) => n + p.length + 1, 0) < 64 * 1024;
  let commit = '';
  let file: string | null = null;
  let minus = 0;
  let plus = 0;
  for await (const line of stream(linesByCommit([...wanted.keys()], limited ? pathspec : null), { cwd })) {
    if (minus > 0 || plus > 0) {
      // Inside a hunk: exactly the counted lines, whatever they hold ("\ No newline" is not counted).
      if (line.startsWith('-')) minus -= 1;
      else if (line.startsWith('+')) plus -= 1;
      continue;
    }
    if (/^[0-9a-f]{40,64}$/.test(line)) {
      commit = line;
      file = null;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      file = null;
      continue;
    }
    if (line.startsWith('+++ ')) {
      const target = unquotePath(line.slice(4));
      file = target === '/dev/null' ? null : target.replace(/^b\//, '');
      continue;
    }
    const hunk = parseHunkHeader(line);
    if (!hunk) continue;
    minus = hunk.oldLines;
    const start = hunk.newStart;
    plus = hunk.newLines;
    if (plus === 0 || !file || !wanted.get(commit)?.has(file)) continue;
    let perFile = result.get(commit);
    if (!perFile) result.set(commit, (perFile = new Map()));
    let ranges = perFile.get(file);
    if (!ranges) perFile.set(file, (ranges = []));
    ranges.push([start, start + plus - 1]);
  }
  return result;
}

/** `N` or `N-M` as a range; null when it is neither. */
export function lineRange(line: string | null): [number, number] | null {
  const m = line ? /^(\d+)(?:-(\d+))?$/.exec(line) : null;
  if (!m) return null;
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  return [a, Math.max(a, b)];
}

export function intersects(range: [number, number], ranges: LineRanges | undefined): boolean {
  return !!ranges?.some(([a, b]) => range[0] <= b && a <= range[1]);
}
