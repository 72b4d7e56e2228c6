/**
 * Helpers for the "the record is true" tests (docs/record.md): one repository with the hooks
 * installed for a whole test file, a fresh branch per case, and readers for what the history
 * says afterwards (git's trailer view, mine, stats, candidates --explain).
 */
import assert from 'node:assert/strict';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { tempDir } from './repo.js';
import { DEBUGGER_LINE, allTrailerRows, installedRepo, type HookRepo } from './hooks.js';
import { readQueue, type QueuedVerdict } from '../../lib/verdicts/queue.js';

export { DEBUGGER_LINE };

export interface Kit {
  r: HookRepo;
  /** A new branch from `from` (default main), checked out, with an empty verdict queue. */
  branch(name: string, from?: string): void;
  /** Stages `files` and runs `git commit ARGS`; fails the test when git fails. Returns stderr. */
  commit(files: Record<string, string>, args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** git, failing the test when it fails; returns stderr. */
  git(args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** Rows git sees as trailers in one commit. */
  rows(rev?: string): string[];
  /** Rows of every commit reachable from `rev`, newest first. */
  allRows(rev?: string): string[];
  /** `Review-Finding:` lines anywhere in the commit message (body included). */
  messageRowCount(rev?: string): number;
  /** `revtrail verdict ID VERDICT RATIONALE`, which must succeed. */
  verdict(id: string, verdict: string, rationale: string): Promise<void>;
  queue(): Promise<QueuedVerdict[]>;
  /** What the history says: mine records, stats totals and rules, per HEAD. */
  record(): Promise<RecordView>;
  /** `candidates --explain TARGET --json`. */
  explain(target: string): Promise<Explained>;
  /** A script file (mode 755) in a temp folder, for GIT_EDITOR / GIT_SEQUENCE_EDITOR. */
  script(name: string, body: string): string;
}

export interface RecordView {
  /** mine records (finding occurrences) as `id verdict` strings, in mining order. */
  mined: string[];
  findings: number;
  counts: Record<string, number>;
  human: number;
  rejectRate: number | null;
}

export interface Explained {
  state: string;
  occurrences: number;
  signals: Record<string, { met: boolean; fact: string }>;
}

export const idOf = (row: string) => row.split(',')[0]!;
/** The row with another verdict and rationale (a rationale with no comma or quote). */
export const withVerdict = (row: string, verdict: string, rationale: string) =>
  row.replace(/,OPEN,$/, `,${verdict},${rationale}`);

export async function recordKit(): Promise<Kit> {
  const r = await installedRepo();
  const scripts = tempDir('revtrail-scripts-');
  after(() => {
    r.cleanup();
    rmSync(scripts, { recursive: true, force: true });
  });
  const common = join(r.dir, '.git');
  const must = async (args: string[], env?: NodeJS.ProcessEnv) => {
    const run = await r.run(args, { env });
    assert.equal(run.code, 0, `git ${args.join(' ')}: ${run.stderr}`);
    return run.stderr;
  };
  const kit: Kit = {
    r,
    branch(name, from = 'main') {
      r.git(['checkout', '-q', '-b', name, from]);
      rmSync(join(common, 'revtrail', 'verdicts.jsonl'), { force: true });
    },
    async commit(files, args, env) {
      for (const [p, c] of Object.entries(files)) r.write(p, c);
      r.git(['add', '-A']);
      return must(['commit', ...args], env);
    },
    git: must,
    rows: (rev = 'HEAD') => r.trailers(rev),
    allRows: (rev = 'HEAD') => allTrailerRows(r, rev),
    messageRowCount: (rev = 'HEAD') =>
      (r.git(['log', '-1', '--format=%B', rev]).match(/^review-finding:/gim) ?? []).length,
    async verdict(id, verdict, rationale) {
      const run = await r.cli(['verdict', id, verdict, rationale]);
      assert.equal(run.code, 0, run.stderr);
    },
    queue: () => readQueue(common),
    async record() {
      const mine = await r.cli(['mine', '--format', 'jsonl']);
      assert.equal(mine.code, 0, mine.stderr);
      const mined = mine.stdout
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { id?: string; verdict?: string; type?: string })
        .filter((x) => x.type === undefined)
        .map((x) => `${x.id} ${x.verdict}`);
      const stats = await r.cli(['stats', '--json']);
      assert.equal(stats.code, 0, stats.stderr);
      const total = (
        JSON.parse(stats.stdout) as {
          total: {
            findings: number;
            counts: Record<string, number>;
            human_verdicts: number;
            reject_rate: number | null;
          };
        }
      ).total;
      return {
        mined,
        findings: total.findings,
        counts: total.counts,
        human: total.human_verdicts,
        rejectRate: total.reject_rate,
      };
    },
    async explain(target) {
      const run = await r.cli(['candidates', '--explain', target, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const e = JSON.parse(run.stdout) as {
        threads: Array<{
          id: string;
          state: string;
          occurrences: number;
          signals: Array<{ name: string; met: boolean; fact: string }>;
        }>;
      };
      const t = e.threads.find((x) => x.id === target)!;
      return {
        state: t.state,
        occurrences: t.occurrences,
        signals: Object.fromEntries(t.signals.map((s) => [s.name, { met: s.met, fact: s.fact }])),
      };
    },
    script(name, body) {
      const file = join(scripts, name);
      writeFileSync(file, `#!/bin/sh\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    },
  };
  return kit;
}

/** Counts of threads per latest verdict, all five keys. */
export const counts = (c: Partial<Record<'OPEN' | 'ACCEPT' | 'REJECT' | 'DEFER' | 'ACKNOWLEDGE', number>>) => ({
  OPEN: 0,
  ACCEPT: 0,
  REJECT: 0,
  DEFER: 0,
  ACKNOWLEDGE: 0,
  ...c,
});
