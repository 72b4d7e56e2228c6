/**
 * Runs deterministic rules (bundle rules and the built-in baseline) on the added lines of a
 * chunk. Work per line is bounded:
 *  - a line longer than MAX_LINE_LENGTH (minified code, data, a 5 MB one-liner) is given only
 *    to rules marked `longLines` (the credential formats, whose patterns start with a literal
 *    and run in linear time); a warning names file:line;
 *  - a rule reports at most MAX_FINDINGS_PER_RULE lines per chunk (then a warning);
 *  - bundle patterns run as regex-guard.ts plans them (linear fallback, a clock checked between
 *    lines, or a sandbox with a deadline), and all bundle rules of one review share a time
 *    budget (./time.ts); a rule that overruns is skipped with a warning naming it, and one
 *    that overran in the sandbox is remembered (the bundle cache) so that later reviews do not
 *    wait for it again (docs/bundle.md "Time");
 *  - built-in rules read the same clock, per piece, between lines (docs/review.md "Time"): a
 *    code rule that overruns is skipped for the rest of the review with a warning naming it;
 *    a credential rule is never skipped: its patterns are linear, and should one still overrun
 *    its longer limit, the lines it did not read become one blocking finding (fails closed).
 *    A code rule also gives up a line after MAX_TRIES_PER_LINE rejected matches on it.
 */
import { ruleAppliesTo } from '../../bundle/rule-paths.js';
import type { Rule } from '../../bundle/types.js';
import type { Chunk, DiffFile } from '../../diff/types.js';
import { ruleDraft, type FindingDraft } from '../findings/contract.js';
import { isCommentLine, maskCode, type MaskedLine } from './mask.js';
import { fileViews } from './views.js';
import { planRegex, RegexSandbox, ruleTimeKey, type RegexPlan } from './regex-guard.js';
import { prefilterOf } from './prefilter.js';
import type { LineContext, ReviewRule, RuleRun } from './types.js';
import { reviewMessages as m } from '../../messages/review.js';
import { asciiLower, holdsNeedle, joinedAdded } from './needle-test.js';
import {
  CREDENTIAL_DEADLINE_MS,
  MAX_LINE_LENGTH,
  RULE_DEADLINE_MS,
  RULE_PHASE_BUDGET_MS,
  SANDBOX_TIMEOUT_MS,
  type RuleTimeOptions,
} from './time.js';

export { ruleTimeKey } from './regex-guard.js';

export { MAX_LINE_LENGTH } from './time.js';
export const MAX_FINDINGS_PER_RULE = 20;
/** Rejected matches a code rule tries on one line before giving up on it (its guards read the whole line per match). */
export const MAX_TRIES_PER_LINE = 32;
/** Characters of lines a rule goes through between two readings of its clock. */
const CLOCK_EVERY = 32_768;
export {
  SANDBOX_TIMEOUT_MS,
  RULE_DEADLINE_MS,
  RULE_PHASE_BUDGET_MS,
  CREDENTIAL_DEADLINE_MS,
  type RuleTimeOptions,
} from './time.js';

export type { LineContext, ReviewRule, RuleDrop, RuleGuards, RuleRun } from './types.js';

/** Per-chunk facts shared by every rule that runs on it. */
interface ChunkState {
  /** The added lines joined by newlines: where the needles are looked for. */
  joined: string;
  /** `joined` lower-cased, or null when it is not plain ASCII (lower-casing is not Unicode case folding). */
  lower: string | null | undefined;
  /** Per added line: 1 a whole-line comment, 2 not, 0 not known yet. */
  comments: Uint8Array;
  contexts: Array<LineContext | undefined>;
}

/** Per-run state: the sandbox, the time used, and the rules switched off because they overran. */
export class RuleRunner {
  private readonly sandbox: RegexSandbox;
  private readonly disabled = new Set<string>();
  private readonly plans = new WeakMap<Rule, RegexPlan>();
  private readonly views = new WeakMap<Chunk['file'], Map<number, MaskedLine>>();
  private readonly states = new WeakMap<Chunk, ChunkState>();
  private readonly fileCalls = new WeakMap<DiffFile, Map<ReviewRule, RegExp | null>>();
  private readonly overran: Set<string>;
  private readonly onOverrun: (key: string) => void;
  private readonly budgetMs: number;
  private readonly deadlineMs: number;
  private readonly sandboxMs: number;
  private readonly credentialMs: number;
  /** Time used by bundle rules so far, and per rule. */
  private spent = 0;
  private readonly spentBy = new Map<string, number>();
  private readonly warnedEarlier = new Set<string>();
  /** Bundle rules not run because the budget was used up. */
  private readonly unrun = new Set<string>();

