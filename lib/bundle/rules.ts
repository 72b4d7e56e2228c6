/**
 * Rule definitions of a concept (docs/bundle.md `rules`): validated with zod/mini (the hooks load
 * this), compiled once per run. compileRule is shared with the built-in baseline.
 */
import * as z from 'zod/mini';
import { CATEGORIES, SEVERITIES } from '../core/vocabulary.js';
import { InputError } from '../core/errors.js';
import type { Rule, RuleDefinition } from './types.js';
import { ruleMessages as m } from '../messages/bundle.js';

const names = z.union([z.string(), z.array(z.string())]);

/** What of a file a `pattern` rule reads (docs/bundle.md "Rule keys"): code by default. */
export const RULE_TEXT = ['code', 'comments', 'strings', 'any'] as const;
/** A linter rule that enforces the same decision: `<linter>:<rule>` (`eslint:no-console`, `ruff:T201`). */
const EQUIVALENT = /^[a-z][\w.-]*:[^\s,]+$/;

export const ruleDefinitionSchema = z.strictObject({
  id: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, m.id)),
  pattern: z.string().check(z.minLength(1, m.empty)),
  flags: z.optional(z.string().check(z.regex(/^[dgimsuvy]*$/, m.flags))),
  severity: z.enum(SEVERITIES, m.oneOf(SEVERITIES)),
  category: z.optional(z.enum(CATEGORIES, m.oneOf(CATEGORIES))),
  title: z.string().check(
    z.minLength(1, m.empty),
    z.maxLength(80, m.titleLong),
    z.refine((t) => !/[\r\n]/.test(t), m.oneLine),
  ),
  message: z.optional(z.nullable(z.string())),
  confidence: z.optional(z.number().check(z.gte(0, m.unitInterval), z.lte(1, m.unitInterval))),
  paths: z.optional(names),
  exclude: z.optional(names),
  in: z.optional(z.enum(RULE_TEXT, m.oneOf(RULE_TEXT))),
  equivalent: z.optional(
    z.union([
      z.string().check(z.regex(EQUIVALENT, m.equivalent)),
      z.array(z.string().check(z.regex(EQUIVALENT, m.equivalent))),
    ]),
  ),
});

export type RuleDefinitionInput = z.input<typeof ruleDefinitionSchema>;

export type RuleParse = { ok: true; definition: RuleDefinition } | { ok: false; issues: RuleIssue[] };

export interface RuleIssue {
  path: Array<string | number>;
  message: string;
  /** 'required': the key is missing; 'type': present with a value of another kind (message: what it must be). */
  kind?: 'required' | 'type';
}

/** Applies the defaults (category architecture, confidence 1, no flags, no path limits). */
export function parseRuleDefinition(raw: unknown): RuleParse {
  const result = ruleDefinitionSchema.safeParse(raw);
  if (!result.success) {
    const given = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    return {
      ok: false,
      issues: result.error.issues.map((issue): RuleIssue => {
        const path = issue.path as Array<string | number>;
        if (issue.code === 'unrecognized_keys')
          return { path: [...path, ...(issue as { keys: string[] }).keys.slice(0, 1)], message: m.unknownKey };
        if (issue.code === 'invalid_type') {
          const expected = String((issue as { expected?: unknown }).expected ?? '');
          // zod/mini says only "Invalid input": name what is missing or what the value must be.
          if (path.length === 1 && given[path[0] as string] === undefined)
            return { path, message: m.required, kind: 'required' };
          return { path, message: m.mustBe(m.types[expected] ?? expected), kind: 'type' };
        }
        return { path, message: issue.message };
      }),
    };
  }
  const d = result.data;
  const common = ruleDefaults(d);
  // Spelled out in the definition's key order (JSON output, the bundle cache).
  return {
    ok: true,
    definition: {
      id: common.id,
      pattern: d.pattern,
      flags: d.flags ?? '',
      severity: common.severity,
      category: common.category,
      title: common.title,
      message: common.message,
      confidence: common.confidence,
      paths: common.paths,
      exclude: common.exclude,
      in: d.in ?? 'code',
      equivalent: common.equivalent,
    },
  };
}

/** The keys every kind of rule shares, with their defaults (category architecture, confidence 1, no path limits). */
export function ruleDefaults(d: {
  id: string;
  severity: RuleDefinition['severity'];
  category?: RuleDefinition['category'];
  title: string;
  message?: string | null;
  confidence?: number;
  paths?: string | string[];
  exclude?: string | string[];
  equivalent?: string | string[];
}): Omit<RuleDefinition, 'pattern' | 'flags' | 'in'> {
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  return {
    id: d.id,
    severity: d.severity,
    category: d.category ?? 'architecture',
    title: d.title,
    message: d.message ?? null,
    confidence: d.confidence ?? 1,
    paths: list(d.paths),
    exclude: list(d.exclude),
    equivalent: list(d.equivalent),
  };
}

/**
 * Builds the regex once. `g` and `y` are dropped: they make RegExp#test remember lastIndex
 * between lines. Throws InputError (naming the rule source) when the pattern does not compile.
 * `compiled`: the regex already built from def.pattern with ruleFlags(def.flags), to reuse.
 */
export function compileRule(
  def: RuleDefinition,
  ruleSource: string,
  documentId: string | null,
  compiled?: RegExp,
): Rule {
  const flags = ruleFlags(def.flags);
  let regex: RegExp;
  try {
    regex = compiled ?? new RegExp(def.pattern, flags);
  } catch (error) {
    throw new InputError(`${ruleSource}: pattern does not compile: ${(error as Error).message}`);
  }
  // Spelled out: a spread of the definition costs a few µs per rule in cold code, which a
  // fresh clone's thousands of rules feel. Same keys, same order (JSON output, the cache).
  return {
    id: def.id,
    pattern: def.pattern,
    flags,
    severity: def.severity,
    category: def.category,
    title: def.title,
    message: def.message,
    confidence: def.confidence,
    paths: def.paths,
    exclude: def.exclude,
    in: def.in,
    equivalent: def.equivalent,
    ruleSource,
    documentId,
    regex,
  };
}

/** The flags a rule's regex is built with: `g` and `y` dropped, each flag once. */
export function ruleFlags(flags: string): string {
  return flags === '' ? '' : [...new Set(flags.replace(/[gy]/g, ''))].join('');
}

// Where a rule runs lives apart (./rule-paths.ts), so reviewing does not load the definition schema.
export { ruleAppliesTo } from './rule-paths.js';
