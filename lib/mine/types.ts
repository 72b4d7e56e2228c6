/** What mining reads out of history (docs/mining.md): one record per Review-Finding occurrence. */
import type { Verdict } from '../core/vocabulary.js';

export type Placement = 'trailer' | 'body';
export type Grammar = 'csv' | 'adr-0029';
import type { AdrSeverity } from '../core/vocabulary.js';
export { ADR_SEVERITIES, type AdrSeverity } from '../core/vocabulary.js';

/**
 * One occurrence of a finding in one commit. The fourteen fields are the mined record's (docs/mining.md), in its order;
 * `raw_severity` exists only on `adr-0029` records (whose `severity` is mapped onto the finding's severities).
 * There is no `type` field: a finding record is told from a rejected one by the absence of
 * `type` (rejected records carry `type: "rejected"`).
 */
export interface MinedFinding {
  commit: string;
  /** Committer date, ISO 8601 with the committer's offset (`%cI`). */
  date: string;
  /** `Name <email>` (redacted on output with --redact). */
  author: string;
  id: string;
  file: string | null;
  /** `N` or `N-M` as in the trailer; null when an adr-0029 text names no `path:line`. */
  line: string | null;
  rule_source: string;
  category: string;
  severity: string;
  issue: string;
  verdict: Verdict;
  rationale: string;
  placement: Placement;
  grammar: Grammar;
  raw_severity?: AdrSeverity;
}

/** A `Review-Finding:` line that fits neither grammar. Mining never aborts on one. */
export interface RejectedRecord {
  type: 'rejected';
  commit: string;
  raw: string;
  reason: string;
}

/** Something a user should know about an occurrence that was still read (body placement). */
export interface MineWarning {
  type: 'warning';
  commit: string;
  id: string | null;
  message: string;
}

/** Everything mining found in one commit, in message order. */
export interface CommitResult {
  commit: string;
  findings: MinedFinding[];
  rejected: RejectedRecord[];
  warnings: MineWarning[];
}

/** A commit as git log hands it over. */
export interface RawCommit {
  commit: string;
  date: string;
  author: string;
  body: string;
  /** git's own view: `%(trailers:key=Review-Finding,valueonly,unfold)` values. */
  trailerValues: string[];
}
