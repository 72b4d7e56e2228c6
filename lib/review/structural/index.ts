/**
 * The structural pass of a review (docs/structural.md): the `ast` and `imports` rules of the
 * selected documents, over the new version of each changed file, parsed once for all its rules.
 * Bounded like the rest: a file over the size cap is not parsed, a file that does not parse keeps
 * its regex rules and the baseline (one warning names it), a rule that cannot be used is dropped
 * alone, and the pass stops at its share of the rule budget.
 */
import type { ChunkSelection } from '../../select/types.js';
import type { StructuralRule } from '../../bundle/structural.js';
import { ruleDraft, type FindingDraft } from '../findings/contract.js';
import { RULE_PHASE_BUDGET_MS } from '../engine/time.js';
import { MAX_FINDINGS_PER_RULE } from '../engine/rules.js';
import { languageOfPath, sameFamily } from './languages.js';
import { checkAstRule, findMatches, hasErrors, parseFile, type Root } from './match.js';
import { candidatesOf, crossing, importsOf, type ResolveContext } from './imports.js';
import { reviewMessages as m } from '../../messages/review.js';

/** Past this a file is not parsed (its regex rules and the baseline still run). */
export const MAX_PARSED_BYTES = 1024 * 1024;

/** A file's new version: its text, TOO_LARGE past the cap, or null when there is none to read. */
export const TOO_LARGE = { tooLarge: true } as const;
export type FileVersion = string | typeof TOO_LARGE | null;

export interface StructuralIO {
  /** Starts reading these files' new versions at once (one git process). */
  prefetch?(paths: readonly string[]): void;
  fileText(path: string): Promise<FileVersion>;
  /** What resolution needs of the repository (tsconfig paths, go.mod) and which files exist. */
  context(): Promise<ResolveContext & { exists(path: string): boolean }>;
  budgetMs?: number;
}

export interface StructuralItem {
  selection: ChunkSelection;
  rules: readonly StructuralRule[];
}

export interface StructuralResult {
  drafts: Array<{ draft: FindingDraft; selection: ChunkSelection }>;
  warnings: string[];
}

export async function runStructural(items: readonly StructuralItem[], io: StructuralIO): Promise<StructuralResult> {
  const drafts: StructuralResult['drafts'] = [];
  const warnings: string[] = [];
  const budget = io.budgetMs ?? RULE_PHASE_BUDGET_MS;
  const started = Date.now();
  const unusable = new Map<StructuralRule, string | null>();
  const usable = (rule: StructuralRule) => {
    if (rule.kind !== 'ast') return true;
    if (!unusable.has(rule)) {
      const why = checkAstRule(rule);
      unusable.set(rule, why);
      if (why) warnings.push(m.structuralRuleDropped(rule.ruleSource, why));
    }
    return unusable.get(rule) === null;
  };
  let context: (ResolveContext & { exists(path: string): boolean }) | undefined;
  // Pieces of one file share its parse.
  const byPath = new Map<string, StructuralItem[]>();
  for (const item of items) {
    const list = byPath.get(item.selection.chunk.path) ?? [];
    list.push(item);
    byPath.set(item.selection.chunk.path, list);
  }
  io.prefetch?.([...byPath.keys()].filter((p) => languageOfPath(p) !== null));
  for (const [path, pieces] of byPath) {
    if (Date.now() - started > budget) {
      warnings.push(m.structuralOverBudget(budget, [...byPath.keys()].slice([...byPath.keys()].indexOf(path))));
      break;
    }
    const language = languageOfPath(path);
    if (!language) continue;
    const rules = [...new Set(pieces.flatMap((p) => p.rules))].filter(
      (r) => (r.kind === 'imports' || sameFamily(r.language, language)) && usable(r),
    );
    if (!rules.length) continue;
    const text = await io.fileText(path);
    if (text === null) continue;
    if (typeof text !== 'string') {
      warnings.push(m.structuralTooLarge(path, MAX_PARSED_BYTES));
      continue;
    }
    let root: Root;
    try {
      root = parseFile(language, text);
    } catch (error) {
      warnings.push(m.structuralUnparsed(path, (error as Error).message));
      continue;
    }
    if (hasErrors(root)) {
      warnings.push(m.structuralUnparsed(path, `not valid ${language}`));
      continue;
    }
    const imports = rules.some((r) => r.kind === 'imports') ? importsOf(root, language) : [];
    for (const { selection, rules: pieceRules } of pieces) {
      const { changedLines, added } = selection.chunk;
      // The first added line in [start, end]: `added` is in line order, so a binary search (a
      // large file's matches times its added lines would be quadratic).
      const firstAdded = (start: number, end: number) => {
        let lo = 0;
        let hi = added.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (added[mid]!.line < start) lo = mid + 1;
          else hi = mid;
        }
        return lo < added.length && added[lo]!.line <= end ? added[lo]!.line : null;
      };
      for (const rule of rules) {
        if (!pieceRules.includes(rule)) continue;
        // As for regex rules: at most MAX_FINDINGS_PER_RULE findings of a rule per piece, the rest named once.
        let found = 0;
        const keep = () => ++found <= MAX_FINDINGS_PER_RULE;
        const named = () => {
          if (found > MAX_FINDINGS_PER_RULE)
            warnings.push(m.tooManyMatches(rule.ruleSource, path, found, MAX_FINDINGS_PER_RULE));
        };
        if (rule.kind === 'ast') {
          for (const match of findMatches(root, rule)) {
            const line = firstAdded(match.start, match.end);
            if (line !== null && keep()) drafts.push({ selection, draft: ruleDraft(rule, path, line) });
          }
          named();
          continue;
        }
        for (const ref of imports) {
          if (!changedLines.has(ref.line)) continue;
          if (ref.typeOnly && !rule.typeImports) continue;
          context ??= await io.context();
          const all = candidatesOf(ref, path, language, context);
          const existing = all.filter((c) => context!.exists(c));
          // None exists (a folder, a wildcard, a file the change adds elsewhere): every form it could take.
          const crossed = crossing(rule, ref, existing.length ? existing : all);
          if (crossed && keep())
            drafts.push({
              selection,
              draft: ruleDraft(rule, path, ref.line, {
                body: m.importCrossing(rule.message, ref.specifier, crossed.target, crossed.boundary),
              }),
            });
        }
        named();
      }
    }
  }
  return { drafts, warnings };
}
