/**
 * The finding contract (docs/review.md), the part every review needs: ids, scope checks and
 * the limits. The zod schema that is the source of the strict JSON shape lives in
 * ./schema.ts and loads only once a finding exists to check: a clean commit never
 * starts zod (docs/hooks.md "Start-up").
 */
import { crypto } from '../../core/node-module.js';
import type { DropReason, Finding } from '../types.js';
import { RULE_SOURCE_PATTERN } from '../../core/rule-source.js';
import { contractMessages as m } from '../../messages/review.js';

// Same grammar as the trailer's rule_source, so every finding can be recorded.
export { RULE_SOURCE_PATTERN };
export const TITLE_MAX = 80;
export const SUGGESTION_MAX_LINES = 6;

/**
 * `rf-` + 10 hex of sha1(rule_source, path, trimmed line text, occurrence). No line number goes
 * in, so the id survives edits above the finding; the occurrence index tells repeats apart.
 */
export function findingId(ruleSource: string, path: string, lineText: string, occurrence: number): string {
  const hash = crypto().createHash('sha1');
  hash.update(`${ruleSource}\0${path}\0${lineText.trim()}\0${occurrence}`);
  return `rf-${hash.digest('hex').slice(0, 10)}`;
}

/** A finding before ids are assigned. */
export type FindingDraft = Omit<Finding, 'id'>;

/** What a rule (regex, syntax-tree or import) says of every finding it raises. */
export interface RuleFacts {
  severity: Finding['severity'];
  category: Finding['category'];
  title: string;
  message: string | null;
  confidence: number;
  ruleSource: string;
  documentId: string | null;
}

/** A rule's finding at one line: its words, its document cited (one builder for every rule kind). */
export function ruleDraft(
  rule: RuleFacts,
  path: string,
  line: number,
  overrides: Partial<Pick<FindingDraft, 'title' | 'body' | 'confidence'>> = {},
): FindingDraft {
  return {
    path,
    start_line: line,
    line,
    side: 'RIGHT',
    severity: rule.severity,
    category: rule.category,
    title: overrides.title ?? rule.title,
    body: overrides.body ?? rule.message ?? rule.title,
    rule_source: rule.ruleSource,
    citations: rule.documentId ? [rule.documentId] : [],
    suggestion_code: null,
    confidence: overrides.confidence ?? rule.confidence,
  };
}

export type Checked = { ok: true; finding: FindingDraft } | { ok: false; reason: DropReason; message: string };

/** Where a finding may point and what it may cite, for one chunk. */
export interface ChunkScope {
  path: string;
  changedLines: ReadonlySet<number>;
  /** IDs of the documents selected (matched) for the chunk. */
  allowedCitations: ReadonlySet<string>;
}

/** Compact `10-14, 20` form of a set of line numbers, for error messages. */
export function describeLines(lines: ReadonlySet<number>): string {
  const sorted = [...lines].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
    if (parts.length >= 12 && i < sorted.length) {
      parts.push('…');
      break;
    }
  }
  return parts.join(', ') || 'none';
}

/**
 * The checks beyond shape (docs/review.md): confidence first (a doubtful finding is not worth asking
 * about again), then the lines, then the citations.
 */
export function checkInScope(f: FindingDraft, scope: ChunkScope, minConfidence: number): Checked {
  if (f.confidence < minConfidence) {
    return { ok: false, reason: 'low_confidence', message: m.lowConfidence(f.confidence, minConfidence) };
  }
  if (f.path !== scope.path) {
    return { ok: false, reason: 'off_diff', message: m.otherFile(f.path, scope.path) };
  }
  if (f.start_line > f.line) {
    return { ok: false, reason: 'off_diff', message: m.startAfterLine(f.start_line, f.line) };
  }
  for (const n of new Set([f.start_line, f.line])) {
    if (!scope.changedLines.has(n)) {
      return {
        ok: false,
        reason: 'off_diff',
        message: m.notChanged(n, scope.path, describeLines(scope.changedLines)),
      };
    }
  }
  if (f.category === 'architecture' && f.citations.length === 0) {
    return { ok: false, reason: 'bad_citation', message: m.uncitedArchitecture };
  }
  const unknown = f.citations.filter((c) => !scope.allowedCitations.has(c));
  if (unknown.length) {
    const allowed = [...scope.allowedCitations];
    return {
      ok: false,
      reason: 'bad_citation',
      message: m.unknownCitation(unknown, allowed),
    };
  }
  return { ok: true, finding: f };
}

/**
 * Stable ids for a set of findings; occurrences count repeats of (rule_source, path, identity) in
 * line order. `identity`: the finding's line text (a key block's header with its block).
 */
export function assignIds(drafts: readonly FindingDraft[], identity: (draft: FindingDraft) => string): Finding[] {
  const order = drafts
    .map((d, index) => ({ d, index }))
    .sort((a, b) =>
      a.d.path < b.d.path
        ? -1
        : a.d.path > b.d.path
          ? 1
          : a.d.line - b.d.line || a.d.start_line - b.d.start_line || a.index - b.index,
    );
  const seen = new Map<string, number>();
  const ids = new Array<string>(drafts.length);
  for (const { d, index } of order) {
    const text = identity(d).trim();
    const key = `${d.rule_source}\0${d.path}\0${text}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    ids[index] = findingId(d.rule_source, d.path, text, occurrence);
  }
  return drafts.map((d, i) => ({ id: ids[i]!, ...d }));
}
