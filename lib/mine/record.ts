/**
 * The canonical JSON line of each record: what `mine` prints by default and what the cache
 * stores, so a cached run can be written out without being parsed again.
 */
import type { CommitResult, MinedFinding, MineWarning, RejectedRecord } from './types.js';
import { redactAuthor } from './redact.js';
import { mineMessages as m } from '../messages/mine.js';
import { jsonForTerminal } from '../core/output.js';

/** The mined record's fields in their documented order (docs/mining.md) (plus raw_severity on adr-0029 records). */
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

/** The empty list every held commit without rejected lines or warnings shares (frozen: held records are read only). */
const NONE: never[] = Object.freeze([]) as unknown as never[];

/** A list as held: exactly its length (a list grown by push keeps room for 16 more), or NONE. */
function exact<T>(list: T[]): T[] {
  return list.length === 0 ? NONE : list.length === 1 ? [list[0]!] : list.slice();
}

/**
 * One copy of each text that recurs across a history's records (rule sources, issues, files,
 * authors, finding IDs): a history read back from the cache is held whole by candidates and
 * stats, and JSON.parse gives every record its own copies. Bounded: past the limit, texts are
 * just not shared.
 */
export class StringPool {
  private readonly seen = new Map<string, string>();
  /** `own`: the text is no view into a bigger one (JSON.parse's are not), so it needs no copy. */
  share(text: string, own = false): string {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    const kept = own ? text : ownCopy(text);
    if (text.length <= 200 && this.seen.size < 100_000) this.seen.set(kept, kept);
    return kept;
  }

  /**
   * A commit's records, kept: texts shared, lists exactly as long as they are, and no text a
   * view into git's output. `own`: the records' texts are their own already (JSON.parse's).
   */
  hold(result: CommitResult, own = false): void {
    const copy = own ? (text: string) => text : ownCopy;
    const commit = copy(result.commit);
    result.commit = commit;
    let date = '';
    let dateOwn = '';
    for (const f of result.findings) {
      f.commit = commit;
      if (f.date !== date) dateOwn = copy((date = f.date));
      f.date = dateOwn;
      f.author = this.share(f.author, own);
      f.id = this.share(f.id, own);
      if (f.file !== null) f.file = this.share(f.file, own);
      if (f.line !== null) f.line = this.share(f.line, own);
      f.rule_source = this.share(f.rule_source, own);
      f.category = this.share(f.category, own);
      f.severity = this.share(f.severity, own);
      f.issue = this.share(f.issue, own);
      f.rationale = this.share(f.rationale, own);
    }
    for (const r of result.rejected) {
      r.commit = commit;
      r.raw = copy(r.raw);
      r.reason = this.share(r.reason, own);
    }
    for (const w of result.warnings) w.commit = commit;
    // Lists read back from the cache are exact already (MinedCommit.result).
    if (own) return;
    result.findings = exact(result.findings);
    result.rejected = exact(result.rejected);
    result.warnings = exact(result.warnings);
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

  constructor(
    readonly commit: string,
    source: { lines: string[]; pool?: StringPool } | { result: CommitResult },
  ) {
    this.cachedLines = 'lines' in source ? source.lines : null;
    this.cachedResult = 'result' in source ? source.result : null;
    this.pool = 'lines' in source ? source.pool : undefined;
  }

  get lines(): string[] {
    if (!this.cachedLines) {
      const r = this.cachedResult!;
      // Lines as printed (and cached): JSON with nothing a terminal acts on (core/output.ts).
      this.cachedLines = [
        ...r.findings.map((f) => jsonForTerminal(JSON.stringify(outputRecord(f)))),
        ...r.rejected.map((x) => jsonForTerminal(JSON.stringify(rejectedRecord(x)))),
      ];
    }
    return this.cachedLines;
  }

  get result(): CommitResult {
    if (!this.cachedResult) {
      const lines = this.cachedLines!;
      // Parsed into a list of exactly their number: usually every line is a finding.
      const records = lines.map((line) => JSON.parse(line) as MinedFinding | RejectedRecord);
      // Every list exactly as long as it is (a held history keeps them), empty ones shared when held.
      const none = (): never[] => (this.pool ? NONE : []);
      const result: CommitResult = {
        commit: '',
        findings: records as MinedFinding[],
        rejected: none(),
        warnings: none(),
      };
      if (records.some((r) => 'type' in r)) {
        result.findings = exact(records.filter((r): r is MinedFinding => !('type' in r)));
        result.rejected = exact(records.filter((r): r is RejectedRecord => 'type' in r));
      }
      let warnings: MineWarning[] | null = null;
      for (const f of result.findings) if (f.placement === 'body') (warnings ??= []).push(bodyWarning(f.commit, f.id));
      if (warnings) result.warnings = exact(warnings);
      // A record's commit, not this.commit: that one was cut out of a cache read and would keep
      // the whole read alive.
      result.commit = records[0]?.commit ?? ownCopy(this.commit);
      this.pool?.hold(result, true);
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
