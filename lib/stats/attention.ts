/**
 * What the statistics page lists by name, beside the per-rule numbers (docs/stats.md): the
 * findings still open (no human verdict yet), and the blocking ones that got through to the
 * mainline on a DEFER or an ACKNOWLEDGE (the answer's commit is reachable from the mainline).
 * A count says which rule is noisy; these lists say what is open and what was let through.
 */
import { basename } from 'node:path';
import { commitsOf, peel, run, symbolicRef } from '../core/git/commands.js';
import type { Severity } from '../core/vocabulary.js';
import { buildThreads } from '../gate/threads.js';
import type { CommitResult } from '../mine/types.js';

export interface NamedFinding {
  id: string;
  severity: string;
  rule_source: string;
  file: string | null;
  line: string | null;
  issue: string;
  /** Open: the commit that raised it. Let through: the commit holding the answer. */
  commit: string;
  date: string;
  verdict: string;
  rationale: string;
}

export interface Attention {
  open: NamedFinding[];
  through: NamedFinding[];
}

export function attention(
  commits: readonly CommitResult[],
  options: { blocking: readonly Severity[]; onMainline: (commit: string) => boolean },
): Attention {
  const open: NamedFinding[] = [];
  const through: NamedFinding[] = [];
  for (const t of buildThreads(commits)) {
    const first = t.occurrences[0]!;
    const latest = t.occurrences.at(-1)!;
    const base = {
      id: t.id,
      severity: latest.severity,
      rule_source: t.rule_source,
      file: t.file,
      line: t.line,
      issue: t.issue,
    };
    if (t.state === 'OPEN') {
      open.push({ ...base, commit: first.commit, date: first.date, verdict: 'OPEN', rationale: '' });
      continue;
    }
    if (t.state !== 'DEFER' && t.state !== 'ACKNOWLEDGE') continue;
    if (!t.occurrences.some((o) => (options.blocking as readonly string[]).includes(o.severity))) continue;
    let answer = latest;
    for (let i = t.occurrences.length - 1; i >= 0; i--) {
      if (t.occurrences[i]!.verdict === t.state) {
        answer = t.occurrences[i]!;
        break;
      }
    }
    if (options.onMainline(answer.commit))
      through.push({
        ...base,
        commit: answer.commit,
        date: answer.date,
        verdict: answer.verdict,
        rationale: answer.rationale,
      });
  }
  // Newest first: what came in last is what a lead asks about first.
  const newest = (a: NamedFinding, b: NamedFinding) =>
    a.date < b.date ? 1 : a.date > b.date ? -1 : a.id < b.id ? -1 : 1;
  return { open: open.sort(newest), through: through.sort(newest) };
}

/** The commits of the mainline, to tell which answers reached it. */
export async function mainlineCommits(cwd: string, sha: string): Promise<Set<string>> {
  const out = await run(commitsOf(sha), { cwd });
  return new Set(out.split('\n').filter(Boolean));
}

export interface PageMeta {
  repository: string;
  /** The branch checked out, or `HEAD` (detached). */
  branch: string;
  head: string | null;
  mainline: string | null;
  /** YYYY-MM-DD HH:MM UTC. */
  generated: string;
}

export async function pageMeta(top: string, mainline: string | null, now = new Date()): Promise<PageMeta> {
  const [branch, head] = await Promise.all([
    run(symbolicRef('HEAD', { short: true }), { cwd: top }),
    run(peel('HEAD'), { cwd: top }),
  ]);
  return {
    repository: basename(top),
    branch: branch ?? 'HEAD',
    head,
    mainline,
    generated: `${now.toISOString().slice(0, 10)} ${now.toISOString().slice(11, 16)} UTC`,
  };
}
