/**
 * The observed facts behind the gate, each fetched with one git call for every thread that
 * needs it (never a process per thread).
 */
import { DiffReader } from '../diff/read.js';
import { linesByCommit, namesByCommit, stream } from '../core/git/commands.js';
import { fileVersions } from '../core/git/versions.js';
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
  // Types only, no content: the process's one reader of file versions (core/git/versions.ts).
  const versions = fileVersions(cwd);
  const types = await Promise.all(list.map((p) => versions.info(`${tip}:${p}`)));
  list.forEach((p, i) => {
    const type = types[i]?.type;
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
  // The one diff reader (diff/read.ts) reads the hunks by their counts; between them come the
  // commit names `--stdin` prints, each before its commit's files.
  const commitLine = (line: string) => {
    if (!/^[0-9a-f]{40,64}$/.test(line)) return;
    commit = line;
    file = null;
  };
  const named = (newField: string) => {
    const target = unquotePath(newField);
    file = target === '/dev/null' ? null : target.replace(/^b\//, '');
  };
  const reader = new DiffReader(
    {
      gitFile: () => (file = null),
      plainFile: (_old, newField) => named(newField),
      names: (_old, newField) => named(newField),
      header: commitLine,
      other: commitLine,
      hunk(hunk) {
        const start = hunk.newStart;
        const plus = hunk.newLines;
        if (plus === 0 || !file || !wanted.get(commit)?.has(file)) return;
        let perFile = result.get(commit);
        if (!perFile) result.set(commit, (perFile = new Map()));
        let ranges = perFile.get(file);
        if (!ranges) perFile.set(file, (ranges = []));
        ranges.push([start, start + plus - 1]);
      },
      line() {},
      noNewline() {},
    },
    'git diff-tree',
  );
  for await (const line of stream(linesByCommit([...wanted.keys()], limited ? pathspec : null), { cwd }))
    reader.line(line);
  reader.end();
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
