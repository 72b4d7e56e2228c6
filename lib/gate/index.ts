/**
 * The promotion gate over mined history (docs/gate.md): threads, the facts git can tell about them
 * (batched), and the signals (one registry: lib/gate/signals/).
 */
import { acceptCopies, buildThreads } from './threads.js';
import { resolveMainline } from './mainline.js';
import { changedLines, filesAtTip, lineRange, touchedFiles, type LineRanges } from './facts.js';
import { FactsCache } from './cache.js';
import { judge, mayQualify, type GateFacts } from './judge.js';
import { readCiNotes } from '../ci/notes.js';
import { mineBatches } from '../mine/index.js';
import type { CommitResult } from '../mine/types.js';
import type { GateReport, Mainline, Thread } from './types.js';

export type { GateReport, RuleGate, ThreadGate, Signal, SignalName, Thread, Mainline } from './types.js';
export { SIGNALS } from './types.js';
export { buildThreads } from './threads.js';
export { resolveMainline } from './mainline.js';

export interface GateOptions {
  cwd: string;
  commonDir: string;
  /** Mined history, newest commit first. */
  commits: readonly CommitResult[];
  /** config.mainline. */
  mainline?: string;
  /** The mainline when the caller resolved it already. */
  resolved?: { mainline: Mainline | null; problem: string | null };
  minRecurrence: number;
  /** config.gate.minAuthors (several_authors); default 2. */
  minAuthors?: number;
  /** Threads to explain (--explain): their facts are written, and their rule's changed lines read. */
  explain?: (thread: Thread) => boolean;
  /** Use and refresh the caches (default true). */
  cache?: boolean;
  /** Commits with findings reachable from the mainline, when the caller knows them already. */
  reachable?: Set<string>;
}

export async function evaluateGate(options: GateOptions): Promise<GateReport> {
  const { cwd } = options;
  const threads = buildThreads(options.commits);
  const { mainline, problem } = options.resolved ?? (await resolveMainline(cwd, options.mainline));

  const accepts = new Set<string>();
  const files = new Set<string>();
  for (const t of threads) {
    for (const a of acceptCopies(t)) accepts.add(a.commit); // which copy is the fix: lib/gate/threads.ts
    if (t.file) files.add(t.file);
  }
  const cache = await FactsCache.load(options.cache === false ? null : options.commonDir);
  const [reachable, touched, present, ci] = await Promise.all([
    options.reachable ?? (mainline ? reachableCommits(options, mainline.name) : Promise.resolve(new Set<string>())),
    cachedTouched(cwd, cache, [...accepts]),
    mainline ? filesAtTip(cwd, mainline.sha, [...files]) : Promise.resolve(new Set<string>()),
    readCiNotes(cwd, [...accepts]),
  ]);
  const facts: GateFacts = {
    mainline,
    mainlineProblem: problem,
    reachable,
    touched,
    present,
    ci,
    changed: new Map(),
    evidenceScope: new Set(),
  };

  // Reading changed lines costs a diff per commit: only for threads that can still qualify,
  // and for what --explain asks about (the whole rule_source: generalizable needs it).
  const explainedRules = new Set(threads.filter((t) => options.explain?.(t)).map((t) => t.rule_source));
  const wanted = new Map<string, Set<string>>();
  for (const t of threads) {
    if (!mayQualify(t, facts) && !explainedRules.has(t.rule_source)) continue;
    facts.evidenceScope.add(t.id);
    for (const o of t.occurrences) {
      if (!o.file || !lineRange(o.line)) continue;
      let set = wanted.get(o.commit);
      if (!set) wanted.set(o.commit, (set = new Set()));
      set.add(o.file);
    }
  }
  facts.changed = await cachedChanged(cwd, cache, wanted);
  await cache.save();
  return judge(
    threads,
    facts,
    { minRecurrence: options.minRecurrence, minAuthors: options.minAuthors ?? 2 },
    options.explain,
  );
}

async function cachedTouched(cwd: string, cache: FactsCache, commits: string[]): Promise<Map<string, Set<string>>> {
  const result = new Map<string, Set<string>>();
  const missing: string[] = [];
  for (const c of commits) {
    const known = cache.touched(c);
    if (known) result.set(c, known);
    else missing.push(c);
  }
  for (const [c, files] of await touchedFiles(cwd, missing)) {
    cache.setTouched(c, files);
    result.set(c, files);
  }
  return result;
}

async function cachedChanged(
  cwd: string,
  cache: FactsCache,
  wanted: Map<string, Set<string>>,
): Promise<Map<string, Map<string, LineRanges>>> {
  const result = new Map<string, Map<string, LineRanges>>();
  const missing = new Map<string, Set<string>>();
  for (const [commit, files] of wanted) {
    for (const file of files) {
      const known = cache.changed(commit, file);
      if (known) {
        let perFile = result.get(commit);
        if (!perFile) result.set(commit, (perFile = new Map()));
        perFile.set(file, known);
      } else {
        let set = missing.get(commit);
        if (!set) missing.set(commit, (set = new Set()));
        set.add(file);
      }
    }
  }
  if (missing.size === 0) return result;
  const fresh = await changedLines(cwd, missing);
  for (const [commit, files] of missing) {
    for (const file of files) {
      const ranges = fresh.get(commit)?.get(file) ?? [];
      cache.setChanged(commit, file, ranges);
      let perFile = result.get(commit);
      if (!perFile) result.set(commit, (perFile = new Map()));
      perFile.set(file, ranges);
    }
  }
  return result;
}

/** Commits with findings reachable from the mainline: the (cached) mining of the mainline alone. */
export async function reachableCommits(
  options: Pick<GateOptions, 'cwd' | 'commonDir' | 'cache'>,
  mainline: string,
): Promise<Set<string>> {
  const set = new Set<string>();
  for await (const batch of mineBatches({
    cwd: options.cwd,
    commonDir: options.commonDir,
    revs: [mainline],
    cache: options.cache,
  }))
    for (const c of batch) set.add(c.commit);
  return set;
}
