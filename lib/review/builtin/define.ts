/**
 * How a built-in rule is written: one spec per rule, grouped in families (one file each under
 * this folder), compiled into the ReviewRule the rule runner takes. Everything derived from the
 * rules (the id list, the credential set, the needles) is computed from these specs, so a new
 * rule is one entry in its family file and its cases in the quality corpus (docs/review.md).
 */
import type { Category, Severity } from '../../core/vocabulary.js';
import type { ReviewRule, RuleGuards } from '../engine/rules.js';

export interface BuiltinSpec extends RuleGuards {
  id: string;
  regex: RegExp;
  severity: Severity;
  category: Category;
  /** One line, at most 80 characters. */
  title: string;
  /** What is wrong and what to do instead. */
  message: string;
  confidence: number;
  paths?: string[];
  exclude?: string[];
  /** Linter rules that enforce the same (`eslint:no-debugger`): their disable comments allow a finding. */
  equivalent?: string[];
}

export interface BuiltinFamily {
  /** rule_source is `builtin/<section>:<id>`; the section also names the family in `builtinRules`. */
  section: string;
  /**
   * Credential formats: they run on every text file (generated, vendored and minified ones too,
   * and lines of any length), the push gate checks them commit by commit, and calibration never
   * demotes them. Their patterns start with a literal and run in linear time.
   */
  credential?: boolean;
  specs: () => BuiltinSpec[];
}

export function compileSpec(family: BuiltinFamily, spec: BuiltinSpec): ReviewRule {
  const { id, regex, paths = [], exclude = [], equivalent = [], ...rest } = spec;
  const credential = family.credential === true;
  return {
    ...rest,
    id,
    pattern: regex.source,
    flags: regex.flags,
    paths,
    exclude,
    // A built-in rule's own guards say what it reads (RuleGuards scope, skipComments).
    in: 'any',
    equivalent,
    ruleSource: `builtin/${family.section}:${id}`,
    documentId: null,
    regex,
    trusted: true,
    credential,
    longLines: spec.longLines ?? credential,
  };
}

export function compileFamily(family: BuiltinFamily): ReviewRule[] {
  return family.specs().map((spec) => compileSpec(family, spec));
}
