/**
 * The finding contract (docs/review.md): one zod schema is the source of the strict JSON shape, of the
 * JSON Schema handed to reviewer programs (./finding.ts), and of every check a finding passes
 * before it counts. zod/mini: the commit-msg hook loads this module; the JSON Schema converter,
 * a large module, is left to ./finding.ts, which only reviewer programs need.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { CATEGORIES, SEVERITIES } from '../core/vocabulary.js';
import type { DropReason, Finding } from './types.js';
import { RULE_SOURCE_PATTERN } from '../core/trailer/rule-source.js';

// Same grammar as the trailer's rule_source, so every finding can be recorded.
export { RULE_SOURCE_PATTERN };
export const TITLE_MAX = 80;
export const SUGGESTION_MAX_LINES = 6;

const lineNumber = z.int().check(z.positive());
// Plain patterns (not refinements) so the JSON Schema carries the same limits the check applies.
const title = z.string().check(
  z.minLength(1),
  z.maxLength(TITLE_MAX),
  z.regex(/^[^\r\n]*$/, 'must be one line'),
);
const suggestion = z.nullable(
  z.string().check(
    z.regex(
      new RegExp(`^(?:[^\\n]*\\n){0,${SUGGESTION_MAX_LINES - 1}}[^\\n]*\\n?$`),
      `must be at most ${SUGGESTION_MAX_LINES} lines`,
    ),
  ),
);

const common = {
  path: z.string().check(z.minLength(1)),
  start_line: lineNumber,
  line: lineNumber,
  severity: z.enum(SEVERITIES),
  category: z.enum(CATEGORIES),
  title,
  body: z.string(),
  citations: z.array(z.string().check(z.minLength(1))),
  suggestion_code: suggestion,
  confidence: z.number().check(z.gte(0), z.lte(1)),
};

/** A finding as revtrail outputs it: every field present, id computed by `findingId`. */
export const findingSchema = z.strictObject({
  id: z.string().check(z.regex(/^rf-[0-9a-f]{10}$/, 'must be rf- and 10 lowercase hex digits')),
  ...common,
  side: z.literal('RIGHT'),
  rule_source: z.string().check(z.regex(RULE_SOURCE_PATTERN, 'must be name[/section]:rule-id')),
});

/**
 * A finding as a reviewer program submits it: the same fields, except that revtrail assigns
 * `id` (always recomputed, so it is stable), `side` and, when absent, `rule_source`.
 */
export const submittedFindingSchema = z.strictObject({
  id: z.optional(z.string()),
  ...common,
  side: z.optional(z.literal('RIGHT')),
  rule_source: z.optional(z.string().check(z.regex(RULE_SOURCE_PATTERN, 'must be name[/section]:rule-id'))),
});

/**
 * `rf-` + 10 hex of sha1(rule_source, path, trimmed line text, occurrence). No line number goes
 * in, so the id survives edits above the finding; the occurrence index tells repeats apart.
 */
export function findingId(ruleSource: string, path: string, lineText: string, occurrence: number): string {
  const hash = createHash('sha1');
  hash.update(`${ruleSource}\0${path}\0${lineText.trim()}\0${occurrence}`);
  return `rf-${hash.digest('hex').slice(0, 10)}`;
}

/** A finding before ids are assigned. */
export type FindingDraft = Omit<Finding, 'id'>;

export type Checked = { ok: true; finding: FindingDraft } | { ok: false; reason: DropReason; message: string };

