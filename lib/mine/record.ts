/**
 * The canonical JSON line of each record: what `mine` prints by default and what the cache
 * stores, so a cached run can be written out without being parsed again.
 */
import type { CommitResult, MinedFinding, MineWarning, RejectedRecord } from './types.js';
import { redactAuthor } from './redact.js';
import { mineMessages as m } from '../messages/mine.js';
import { jsonForTerminal } from '../core/output.js';

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

/**
 * One copy of each text that recurs across a history's records (rule sources, issues, files,
 * authors, finding IDs): a history read back from the cache is held whole by candidates and
 * stats, and JSON.parse gives every record its own copies. Bounded: past the limit, texts are
 * just not shared.
 */
export class StringPool {
  private readonly seen = new Map<string, string>();
  share(text: string): string {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    if (text.length > 200 || this.seen.size >= 100_000) return ownCopy(text);
    const own = ownCopy(text);
    this.seen.set(own, own);
    return own;
  }

  /** A commit's records, kept: texts shared, and none of them a view into git's output. */
  hold(result: CommitResult): void {
    const commit = ownCopy(result.commit);
    result.commit = commit;
    let date = '';
    let dateOwn = '';
    for (const f of result.findings) {
      f.commit = commit;
      if (f.date !== date) dateOwn = ownCopy((date = f.date));
      f.date = dateOwn;
      f.author = this.share(f.author);
      f.id = this.share(f.id);
      if (f.file !== null) f.file = this.share(f.file);
      if (f.line !== null) f.line = this.share(f.line);
      f.rule_source = this.share(f.rule_source);
      f.category = this.share(f.category);
      f.severity = this.share(f.severity);
      f.issue = this.share(f.issue);
      f.rationale = this.share(f.rationale);
    }
    for (const r of result.rejected) {
      r.commit = commit;
      r.raw = ownCopy(r.raw);
      r.reason = this.share(r.reason);
    }
    for (const w of result.warnings) w.commit = commit;
  }
}

/**
 * A copy of a text that does not keep the text it was cut from alive. (V8 makes a substring of
 * 13 characters or more a view into the whole; a concatenation, once read, is a new string.)
 */
export function ownCopy(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** One commit's mined records, as objects or as their JSON lines, each made from the other on demand. */
export class MinedCommit {
  private cachedLines: string[] | null;
  private cachedResult: CommitResult | null;
  private readonly pool: StringPool | undefined;

  constructor(readonly commit: string, source: { lines: string[]; pool?: StringPool } | { result: CommitResult }) {
    this.cachedLines = 'lines' in source ? source.lines : null;
    this.cachedResult = 'result' in source ? source.result : null;
    this.pool = 'lines' in source ? source.pool : undefined;
  }

  get lines(): string[] {
    if (!this.cachedLines) {
      const r = this.cachedResult!;
      // Lines as printed (and cached): JSON with nothing a terminal acts on (core/output.ts).
      this.cachedLines = [...r.findings.map((f) => jsonForTerminal(JSON.stringify(outputRecord(f)))), ...r.rejected.map((x) => jsonForTerminal(JSON.stringify(rejectedRecord(x))))];
    }
    return this.cachedLines;
  }

  get result(): CommitResult {
    if (!this.cachedResult) {
      const result: CommitResult = { commit: this.commit, findings: [], rejected: [], warnings: [] };
      for (const line of this.cachedLines!) {
        const record = JSON.parse(line) as MinedFinding | RejectedRecord;
        if ('type' in record) result.rejected.push(record);
        else {
          result.findings.push(record);
          if (record.placement === 'body') result.warnings.push(bodyWarning(record.commit, record.id));
        }
      }
      // this.commit was cut out of a cache read and would keep the whole read alive.
      result.commit = ownCopy(result.commit);
      this.pool?.hold(result);
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
