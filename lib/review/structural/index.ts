/**
 * The structural pass of a review (docs/structural.md): the `ast` and `imports` rules of the
 * selected documents, over the new version of each changed file, parsed once for all its rules.
 * Bounded like the rest: a file over the size cap is not parsed, a file that does not parse keeps
 * its regex rules and the baseline (one warning names it), a rule that cannot be used is dropped
 * alone, and the pass stops at its share of the rule budget.
 */
import type { ChunkSelection } from '../../select/types.js';
import type { AstRule, StructuralRule } from '../../bundle/structural.js';
import type { DiffFile } from '../../diff/types.js';
import { ruleDraft, type FindingDraft } from '../findings/contract.js';
import { RULE_PHASE_BUDGET_MS } from '../engine/time.js';
import { MAX_FINDINGS_PER_RULE } from '../engine/rules.js';
import { languageOfPath, sameFamily } from './languages.js';
import { checkAstRule, type AstMatch } from './match.js';
import { candidatesOf, crossing, type ImportRef, type ResolveContext } from './imports.js';
import { TOO_LARGE_VERSION, VersionBook, type Version } from '../introduced/versions.js';
import { introducedViolations, violationKey } from '../introduced/match.js';
import { governing } from '../introduced/governs.js';
import { reviewMessages as m } from '../../messages/review.js';

/** Past this a file is not parsed (its regex rules and the baseline still run). */
export const MAX_PARSED_BYTES = 1024 * 1024;

/** A file's new version: its text, TOO_LARGE past the cap, or null when there is none to read. */
export const TOO_LARGE = { tooLarge: true } as const;
export type FileVersion = string | typeof TOO_LARGE | null;

export interface StructuralIO {
  /** Starts reading these files' new versions at once (one git process). */
  prefetch?(paths: readonly string[]): void;
  /** Starts reading these files' old and new versions at once (one git process). */
  prefetchVersions?(files: readonly DiffFile[]): void;
  /** The new version of `path` (`file`: its diff, whose `index` line names the blob of a diff given as text). */
  fileText(path: string, file?: DiffFile): Promise<FileVersion>;
  /** The old version of a changed file (the blob its `index` line names); null for an added file or none known. */
  oldText?(file: DiffFile): Promise<FileVersion>;
  /** What resolution needs of the repository (tsconfig paths, go.mod) and which files exist. */
  context(): Promise<ResolveContext & { exists(path: string): boolean }>;
  budgetMs?: number;
}

export interface StructuralItem {
  selection: ChunkSelection;
  rules: readonly StructuralRule[];
}

export interface StructuralResult {
  drafts: Array<{ draft: FindingDraft; selection: ChunkSelection; rule: StructuralRule }>;
  warnings: string[];
}

/**
 * `book`: the review's file versions, shared with the pattern rules' comparison (one read and
 * parse of each). An explicit whole-tree or range review sets `budgetMs` to Infinity: the budget
 * guards a hook against a hostile rule, not a big tree against being read.
 */