function valueAt(raw: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = raw;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * zod/mini carries no message texts (no locale loaded), so the contract's own words: they go to
 * the user in warnings and back to a reviewer program in `errors`.
 */
function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const where = issue.path.length ? issue.path.join('.') : 'finding';
  const value = valueAt(raw, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined && issue.path.length) return `${where}: required`;
      return `${where}: expected ${issue.expected === 'int' ? 'an integer' : issue.expected}, received ${kindOf(value)}${
        typeof value === 'number' ? ` ${value}` : ''
      }`;
    case 'too_big': {
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      const got = typeof value === 'string' ? ` (got ${value.length})` : typeof value === 'number' ? ` (got ${value})` : '';
      return `${where}: must be at most ${issue.maximum}${unit}${got}`;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${where}: must not be empty`;
      return `${where}: must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}${issue.origin === 'string' ? ' characters' : ''}${
        typeof value === 'number' ? ` (got ${value})` : ''
      }`;
    case 'invalid_value':
      return `${where}: ${JSON.stringify(value)} is not one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return issue.message && issue.message !== 'Invalid input' ? `${where}: ${issue.message}` : `${where}: does not match ${issue.pattern ?? issue.format}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

function describeIssues(error: z.core.$ZodError, raw: unknown): string {
  return error.issues.slice(0, 3).map((issue) => describeIssue(issue, raw)).join('; ');
}

/** Schema check of a reviewer program's finding; fills side and a default rule_source. */
export function parseSubmitted(raw: unknown, defaultRuleSource: string): Checked {
  const result = submittedFindingSchema.safeParse(raw);
  if (!result.success) return { ok: false, reason: 'invalid', message: describeIssues(result.error, raw) };
  const { id: _ignored, ...rest } = result.data;
  return {
    ok: true,
    finding: { ...rest, side: 'RIGHT', rule_source: rest.rule_source ?? defaultRuleSource, suggestion_code: rest.suggestion_code },
  };
}

/** Schema check of a finding revtrail built itself (from a rule): the same contract applies. */
export function checkShape(draft: FindingDraft): Checked {
  const candidate = { ...draft, id: 'rf-0000000000' };
  const result = findingSchema.safeParse(candidate);
  return result.success ? { ok: true, finding: draft } : { ok: false, reason: 'invalid', message: describeIssues(result.error, candidate) };
}

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
    return { ok: false, reason: 'low_confidence', message: `confidence ${f.confidence} is below ${minConfidence}` };
  }
  if (f.path !== scope.path) {
    return { ok: false, reason: 'off_diff', message: `path "${f.path}" is not the chunk's file "${scope.path}"` };
  }
  if (f.start_line > f.line) {
    return { ok: false, reason: 'off_diff', message: `start_line ${f.start_line} is after line ${f.line}` };
  }
  for (const n of new Set([f.start_line, f.line])) {
    if (!scope.changedLines.has(n)) {
      return {
        ok: false,
        reason: 'off_diff',
        message: `line ${n} is not a changed line of ${scope.path} (changed: ${describeLines(scope.changedLines)})`,
      };
    }
  }
  if (f.category === 'architecture' && f.citations.length === 0) {
    return { ok: false, reason: 'bad_citation', message: 'an architecture finding must cite at least one selected document' };
  }
  const unknown = f.citations.filter((c) => !scope.allowedCitations.has(c));
  if (unknown.length) {
    const allowed = [...scope.allowedCitations];
    return {
      ok: false,
      reason: 'bad_citation',
      message: `cites ${unknown.map((c) => `"${c}"`).join(', ')}, not a document selected for this chunk (allowed: ${allowed.length ? allowed.join(', ') : 'none'})`,
    };
  }
  return { ok: true, finding: f };
}

/** Stable ids for a set of findings; occurrences count repeats of (rule_source, path, line text) in line order. */
export function assignIds(drafts: readonly FindingDraft[], lineText: (path: string, line: number) => string): Finding[] {
  const order = drafts
    .map((d, index) => ({ d, index }))
    .sort((a, b) => (a.d.path < b.d.path ? -1 : a.d.path > b.d.path ? 1 : a.d.line - b.d.line || a.d.start_line - b.d.start_line || a.index - b.index));
  const seen = new Map<string, number>();
  const ids = new Array<string>(drafts.length);
  for (const { d, index } of order) {
    const text = lineText(d.path, d.line).trim();
    const key = `${d.rule_source}\0${d.path}\0${text}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    ids[index] = findingId(d.rule_source, d.path, text, occurrence);
  }
  return drafts.map((d, i) => ({ id: ids[i]!, ...d }));
}
