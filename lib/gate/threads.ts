/** Threads (SPEC §8): every occurrence of one finding ID, oldest first; state = latest verdict. */
import type { CommitResult, MinedFinding } from '../mine/types.js';
import type { Thread } from './types.js';

/** `commits` in git log order (newest first), as mining yields them. Threads come oldest first. */
export function buildThreads(commits: readonly CommitResult[]): Thread[] {
  const byId = new Map<string, MinedFinding[]>();
  for (let c = commits.length - 1; c >= 0; c--) {
    for (const f of commits[c]!.findings) {
      const list = byId.get(f.id);
      if (list) list.push(f);
      else byId.set(f.id, [f]);
    }
  }
  const threads: Thread[] = [];
  for (const [id, occurrences] of byId) {
    const latest = occurrences[occurrences.length - 1]!;
    let located: MinedFinding | undefined;
    for (let i = occurrences.length - 1; i >= 0 && !located; i--) if (occurrences[i]!.file) located = occurrences[i];
    threads.push({
      id,
      occurrences,
      state: latest.verdict,
      rule_source: latest.rule_source,
      file: located?.file ?? null,
      line: located?.line ?? null,
      issue: latest.issue,
      category: latest.category,
    });
  }
  return threads;
}

/** The occurrence carrying the latest ACCEPT, if any. */
export function latestAccept(thread: Thread): MinedFinding | null {
  for (let i = thread.occurrences.length - 1; i >= 0; i--) if (thread.occurrences[i]!.verdict === 'ACCEPT') return thread.occurrences[i]!;
  return null;
}
