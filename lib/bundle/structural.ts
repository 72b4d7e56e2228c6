/**
 * Structural rules of a concept (docs/structural.md): an `ast` pattern matched on the syntax tree
 * of a changed file's new version, or an `imports` boundary over the file's imports. Read here as
 * plain data (the bundle cache keeps them as they are); parsed and matched by the review's
 * structural engine (lib/review/structural/), which alone loads a parser.
 */
import * as z from 'zod/mini';
import type { CATEGORIES, SEVERITIES } from '../core/vocabulary.js';
import { ruleDefaults, ruleDefinitionSchema } from './rules.js';

/** The languages structural rules speak, and the extensions of each (docs/structural.md "Syntax-tree rules"). */
export const STRUCTURAL_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'go', 'java'] as const;
export type StructuralLanguage = (typeof STRUCTURAL_LANGUAGES)[number];

// An ast-grep rule object: the keys ast-grep's relational and composite rules take.
const astObject = z.record(z.string(), z.unknown());

// The keys every rule has, as a regex rule's schema checks them (one definition, ./rules.ts).
const common = z.omit(ruleDefinitionSchema, { pattern: true, flags: true, in: true }).shape;

export const astRuleSchema = z.strictObject({
  ...common,
  ast: z.union([z.string().check(z.minLength(1, 'must not be empty')), astObject]),
  language: z.enum(STRUCTURAL_LANGUAGES, `must be one of ${STRUCTURAL_LANGUAGES.join(', ')}`),
});

export const importsRuleSchema = z.strictObject({
  ...common,
  imports: z.strictObject({
    forbid: z.array(z.string().check(z.minLength(1))).check(z.minLength(1, 'must name at least one module or path')),
    allow: z.optional(z.array(z.string().check(z.minLength(1)))),
    typeImports: z.optional(z.boolean()),
  }),
});

interface StructuralBase {
  id: string;
  severity: (typeof SEVERITIES)[number];
  category: (typeof CATEGORIES)[number];
  title: string;
  message: string | null;
  confidence: number;
  paths: string[];
  exclude: string[];
  /** Linter rules that enforce the same decision (docs/bundle.md "Rule keys"). */
  equivalent: string[];
  /** `<doc-id>:<rule-id>`. */
  ruleSource: string;
  documentId: string;
  /** Line of the rule's `ast` or `imports` in its concept file, for `knowledge check`. */
  line?: number;
}

export interface AstRule extends StructuralBase {
  kind: 'ast';
  ast: string | Record<string, unknown>;
  language: StructuralLanguage;
}

export interface ImportsRule extends StructuralBase {
  kind: 'imports';
  forbid: string[];
  allow: string[];
  /**
   * Whether type-only imports count (TypeScript `import type`, Python under `if TYPE_CHECKING:`):
   * by default not, since they vanish at run time (docs/structural.md "Import boundaries").
   */
  typeImports: boolean;
}

export type StructuralRule = AstRule | ImportsRule;

/** Whether a raw rule is structural (it has `ast` or `imports`), so it is read here and not as a regex rule. */
export function isStructural(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && ('ast' in raw || 'imports' in raw);
}

export type StructuralParse =
  | { ok: true; rule: StructuralRule }
  | { ok: false; issues: Array<{ path: Array<string | number>; message: string }> };

export function parseStructural(raw: unknown, documentId: string): StructuralParse {
  const isAst = raw !== null && typeof raw === 'object' && 'ast' in raw;
  const result = (isAst ? astRuleSchema : importsRuleSchema).safeParse(raw);
  if (!result.success) {
    return {
      ok: false,
      issues: result.error.issues.map((issue) => ({
        path: issue.path as Array<string | number>,
        message:
          issue.code === 'unrecognized_keys'
            ? `unknown key ${(issue as { keys: string[] }).keys.join(', ')}${isAst ? '' : ' (a rule has one of pattern, ast or imports)'}`
            : issue.code === 'invalid_type'
              ? 'is required or of the wrong kind'
              : issue.message,
      })),
    };
  }
  const d = result.data as z.output<typeof astRuleSchema> & z.output<typeof importsRuleSchema>;
  const base: StructuralBase = {
    ...ruleDefaults(d),
    ruleSource: `${documentId}:${d.id}`,
    documentId,
  };
  return {
    ok: true,
    rule: isAst
      ? { ...base, kind: 'ast', ast: d.ast, language: d.language }
      : {
          ...base,
          kind: 'imports',
          forbid: d.imports.forbid,
          allow: d.imports.allow ?? [],
          typeImports: d.imports.typeImports ?? false,
        },
  };
}
