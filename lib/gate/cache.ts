/**
 * Facts about a commit's own diff never change (a commit is its content), so the gate keeps
 * them between runs: the files each commit touches against its first parent, and the lines it
 * changed in the files asked about. Derived and deletable like the mining cache, beside it in
 * the git common dir; an unreadable or damaged file is the same as none.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gateCacheDir } from '../core/state.js';
import type { LineRanges } from './facts.js';

const FILE = 'facts-v1.jsonl';

type Entry = { c: string; t: string[] } | { c: string; f: string; r: LineRanges };

export class FactsCache {
  private readonly touchedBy = new Map<string, Set<string>>();
  private readonly changedBy = new Map<string, LineRanges>();
  private pending: string[] = [];

  private constructor(private readonly dir: string | null) {}

  static async load(commonDir: string | null): Promise<FactsCache> {
    const cache = new FactsCache(commonDir ? gateCacheDir(commonDir) : null);
    if (!cache.dir) return cache;
    const text = await readFile(join(cache.dir, FILE), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as Entry;
        if ('t' in e && Array.isArray(e.t)) cache.touchedBy.set(e.c, new Set(e.t));
        else if ('f' in e && Array.isArray(e.r)) cache.changedBy.set(`${e.c}\0${e.f}`, e.r);
      } catch {
        // A torn line (two writers, a crash) is just not cached.
      }
    }
    return cache;
  }

  touched(commit: string): Set<string> | undefined {
    return this.touchedBy.get(commit);
  }

  changed(commit: string, file: string): LineRanges | undefined {
    return this.changedBy.get(`${commit}\0${file}`);
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
