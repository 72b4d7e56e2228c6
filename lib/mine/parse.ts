/**
 * Reads every `Review-Finding:` line of a commit message (docs/trailers.md, "Reading"): key
 * case-insensitive, continuation lines unfolded, whether or not git counts the line as a
 * trailer. git's own view (%(trailers)) only decides the placement; the grammars decide the rest.
 */
import { unfoldValue, type TrailerRow } from '../record/row.js';
import { parseRows } from '../record/row.js';
import { parseAdr0029, type AdrFinding } from '../record/adr0029.js';
import type { CommitResult, MinedFinding, Placement, RawCommit, RejectedRecord } from './types.js';
import { bodyWarning } from './record.js';
import { mineMessages as m } from '../messages/mine.js';

// At the start of a line (no indentation: an indented line continues the one before it).
const KEY_LINE = /^review-finding[ \t]*:/gim;

export interface FindingLine {
  /** The value after the key, continuation lines unfolded, trimmed. */
  value: string;
  /** The whole line as written, unfolded (for rejected records). */
  raw: string;
}

/** Every Review-Finding line of a message, in message order. */
export function findingLines(body: string): FindingLine[] {
  const lines: FindingLine[] = [];
  KEY_LINE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = KEY_LINE.exec(body)) !== null) {
    let end = body.indexOf('\n', match.index);
    if (end === -1) end = body.length;
    // trimEnd takes a CR before the newline too.
    const parts = [body.slice(match.index, end).trimEnd()];
    // Continuation lines: leading space or tab and something after it (a CR is not something).
    while (end < body.length) {
      const first = body.charCodeAt(end + 1);
      if (first !== 32 && first !== 9) break;
      const next = body.indexOf('\n', end + 1);
      const stop = next === -1 ? body.length : next;
      const line = body.slice(end + 1, stop);
      if (!/^[ \t]+\S/.test(line)) break;
      parts.push(line.trimEnd());
      end = stop;
    }
    // Exactly the newline and one space of each fold go (docs/trailers.md "Folding").
    const raw = unfoldValue(parts.join('\n'));
    const colon = raw.indexOf(':');
    lines.push({ value: raw.slice(colon + 1).trim(), raw });
    KEY_LINE.lastIndex = Math.max(end, match.index + 1);
  }
  return lines;
}

// Printable ASCII words with single spaces between them, none after a comma: nothing for normalize to change.
const NORMAL = /^(?!.*, )[!-~]+(?: [!-~]+)*$/;

/**
 * Whitespace differences (folding, indentation) do not make two values different; git's own
 * unfolding leaves a space after a folded comma where revtrail's leaves none.
 */
function normalize(value: string): string {
  // Most values are already normal: a test is cheaper than building a copy.
  return NORMAL.test(value) ? value : value.replace(/,\s+/g, ',').replace(/\s+/g, ' ').trim();
}

/**
 * Which lines git also sees as trailers. git's trailer block is the message's last paragraph,
 * so when a value appears twice, its later copies are the ones in the block.
 */
export function placements(lines: readonly FindingLine[], trailerValues: readonly string[]): Placement[] {
  // Usually every line is one of git's values as it is: then each is in the block whatever the
  // whitespace, and no value needs normalizing (a copy of each, a large run's most made text).
  if (lines.length <= trailerValues.length) {
    const verbatim = new Map<string, number>();
    for (const v of trailerValues) verbatim.set(v, (verbatim.get(v) ?? 0) + 1);
    let all = true;
    for (let i = lines.length - 1; i >= 0 && all; i--) {
      // A value with something to trim is left to normalize (an empty key is no value).
      const value = lines[i]!.value;
      const n = value && value.trim() === value ? (verbatim.get(value) ?? 0) : 0;
      if (n > 0) verbatim.set(value, n - 1);
      else all = false;
    }
    if (all) return lines.map(() => 'trailer');
  }
  const left = new Map<string, number>();
  for (const v of trailerValues) {
    const key = normalize(v);
    if (key) left.set(key, (left.get(key) ?? 0) + 1);
  }
  const result: Placement[] = new Array(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) {
    const key = normalize(lines[i]!.value);
    const n = left.get(key) ?? 0;
    if (n > 0) {
      result[i] = 'trailer';
      left.set(key, n - 1);
    } else {
      result[i] = 'body';
    }
  }
  return result;
}

/** Every finding, rejected line and warning of one commit. Never throws on content. */
export function parseCommit(raw: RawCommit): CommitResult {
  return parseCommits([raw])[0]!;
}

interface Pending {
  raw: RawCommit;
  line: FindingLine;
  placement: Placement;
  /** Index into the CSV values of the batch, or the adr-0029 reading / rejection. */
  csv: number;
  done: MinedFinding | RejectedRecord | null;
}

/**
 * parseCommit for a batch of commits: the CSV rows of the whole batch are read in one go
 * (see rows.ts). Results keep commit order and, within a commit, message order.
 */
export function parseCommits(raws: readonly RawCommit[]): CommitResult[] {
  const perCommit: Pending[][] = [];
  const values: string[] = [];
  for (const raw of raws) {
    const lines = findingLines(raw.body);
    const where = lines.length ? placements(lines, raw.trailerValues) : [];
    perCommit.push(
      lines.map((line, i) => {
        const pending: Pending = { raw, line, placement: where[i]!, csv: -1, done: null };
        const reject = (reason: string): RejectedRecord => ({
          type: 'rejected',
          commit: raw.commit,
          raw: line.raw,
          reason,
        });
        if (!line.value) {
          pending.done = reject(m.emptyValue);
          return pending;
        }
        const adr = parseAdr0029(line.value);
        if (adr) pending.done = adr.ok ? adrFinding(raw, adr.finding, pending.placement) : reject(adr.reason);
        else {
          pending.csv = values.length;
          values.push(line.value);
        }
        return pending;
      }),
    );
  }
  const rows = values.length ? parseRows(values) : [];
  return raws.map((raw, c) => {
    const result: CommitResult = { commit: raw.commit, findings: [], rejected: [], warnings: [] };
    for (const p of perCommit[c]!) {
      let item = p.done;
      if (!item) {
        const row = rows[p.csv]!;
        item = row.ok
          ? csvFinding(raw, row.row, p.placement)
          : { type: 'rejected', commit: raw.commit, raw: p.line.raw, reason: row.reason };
      }
      if ('reason' in item) {
        result.rejected.push(item);
        continue;
      }
      result.findings.push(item);
      if (item.placement === 'body') result.warnings.push(bodyWarning(raw.commit, item.id));
    }
    return result;
  });
}

function adrFinding(raw: RawCommit, f: AdrFinding, placement: Placement): MinedFinding {
  return {
    commit: raw.commit,
    date: raw.date,
    author: raw.author,
    id: f.id,
    file: f.file,
    line: f.line,
    rule_source: f.ruleSource,
    category: f.category,
    severity: f.severity,
    issue: f.text,
    verdict: 'OPEN',
    rationale: '',
    placement,
    grammar: 'adr-0029',
    raw_severity: f.rawSeverity,
  };
}

function csvFinding(raw: RawCommit, r: TrailerRow, placement: Placement): MinedFinding {
  return {
    commit: raw.commit,
    date: raw.date,
    author: raw.author,
    id: r.id,
    file: r.file,
    line: r.line,
    rule_source: r.rule_source,
    category: r.category,
    severity: r.severity,
    issue: r.issue,
    verdict: r.verdict,
    rationale: r.rationale,
    placement,
    grammar: 'csv',
  };
}