  constructor(options: RuleTimeOptions = {}) {
    // V8's backtrack fallback is switched on by the first bundle rule's plan (planRegex), before
    // any bundle pattern runs; a commit no bundle rule reaches never loads node:v8 for it.
    this.overran = options.overran ?? new Set();
    this.onOverrun = options.onOverrun ?? (() => {});
    this.budgetMs = options.budgetMs ?? RULE_PHASE_BUDGET_MS;
    this.deadlineMs = options.deadlineMs ?? RULE_DEADLINE_MS;
    this.sandboxMs = options.sandboxMs ?? SANDBOX_TIMEOUT_MS;
    this.credentialMs = options.credentialMs ?? CREDENTIAL_DEADLINE_MS;
    this.sandbox = new RegexSandbox(this.sandboxMs);
  }

  async run(chunk: Chunk, rules: readonly ReviewRule[]): Promise<RuleRun> {
    const drafts: FindingDraft[] = [];
    const warnings: string[] = [];
    const dropped: RuleRun['dropped'] = [];
    const long = chunk.added.filter((a) => a.text.length > MAX_LINE_LENGTH);
    const applicable = rules.filter((r) => !this.disabled.has(r.ruleSource) && ruleAppliesTo(r, chunk.path));
    if (long.length && applicable.some((r) => !r.longLines)) {
      warnings.push(
        m.longLines(
          chunk.path,
          long.map((a) => ({ line: a.line, length: a.text.length })),
          MAX_LINE_LENGTH,
        ),
      );
    }
    const state = chunk.added.length ? this.state(chunk) : null;
    for (const rule of applicable) {
      if (!state || (!this.mayMatch(state, rule) && !this.withFileCalls(chunk, rule))) continue;
      let hits: number[];
      let unread: number | null = null;
      if (rule.trusted) {
        const found = await this.matchLines(chunk, rule, performance.now(), warnings, dropped);
        hits = found.hits;
        unread = found.unread;
      } else {
        if (this.overran.has(ruleTimeKey(rule))) {
          if (!this.warnedEarlier.has(rule.ruleSource)) warnings.push(m.ruleSkippedEarlier(rule.ruleSource));
          this.warnedEarlier.add(rule.ruleSource);
          continue;
        }
        if (this.spent >= this.budgetMs) {
          this.unrun.add(rule.ruleSource);
          continue;
        }
        const started = performance.now();
        hits = (await this.matchLines(chunk, rule, started, warnings, dropped)).hits;
        const took = performance.now() - started;
        this.spent += took;
        this.spentBy.set(rule.ruleSource, (this.spentBy.get(rule.ruleSource) ?? 0) + took);
      }
      if (hits.length > MAX_FINDINGS_PER_RULE) {
        warnings.push(m.tooManyMatches(rule.ruleSource, chunk.path, hits.length, MAX_FINDINGS_PER_RULE));
      }
      for (const index of hits.slice(0, MAX_FINDINGS_PER_RULE)) {
        const { line } = chunk.added[index]!;
        drafts.push(ruleDraft(rule, chunk.path, line));
      }
      if (unread !== null) {
        // A credential rule that could not finish: what it did not read may hold a key, so the
        // review says so as a blocking finding of that rule (fails closed; docs/review.md "Time").
        const from = chunk.added[unread]!.line;
        const to = chunk.added[chunk.added.length - 1]!.line;
        // Cites nothing (a built-in rule) and is certain: the check did not finish.
        drafts.push(
          ruleDraft({ ...rule, documentId: null }, chunk.path, from, {
            title: m.credentialUnfinishedTitle,
            body: m.credentialUnfinished(rule.ruleSource, chunk.path, from, to, this.credentialMs),
            confidence: 1,
          }),
        );
        warnings.push(m.credentialUnfinished(rule.ruleSource, chunk.path, from, to, this.credentialMs));
      }
    }
    return { drafts, warnings, dropped };
  }

  /** Warnings about the run as a whole (the budget used up), once at its end. */
  summary(): string[] {
    return this.unrun.size ? [m.rulePhaseOverBudget(this.budgetMs, [...this.unrun])] : [];
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }

  private state(chunk: Chunk): ChunkState {
    let state = this.states.get(chunk);
    if (!state) {
      state = {
        joined: joinedAdded(chunk),
        lower: undefined,
        comments: new Uint8Array(chunk.added.length),
        contexts: new Array(chunk.added.length),
      };
      this.states.set(chunk, state);
    }
    return state;
  }

