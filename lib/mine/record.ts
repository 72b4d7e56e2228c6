/**
 * The canonical JSON line of each record: what `mine` prints by default and what the cache
 * stores, so a cached run can be written out without being parsed again.
 */
import type { CommitResult, MinedFinding, MineWarning, RejectedRecord } from './types.js';
import { redactAuthor } from './redact.js';
import { mineMessages as m } from '../messages/mine.js';

/** SPEC §7's fields in its order (plus raw_severity on adr-0029 records). */
export function outputRecord(f: MinedFinding, redact = false): MinedFinding {
  const record: MinedFinding = {
    commit: f.commit,
    date: f.date,
    author: redact ? redactAuthor(f.author) : f.author,
    id: f.id,
    file: f.file,
    line: f.line,
    rule_source: f.rule_source,
    category: f.category,
    severity: f.severity,
    issue: f.issue,
    verdict: f.verdict,
    rationale: f.rationale,
    placement: f.placement,
    grammar: f.grammar,
  };
  if (f.raw_severity) record.raw_severity = f.raw_severity;
  return record;
}

export function rejectedRecord(r: RejectedRecord): RejectedRecord {
  return { type: 'rejected', commit: r.commit, raw: r.raw, reason: r.reason };
}

const REJECTED_PREFIX = '{"type":"rejected"';

/** The warning a finding outside git's trailer block earns. */
export function bodyWarning(commit: string, id: string): MineWarning {
  return { type: 'warning', commit, id, message: m.bodyPlacement(id) };
}

/** One commit's mined records, as objects or as their JSON lines, each made from the other on demand. */
export class MinedCommit {
  private cachedLines: string[] | null;
  private cachedResult: CommitResult | null;

  constructor(readonly commit: string, source: { lines: string[] } | { result: CommitResult }) {
    this.cachedLines = 'lines' in source ? source.lines : null;
    this.cachedResult = 'result' in source ? source.result : null;
  }

  get lines(): string[] {
    if (!this.cachedLines) {
      const r = this.cachedResult!;
      this.cachedLines = [...r.findings.map((f) => JSON.stringify(outputRecord(f))), ...r.rejected.map((x) => JSON.stringify(rejectedRecord(x)))];
    }
    return this.cachedLines;
  }

  get result(): CommitResult {
    if (!this.cachedResult) {
      const result: CommitResult = { commit: this.commit, findings: [], rejected: [], warnings: [] };
      for (const line of this.cachedLines!) {
        if (line.startsWith(REJECTED_PREFIX)) result.rejected.push(JSON.parse(line) as RejectedRecord);
        else {
          const f = JSON.parse(line) as MinedFinding;
          result.findings.push(f);
          if (f.placement === 'body') result.warnings.push(bodyWarning(f.commit, f.id));
        }
      }
      this.cachedResult = result;
    }
    return this.cachedResult;
  }

  /** Warnings and rejected lines only, without reading every record (the CLI prints these). */
  notices(): { warnings: MineWarning[]; rejected: RejectedRecord[] } {
    if (this.cachedResult) return { warnings: this.cachedResult.warnings, rejected: this.cachedResult.rejected };
    const warnings: MineWarning[] = [];
    const rejected: RejectedRecord[] = [];
    for (const line of this.cachedLines!) {
      if (line.startsWith(REJECTED_PREFIX)) rejected.push(JSON.parse(line) as RejectedRecord);
      // placement is the last field but one or two: look only at the end of the line.
      else if (line.slice(-96).includes('"placement":"body"')) {
        const f = JSON.parse(line) as MinedFinding;
        if (f.placement === 'body') warnings.push(bodyWarning(f.commit, f.id));
      }
    }
    return { warnings, rejected };
  }
}

const COMMIT_FIELD = /"commit":"([0-9a-f]+)"/;

/** The commit a cached line belongs to (the first "commit" key: it precedes every free-text field). */
export function commitOfLine(line: string): string {
  return COMMIT_FIELD.exec(line)?.[1] ?? '';
}
