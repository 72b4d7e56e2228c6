/**
 * Facts about a commit's own diff never change (a commit is its content), so the gate keeps
 * them between runs: the files each commit touches against its first parent, and the lines it
 * changed in the files asked about. Derived and deletable like the mining cache, beside it in
 * the git common dir; an unreadable or damaged file is the same as none.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LineRanges } from './facts.js';

const FILE = 'facts-v1.jsonl';

type Entry = { c: string; t: string[] } | { c: string; f: string; r: LineRanges };

const PREFIX = '{"c":"';

export class FactsCache {
  /** The cache file as read; each line is parsed only when its commit is asked about. */
  private text = '';
  /** Where each commit's lines start in `text` (a few thousand commits: far smaller than their parsed facts). */
  private readonly linesOf = new Map<string, number | number[]>();
  private readonly touchedBy = new Map<string, Set<string>>();
  private readonly changedBy = new Map<string, LineRanges>();
  private pending: string[] = [];

  private constructor(private readonly dir: string | null) {}

  static async load(commonDir: string | null): Promise<FactsCache> {
    const cache = new FactsCache(commonDir ? join(commonDir, 'revtrail', 'gate-cache') : null);
    if (!cache.dir) return cache;
    const text = (cache.text = await readFile(join(cache.dir, FILE), 'utf8').catch(() => ''));
    for (let at = 0; at < text.length; ) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      let commit: string | undefined;
      if (text.startsWith(PREFIX, at)) {
        const close = text.indexOf('"', at + PREFIX.length);
        if (close > 0 && close < end) commit = text.slice(at + PREFIX.length, close);
      } else if (end > at) {
        // Not as this cache writes lines: read it now to learn its commit.
        commit = entryAt(text, at, end)?.c;
      }
      if (typeof commit === 'string') {
        const known = cache.linesOf.get(commit);
        if (known === undefined) cache.linesOf.set(commit, at);
        else if (typeof known === 'number') cache.linesOf.set(commit, [known, at]);
        else known.push(at);
      }
      at = end + 1;
    }
    return cache;
  }

  /**
   * The commit's cached entries, in file order (a later one replaces an earlier one). `kind`:
   * lines this cache wrote that are plainly of the other kind are not parsed.
   */
  private entries(commit: string, kind: 't' | 'f'): Entry[] {
    const starts = this.linesOf.get(commit);
    if (starts === undefined) return [];
    const list: Entry[] = [];
    const other = `${PREFIX}${commit}","${kind === 't' ? 'f' : 't'}":`;
    for (const at of typeof starts === 'number' ? [starts] : starts) {
      if (this.text.startsWith(other, at)) continue;
      const end = this.text.indexOf('\n', at);
      const e = entryAt(this.text, at, end < 0 ? this.text.length : end);
      if (e && e.c === commit) list.push(e);
    }
    return list;
  }

  touched(commit: string): Set<string> | undefined {
    const known = this.touchedBy.get(commit);
    if (known) return known;
    let files: string[] | undefined;
    for (const e of this.entries(commit, 't')) if ('t' in e && Array.isArray(e.t)) files = e.t;
    return files && new Set(files);
  }

  changed(commit: string, file: string): LineRanges | undefined {
    const known = this.changedBy.get(`${commit}\0${file}`);
    if (known) return known;
    let ranges: LineRanges | undefined;
    for (const e of this.entries(commit, 'f')) if ('f' in e && e.f === file && Array.isArray(e.r)) ranges = e.r;
    return ranges;
  }

  setTouched(commit: string, files: Set<string>): void {
    this.touchedBy.set(commit, files);
    this.pending.push(JSON.stringify({ c: commit, t: [...files] }));
  }

  setChanged(commit: string, file: string, ranges: LineRanges): void {
    this.changedBy.set(`${commit}\0${file}`, ranges);
    this.pending.push(JSON.stringify({ c: commit, f: file, r: ranges }));
  }

  /** Appends what this run learnt, in one write; failures only cost the next run time. */
  async save(): Promise<void> {
    if (!this.dir || this.pending.length === 0) return;
    const text = this.pending.join('\n') + '\n';
    this.pending = [];
    try {
      await mkdir(this.dir, { recursive: true });
      await appendFile(join(this.dir, FILE), text);
    } catch {
      // Not cached this time.
    }
  }
}

/** The entry on one line, or null for a torn line (two writers, a crash): that is just not cached. */
function entryAt(text: string, at: number, end: number): Entry | null {
  try {
    const e = JSON.parse(text.slice(at, end)) as Entry;
    return e && typeof e === 'object' && typeof e.c === 'string' ? e : null;
  } catch {
    return null;
  }
}
