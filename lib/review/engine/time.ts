/**
 * The time bundle rules may take (docs/bundle.md "Time"): per sandboxed call, per rule in one
 * review, and for all of them together; built-in rules per piece (docs/review.md "Time").
 */

/** Past this length a line is given only to rules marked `longLines` (./rules.ts), with a warning. */
export const MAX_LINE_LENGTH = 4000;

/** Time a sandboxed rule may take on one chunk before it is skipped (and remembered as too slow). */
export const SANDBOX_TIMEOUT_MS = 1000;
/** Time one bundle rule may take in one review, all chunks together, before it is skipped. */
export const RULE_DEADLINE_MS = 1000;
/** Time all bundle rules of one review may take together; after it, only the baseline runs. */
export const RULE_PHASE_BUDGET_MS = 4000;

/**
 * Time a credential rule may take on one piece. Its patterns are linear, so only a huge piece
 * reaches it; the lines it did not read then become a blocking finding, never a silent skip.
 */
export const CREDENTIAL_DEADLINE_MS = 10_000;

export interface RuleTimeOptions {
  /** Keys (ruleTimeKey) of rules that overran in an earlier review: skipped. Overruns of this run are added. */
  overran?: Set<string>;
  /** Called with the key of a rule that overran in the sandbox (to remember it). */
  onOverrun?: (key: string) => void;
  budgetMs?: number;
  deadlineMs?: number;
  sandboxMs?: number;
  credentialMs?: number;
}
