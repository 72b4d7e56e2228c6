/**
 * Runs deterministic rules (bundle rules and the built-in baseline) on the added lines of a
 * chunk. Work per line is bounded:
 *  - a line longer than MAX_LINE_LENGTH (minified code, data, a 5 MB one-liner) is given only
 *    to rules marked `longLines` (the credential formats, whose patterns start with a literal
 *    and run in linear time); a warning names file:line;
 *  - a rule reports at most MAX_FINDINGS_PER_RULE lines per chunk (then a warning);
 *  - risky patterns run under regex-guard.ts (linear fallback or a sandbox with a deadline).
 */
import { ruleAppliesTo } from '../bundle/rules.js';
import type { Rule } from '../bundle/types.js';
import type { Chunk } from '../diff/types.js';
import type { FindingDraft } from './finding.js';
import { isCommentLine, isJavaScript, maskCode, maskLines, type MaskedLine } from './mask.js';
import { enableBacktrackFallback, needsSandbox, RegexSandbox } from './regex-guard.js';
import { reviewMessages as m } from '../messages/review.js';

export const MAX_LINE_LENGTH = 4000;
export const MAX_FINDINGS_PER_RULE = 20;
/** Time a sandboxed rule may take on one chunk before it is skipped for the rest of the run. */
export const SANDBOX_TIMEOUT_MS = 2000;

export interface LineContext {
  path: string;
  /** Index into `added`. */
  index: number;
  added: Chunk['added'];
  /**
   * The line as code (literal and comment contents blanked). For JavaScript-family files it is
   * lexed from the top of the file where the diff shows it (new files, hunks at line 1), so a
   * line inside a multi-line template or comment is known as such; elsewhere it is read alone.
   */
  view: () => MaskedLine;
}

/** What the built-in baseline adds to a plain rule, to stay quiet on look-alikes. */
export interface RuleGuards {
  /** 'code': the regex runs on the line with strings, regex literals and comments blanked out. */
  scope?: 'code' | 'text';
  /** Lines that are whole comments in the file's language are not checked. */
  skipComments?: boolean;
  /** True when a match is a known look-alike (a documented example key, a tagged SQL template…). */
  reject?: (match: RegExpExecArray, text: string, context: LineContext) => boolean;
  /** Linear and cheap: also runs on lines over MAX_LINE_LENGTH. */
  longLines?: boolean;
  /** Written and measured here (the baseline): never needs the regex sandbox. */
  trusted?: boolean;
}

export type ReviewRule = Rule & RuleGuards;

export interface RuleRun {
  drafts: FindingDraft[];
  warnings: string[];
}

/** Per-run state: the sandbox and the rules switched off because they overran. */
export class RuleRunner {
  private readonly sandbox = new RegexSandbox(SANDBOX_TIMEOUT_MS);
  private readonly disabled = new Set<string>();
  private readonly risky = new WeakMap<Rule, boolean>();
  private readonly views = new WeakMap<Chunk, Map<number, MaskedLine>>();

  constructor() {
    enableBacktrackFallback();
  }

  async run(chunk: Chunk, rules: readonly ReviewRule[]): Promise<RuleRun> {
    const drafts: FindingDraft[] = [];
    const warnings: string[] = [];
    const long = chunk.added.filter((a) => a.text.length > MAX_LINE_LENGTH);
    const applicable = rules.filter((r) => !this.disabled.has(r.ruleSource) && ruleAppliesTo(r, chunk.path));
    if (long.length && applicable.some((r) => !r.longLines)) {
      warnings.push(m.longLines(chunk.path, long.map((a) => ({ line: a.line, length: a.text.length })), MAX_LINE_LENGTH));
    }
    for (const rule of applicable) {
      const hits = await this.matchLines(chunk, rule, warnings);
      if (hits.length > MAX_FINDINGS_PER_RULE) {
        warnings.push(m.tooManyMatches(rule.ruleSource, chunk.path, hits.length, MAX_FINDINGS_PER_RULE));
      }
      for (const index of hits.slice(0, MAX_FINDINGS_PER_RULE)) {
        const { line } = chunk.added[index]!;
        drafts.push({
          path: chunk.path,
          start_line: line,
          line,
          side: 'RIGHT',
          severity: rule.severity,
          category: rule.category,
          title: rule.title,
          body: rule.message ?? rule.title,
          rule_source: rule.ruleSource,
          citations: rule.documentId ? [rule.documentId] : [],
          suggestion_code: null,
          confidence: rule.confidence,
        });
      }
    }
    return { drafts, warnings };
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }

