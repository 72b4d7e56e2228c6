/**
 * The finding contract's schema (docs/review.md): one zod schema is the source of the strict JSON
 * shape, of the JSON Schema handed to reviewer programs (./index.ts), and of every check a
 * finding passes before it counts. Loaded only when a finding exists (./contract.ts).
 */
import * as z from 'zod/mini';
import { CATEGORIES, SEVERITIES } from '../../core/vocabulary.js';
import { RULE_SOURCE_PATTERN, SUGGESTION_MAX_LINES, TITLE_MAX, type Checked, type FindingDraft } from './contract.js';

const lineNumber = z.int().check(z.positive());
// Plain patterns (not refinements) so the JSON Schema carries the same limits the check applies.
const title = z.string().check(z.minLength(1), z.maxLength(TITLE_MAX), z.regex(/^[^\r\n]*$/, 'must be one line'));
const suggestion = z.nullable(
  z
    .string()
    .check(
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

function valueAt(raw: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = raw;
  for (const key of path)
    value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
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
      const got =
        typeof value === 'string' ? ` (got ${value.length})` : typeof value === 'number' ? ` (got ${value})` : '';
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
      return issue.message && issue.message !== 'Invalid input'
        ? `${where}: ${issue.message}`
        : `${where}: does not match ${issue.pattern ?? issue.format}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

function describeIssues(error: z.core.$ZodError, raw: unknown): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => describeIssue(issue, raw))
    .join('; ');
}

/** Schema check of a reviewer program's finding; fills side and a default rule_source. */
export function parseSubmitted(raw: unknown, defaultRuleSource: string): Checked {
  const result = submittedFindingSchema.safeParse(raw);
  if (!result.success) return { ok: false, reason: 'invalid', message: describeIssues(result.error, raw) };
  const { id: _ignored, ...rest } = result.data;
  return {
    ok: true,
    finding: {
      ...rest,
      side: 'RIGHT',
      rule_source: rest.rule_source ?? defaultRuleSource,
      suggestion_code: rest.suggestion_code,
    },
  };
}

/** Schema check of a finding revtrail built itself (from a rule): the same contract applies. */
export function checkShape(draft: FindingDraft): Checked {
  const candidate = { ...draft, id: 'rf-0000000000' };
  const result = findingSchema.safeParse(candidate);
  return result.success
    ? { ok: true, finding: draft }
    : { ok: false, reason: 'invalid', message: describeIssues(result.error, candidate) };
}
