/**
 * The one reading rule of the counting consumers (docs/record.md "Counting"): a record is a row
 * git sees as a trailer. `stats`, `candidates` and the review's calibration count those, as the
 * push gate and `verdict --list` do (they read git's own trailer view); a row in the message
 * body (placement "body", which `mine` still lists, with a warning) is counted by none of them.
 */
import type { CommitResult } from './types.js';

export interface BodyRow {
  commit: string;
  id: string;
}

/** The mined commits with only the findings git sees as trailers, and the body rows left out. */
export function countedCommits(commits: readonly CommitResult[]): { commits: CommitResult[]; body: BodyRow[] } {
  const body: BodyRow[] = [];
  const out = commits.map((c) => {
    if (!c.findings.some((f) => f.placement === 'body')) return c;
    for (const f of c.findings) if (f.placement === 'body') body.push({ commit: f.commit, id: f.id });
    return { ...c, findings: c.findings.filter((f) => f.placement !== 'body') };
  });
  return { commits: out, body };
}