export async function runStructural(
  items: readonly StructuralItem[],
  io: StructuralIO,
  book?: VersionBook,
): Promise<StructuralResult> {
  const drafts: StructuralResult['drafts'] = [];
  const warnings: string[] = [];
  const budget = io.budgetMs ?? RULE_PHASE_BUDGET_MS;
  const unbounded = budget === Number.POSITIVE_INFINITY;
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
  // A rule object can name a kind the file's grammar lacks (a TypeScript-only kind on a .js file of
  // its family): ast-grep throws; the rule is dropped for that language, with a warning, once.
  const refused = new Set<string>();
  const findMatches = (version: Version, rule: AstRule, language: string): AstMatch[] => {
    const key = `${rule.ruleSource}\0${language}`;
    if (refused.has(key)) return [];
    try {
      return version.matches(rule);
    } catch (error) {
      refused.add(key);
      warnings.push(
        m.structuralRuleDropped(
          rule.ruleSource,
          `not usable on ${language}: ${(error as Error).message.split('\n')[0]}`,
        ),
      );
      return [];
    }
  };
  // Pieces of one file share its parse.
  const byPath = new Map<string, StructuralItem[]>();
  for (const item of items) {
    const list = byPath.get(item.selection.chunk.path) ?? [];
    list.push(item);
    byPath.set(item.selection.chunk.path, list);
  }
  io.prefetch?.([...byPath.keys()].filter((p) => languageOfPath(p) !== null));
  const versions = book ?? new VersionBook(io);
  for (const [path, pieces] of byPath) {
    if (!unbounded && Date.now() - started > budget) {
      warnings.push(m.structuralOverBudget(budget, [...byPath.keys()].slice([...byPath.keys()].indexOf(path))));
      break;
    }
    const language = languageOfPath(path);
    if (!language) continue;
    const rules = [...new Set(pieces.flatMap((p) => p.rules))].filter(
      (r) => (r.kind === 'imports' || sameFamily(r.language, language)) && usable(r),
    );
    if (!rules.length) continue;
    const file = pieces[0]!.selection.chunk.file;
    const after = await versions.version(file, 'new');
    if (after === null) continue;
    if (after === TOO_LARGE_VERSION) {
      warnings.push(m.structuralTooLarge(path, MAX_PARSED_BYTES));
      continue;
    }
    if (!after.parsable) {
      warnings.push(
        m.structuralUnparsed(
          path,
          after.unparsed ?? `not valid ${language}`,
          rules.map((r) => r.ruleSource),
        ),
      );
      continue;
    }
    // Where parts do not parse, the rules keep the rest; the lines they lost are said once.
    const broken = after.errors();
    const inBroken = (start: number, end: number) => broken.some((e) => e.start <= end && start <= e.end);
    if (broken.length)
      warnings.push(
        m.structuralPartlyParsed(
          path,
          after.unparsed!,
          broken.map((e) => (e.start === e.end ? `${e.start}` : `${e.start}-${e.end}`)),
          rules.map((r) => r.ruleSource),
        ),
      );
    // The old version's tree, to compare with (docs/review.md "What a change introduces"); where
    // it cannot be read or parsed every match on an added line counts, as for an added file.
    const before = await versions.version(file, 'old');
    // A renamed file's old version counts where the rule governed its old path.
    const governs = new Map(rules.map((r) => [r, governing(pieces[0]!.selection, r)]));
    const oldParsedOf = (rule: StructuralRule) =>
      file.oldPath !== null && file.oldPath !== path && !governs.get(rule)!(file.oldPath) ? null : oldParsed;
    const oldParsed = before !== null && before !== TOO_LARGE_VERSION && before.parsable ? before : null;
    const newLines = after.text.split('\n');
    const oldLines = before !== null && before !== TOO_LARGE_VERSION ? before.text.split('\n') : [];
    const lineKeyOf = (lines: readonly string[], line: number) => violationKey(lines[line - 1] ?? '');
    const moved = (rule: StructuralRule) => (v: { line: number }) =>
      versions.takeMoved(violationKey(newLines[v.line - 1] ?? ''), path, governs.get(rule)!);
    const compared = before === null || oldParsed !== null;
    const declarations = after.view()?.declarations ?? [];
    const oldDeclarations =
      (before !== null && before !== TOO_LARGE_VERSION ? before.view()?.declarations : null) ?? [];
    const addedLines = new Set(pieces.flatMap((p) => p.selection.chunk.added.map((a) => a.line)));
    const anyAdded = (start: number, end: number) => {
      for (let n = start; n <= end; n++) if (addedLines.has(n)) return true;
      return false;
    };
    const imports = rules.some((r) => r.kind === 'imports') ? after.imports() : [];
    const oldImports = oldParsed && rules.some((r) => r.kind === 'imports') ? oldParsed.imports() : [];
    // Per rule, the matches of the new version that the old one does not account for.
    const fresh = new Map<StructuralRule, Set<number>>();
    const freshOf = (rule: StructuralRule): Set<number> => {
      let lines = fresh.get(rule);
      if (lines) return lines;
      if (rule.kind === 'ast') {
        const now = findMatches(after, rule, language)
          .filter((match) => !inBroken(match.start, match.end))
          .map((match) => ({
            line: match.start,
            end: match.end,
            key: violationKey(match.text),
            declaration: declarations[match.start - 1] ?? null,
            lineKey: lineKeyOf(newLines, match.start),
          }));
        const ruleOld = oldParsedOf(rule);
        const then =
          compared && ruleOld
            ? findMatches(ruleOld, rule, language).map((match) => ({
                line: match.start,
                key: violationKey(match.text),
                declaration: oldDeclarations[match.start - 1] ?? null,
                lineKey: lineKeyOf(oldLines, match.start),
              }))
            : [];
        lines = new Set(
          introducedViolations(then, now, (v) => anyAdded(v.line, v.end), moved(rule)).map((v) => v.line),
        );
      } else {
        const wanted = (ref: ImportRef) => !ref.typeOnly || rule.typeImports;
        const toViolation = (ref: ImportRef, decls: ReadonlyArray<string | null>, lines: readonly string[]) => ({
          line: ref.line,
          key: ref.specifier,
          declaration: decls[ref.line - 1] ?? null,
          lineKey: lineKeyOf(lines, ref.line),
        });
        lines = new Set(
          introducedViolations(
            (oldParsedOf(rule) ? oldImports : [])
              .filter(wanted)
              .map((ref) => toViolation(ref, oldDeclarations, oldLines)),
            imports.filter(wanted).map((ref) => toViolation(ref, declarations, newLines)),
            (v) => addedLines.has(v.line),
            moved(rule),
          ).map((v) => v.line),
        );
      }
      fresh.set(rule, lines);
      return lines;
    };
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
        const introduced = freshOf(rule);
        // As for regex rules: at most MAX_FINDINGS_PER_RULE findings of a rule per piece, the rest named once.
        let found = 0;
        const keep = () => ++found <= MAX_FINDINGS_PER_RULE;
        const named = () => {
          if (found > MAX_FINDINGS_PER_RULE)
            warnings.push(m.tooManyMatches(rule.ruleSource, path, found, MAX_FINDINGS_PER_RULE));
        };
        if (rule.kind === 'ast') {
          for (const match of findMatches(after, rule, language)) {
            if (!introduced.has(match.start) || inBroken(match.start, match.end)) continue;
            const line = firstAdded(match.start, match.end);
            if (line !== null && keep()) drafts.push({ selection, rule, draft: ruleDraft(rule, path, line) });
          }
          named();
          continue;
        }
        for (const ref of imports) {
          if (!changedLines.has(ref.line) || !introduced.has(ref.line) || inBroken(ref.line, ref.line)) continue;
          if (ref.typeOnly && !rule.typeImports) continue;
          context ??= await io.context();
          const all = candidatesOf(ref, path, language, context);
          const existing = all.filter((c) => context!.exists(c));
          // None exists (a folder, a wildcard, a file the change adds elsewhere): every form it could take.
          const crossed = crossing(rule, ref, existing.length ? existing : all);
          if (crossed && keep())
            drafts.push({
              selection,
              rule,
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