  /** Cross-line views of the hunks that start at line 1 of a JavaScript-family file. */
  private fileViews(chunk: Chunk): Map<number, MaskedLine> {
    let views = this.views.get(chunk);
    if (views) return views;
    views = new Map();
    if (isJavaScript(chunk.path)) {
      for (const hunk of chunk.hunks) {
        if (hunk.newStart !== 1) continue;
        const lines = hunk.lines.filter((l) => l.kind !== 'del' && l.newLine !== null);
        if (lines.some((l) => l.text.length > MAX_LINE_LENGTH)) continue; // minified: not worth lexing
        const masked = maskLines(lines.map((l) => l.text));
        lines.forEach((l, k) => views!.set(l.newLine!, masked[k]!));
      }
    }
    this.views.set(chunk, views);
    return views;
  }

  private context(chunk: Chunk, index: number): LineContext {
    let view: MaskedLine | undefined;
    return {
      path: chunk.path,
      index,
      added: chunk.added,
      view: () => {
        const a = chunk.added[index]!;
        return (view ??= this.fileViews(chunk).get(a.line) ?? { code: maskCode(a.text), inTemplate: false, inComment: false });
      },
    };
  }

  /** Indexes into chunk.added of the lines the rule flags. */
  private async matchLines(chunk: Chunk, rule: ReviewRule, warnings: string[]): Promise<number[]> {
    const candidates: Array<{ index: number; context: LineContext }> = [];
    chunk.added.forEach((a, index) => {
      if (a.text.length > MAX_LINE_LENGTH && !rule.longLines) return;
      if (rule.skipComments && isCommentLine(chunk.path, a.text)) return;
      const context = this.context(chunk, index);
      if (rule.skipComments && (rule.scope === 'code' || rule.reject) && context.view().inComment && context.view().code.trim() === '') return;
      candidates.push({ index, context });
    });
    if (candidates.length === 0) return [];
    const subjectOf = (c: { index: number; context: LineContext }) => (rule.scope === 'code' ? c.context.view().code : chunk.added[c.index]!.text);
    let risky = this.risky.get(rule);
    if (risky === undefined) this.risky.set(rule, (risky = !rule.trusted && needsSandbox(rule.regex)));
    if (risky) {
      const result = await this.sandbox.test(rule.regex, candidates.map(subjectOf));
      if (result === 'timeout') {
        this.disabled.add(rule.ruleSource);
        warnings.push(m.ruleTimedOut(rule.ruleSource, chunk.path, SANDBOX_TIMEOUT_MS));
        return [];
      }
      return result.map((k) => candidates[k]!.index);
    }
    const hits: number[] = [];
    for (const candidate of candidates) {
      const { index, context } = candidate;
      const text = chunk.added[index]!.text;
      const subject = subjectOf(candidate);
      const regex = rule.regex;
      regex.lastIndex = 0;
      // A global regex (built-ins only; compileRule drops g) is tried match by match, so a
      // look-alike earlier on the line does not hide a real one after it.
      for (let match = regex.exec(subject); match; match = regex.global ? regex.exec(subject) : null) {
        if (!rule.reject?.(match, text, context)) {
          hits.push(index);
          break;
        }
        if (match[0] === '') regex.lastIndex++;
      }
    }
    return hits;
  }
}