  /** False when the chunk's added text holds none of the rule's needles: no line can match. */
  private mayMatch(state: ChunkState, rule: ReviewRule): boolean {
    const filter = prefilterOf(rule);
    if (!filter) return true;
    let text = state.joined;
    if (filter.ignoreCase) {
      if (state.lower === undefined) state.lower = asciiLower(state.joined);
      if (state.lower === null) return true;
      text = state.lower;
    }
    return holdsNeedle(text, filter.needles);
  }

  /**
   * A built-in rule's regex with the calls this file makes through its own names (RuleGuards
   * fileCalls), made once per file and rule; null when the file has none.
   */
  private withFileCalls(chunk: Chunk, rule: ReviewRule): RegExp | null {
    if (!rule.fileCalls || !rule.trusted) return null;
    let perRule = this.fileCalls.get(chunk.file);
    if (!perRule) this.fileCalls.set(chunk.file, (perRule = new Map()));
    let regex = perRule.get(rule);
    if (regex === undefined) {
      const calls = rule.fileCalls(chunk.file, chunk.path);
      regex = calls && new RegExp(`${rule.regex.source}|${calls.source}`, rule.regex.flags);
      perRule.set(rule, regex);
    }
    return regex;
  }

  /** Cross-line views of the file's hunks (./mask.ts fileViews), shared by the chunks of one file. */
  private fileViews(chunk: Chunk): Map<number, MaskedLine> {
    let views = this.views.get(chunk.file);
    if (!views) this.views.set(chunk.file, (views = fileViews(chunk.path, chunk.file.hunks, MAX_LINE_LENGTH)));
    return views;
  }

  /** The context of one added line, made once per chunk and shared by the rules that need it. */
  private context(chunk: Chunk, index: number): LineContext {
    const contexts = this.state(chunk).contexts;
    let context = contexts[index];
    if (context) return context;
    let view: MaskedLine | undefined;
    context = {
      path: chunk.path,
      chunk,
      index,
      added: chunk.added,
      view: () => {
        const a = chunk.added[index]!;
        return (view ??= this.fileViews(chunk).get(a.line) ?? {
          code: maskCode(a.text),
          inTemplate: false,
          inComment: false,
        });
      },
    };
    contexts[index] = context;
    return context;
  }

  private isComment(chunk: Chunk, index: number): boolean {
    const comments = this.state(chunk).comments;
    if (comments[index] === 0) comments[index] = isCommentLine(chunk.path, chunk.added[index]!.text) ? 1 : 2;
    return comments[index] === 1;
  }

  /** How a bundle rule's regex runs, planned once per rule. */
  private planOf(rule: ReviewRule): RegexPlan {
    let plan = this.plans.get(rule);
    if (!plan) this.plans.set(rule, (plan = planRegex(rule.regex)));
    return plan;
  }

  /** Turns a bundle rule off for the rest of this run (its warning is the caller's). */
  private stop(rule: ReviewRule): [] {
    this.disabled.add(rule.ruleSource);
    return [];
  }

  /** The phase budget is used up: this rule and every later bundle rule are not run. */
  private outOfBudget(rule: ReviewRule): [] {
    this.spent = Math.max(this.spent, this.budgetMs);
    this.unrun.add(rule.ruleSource);
    return [];
  }

  /**
   * Indexes into chunk.added of the lines the rule flags, from `started` (when this call
   * began). A built-in rule's clock runs per piece; a bundle rule's per review and within the
   * bundle rules' shared budget. `unread`: the first line a credential rule did not read
   * because it overran (then the lines from there on are a finding), else null.
   */
  private async matchLines(
    chunk: Chunk,
    rule: ReviewRule,
    started: number,
    warnings: string[],
    dropped: RuleRun['dropped'],
  ): Promise<{ hits: number[]; unread: number | null }> {
    const added = chunk.added;
    const plan = rule.trusted ? null : this.planOf(rule);
    const regex = plan ? plan.regex : (this.withFileCalls(chunk, rule) ?? rule.regex);
    const sandboxed = plan?.kind === 'sandbox';
    // A rule planned 'bounded' is polynomial per line: its clock is read between lines.
    const ruleLeft = this.deadlineMs - (this.spentBy.get(rule.ruleSource) ?? 0);
    const budgetLeft = this.budgetMs - this.spent;
    const deadline = rule.trusted
      ? started + (rule.credential ? this.credentialMs : this.deadlineMs)
      : plan?.kind === 'bounded'
        ? started + Math.min(ruleLeft, budgetLeft)
        : Infinity;
    const none = { hits: [], unread: null };
    // The clock is read once per CLOCK_EVERY characters of lines (and line ends) gone through,
    // not per line: reading it costs as much as matching a short line.
    let work = CLOCK_EVERY;
    const late = (text: string): boolean => {
      work += text.length + 64;
      if (work < CLOCK_EVERY) return false;
      work = 0;
      return performance.now() > deadline;
    };
    let unread: number | null = null;
    const overdue = (index: number): boolean => {
      if (rule.credential) {
        unread = index;
        return true;
      }
      if (rule.trusted) {
        warnings.push(m.builtinTooSlow(rule.ruleSource, chunk.path, this.deadlineMs));
        this.stop(rule);
      } else if (budgetLeft < ruleLeft) this.outOfBudget(rule);
      else {
        warnings.push(m.ruleTooSlow(rule.ruleSource, this.deadlineMs));
        this.stop(rule);
      }
      return false;
    };
    const guarded = rule.skipComments || rule.scope === 'code' || rule.reject !== undefined;
    if (!guarded && !sandboxed) {
      // A plain pattern on the raw lines: no per-line state at all.
      const hits: number[] = [];
      for (let index = 0; index < added.length; index++) {
        const text = added[index]!.text;
        if (text.length > MAX_LINE_LENGTH && !rule.longLines) continue;
        if (deadline !== Infinity && late(text)) return overdue(index) ? { hits, unread } : none;
        regex.lastIndex = 0;
        if (regex.test(text)) hits.push(index);
      }
      return { hits, unread };
    }
    const candidates: number[] = [];
    for (let index = 0; index < added.length; index++) {
      const text = added[index]!.text;
      if (text.length > MAX_LINE_LENGTH && !rule.longLines) continue;
      if (rule.skipComments && this.isComment(chunk, index)) continue;
      if (rule.skipComments && (rule.scope === 'code' || rule.reject)) {
        const view = this.context(chunk, index).view();
        if (view.inComment && view.code.trim() === '') continue;
      }
      candidates.push(index);
    }
    if (candidates.length === 0) return none;
    const subjectOf = (index: number) =>
      rule.scope === 'code' ? this.context(chunk, index).view().code : added[index]!.text;
    if (sandboxed) {
      // The full time when the budget allows; a shortened wait proves nothing about the rule.
      const wait = Math.max(1, Math.min(this.sandboxMs, budgetLeft));
      const result = await this.sandbox.test(regex, candidates.map(subjectOf), wait);
      if (result === 'failed') {
        warnings.push(m.ruleSandboxFailed(rule.ruleSource));
        return { hits: this.stop(rule), unread: null };
      }
      if (result === 'timeout') {
        if (wait < this.sandboxMs) return { hits: this.outOfBudget(rule), unread: null };
        const key = ruleTimeKey(rule);
        this.overran.add(key);
        this.onOverrun(key);
        warnings.push(m.ruleTimedOutRemembered(rule.ruleSource, chunk.path, wait));
        return { hits: this.stop(rule), unread: null };
      }
      return { hits: result.map((k) => candidates[k]!), unread: null };
    }
    const hits: number[] = [];
    // A credential rule tries every match (a look-alike must not hide a key after it); a code
    // rule's guards read the whole line per match, so it gives up a line after a few.
    const tries = rule.credential ? Infinity : MAX_TRIES_PER_LINE;
    for (const index of candidates) {
      if (deadline !== Infinity && late(added[index]!.text)) return overdue(index) ? { hits, unread } : none;
      const text = added[index]!.text;
      const subject = subjectOf(index);
      regex.lastIndex = 0;
      // A global regex (built-ins only; compileRule drops g) is tried match by match, so a
      // look-alike earlier on the line does not hide a real one after it.
      let tried = 0;
      for (
        let match = regex.exec(subject);
        match && tried++ < tries;
        match = regex.global ? regex.exec(subject) : null
      ) {
        const rejected = rule.reject?.(match, text, this.context(chunk, index));
        if (!rejected) {
          hits.push(index);
          break;
        }
        if (typeof rejected === 'object')
          dropped.push({ ...rejected, ruleSource: rule.ruleSource, path: chunk.path, line: added[index]!.line });
        if (match[0] === '') regex.lastIndex++;
      }
    }
    return { hits, unread };
  }
}
