/** The review's inputs and result (docs/review.md). `review()` in ./index.ts is shared by CLI and hooks. */
import type { Category, Severity } from '../core/vocabulary.js';
import type { HistoryRow } from '../record/history.js';
import type { AttributeLoader } from './engine/file-facts.js';
import type { Repo } from '../core/git/repo.js';
import type { Config } from '../config/schema.js';
import type { FindingCalibration } from '../record/rule-tally.js';
import type { StructuralIO } from './structural/index.js';

export interface Finding {
  id: string;
  path: string;
  start_line: number;
  line: number;
  side: 'RIGHT';
  severity: Severity;
  category: Category;
  title: string;
  body: string;
  rule_source: string;
  citations: string[];
  suggestion_code: string | null;
  confidence: number;
  /**
   * Set when history demoted the finding's rule (docs/gate.md "Calibration"): most of its answered
   * findings were rejected, so this one counts at most as COMMENT.
   */
  calibration?: FindingCalibration;
  /**
   * A human verdict the finding has that does not take it out of the count (docs/gate.md
   * "Answers by kind"): ACCEPT (fixed, yet still here), or an answer not fit for its kind (DEFER
   * on a credential). The gate says why it still blocks.
   */
  answer?: {
    verdict: string;
    rationale: string;
    /** The commit carrying the answer's row (none: queued). */
    commit?: string;
    /** Every commit carrying the same answer, newest first (a second reviewer's signature: lib/flows/push-signed.ts). */
    commits?: string[];
    /**
     * The answer opens the gate only with a listed reviewer's signature on its commit (docs/gate.md
     * "Signed answers"): the push gate checks it after the review (lib/flows/push-signed.ts).
     */
    needsSignature?: true;
  };
  /** An allow comment that does not take the finding out: its kind needs a signed answer (docs/gate.md "Signed answers"). */
  allowComment?: string;
}

export type { ReviewEvent } from '../core/vocabulary.js';
import type { ReviewEvent } from '../core/vocabulary.js';

import type { DiffSource } from '../diff/types.js';
export type { DiffSource } from '../diff/types.js';

/** What suppression needs of a queued verdict (the queue itself lives in lib/verdicts). */
export interface QueuedVerdictLike {
  id: string;
  verdict: string;
  rationale: string;
}

export interface ReviewOptions {
  /** Any folder inside the work tree. */
  cwd: string;
  source: DiffSource;
  /** Overrides config.knowledge. */
  knowledge?: string;
  /** Where the config, bundle and doc map are read instead of the top level (`--policy-from`). */
  policyTop?: string;
  /** The commit that policy was copied from: its .gitattributes apply. */
  policyCommit?: string;
  /** Overrides config.reviewer.command (argv, run without a shell); false: no reviewer program. */
  reviewer?: string[] | false;
  /**
   * false: the model reviewer (config reviewer.model) is not asked in this run; a hook passes
   * whether its `hooks` name it. `reviewer: false` turns it off too.
   */
  model?: boolean;
  /** false: no reviewer program in this run, whatever the config or trust say (the editor's server). */
  program?: false;
  softTests?: boolean;
  minConfidence?: number;
  /** Commit whose history supplies verdicts (default HEAD); null: none (no history yet). */
  verdictTip?: string | null;
  /**
   * The Review-Finding rows of `verdictTip`'s history, when the caller has read (or will read)
   * them anyway: the commit-msg hook shares one read of the history between suppression and
   * "already recorded on this branch".
   */
  history?: () => Promise<HistoryRow[]>;
  /**
   * Git's attributes of the reviewed paths, when the caller has asked for them already (the
   * editor's first review, beside its bundle load). Absent: read on first use, from where the
   * source says (docs/review.md "Git's attributes").
   */
  attributes?: AttributeLoader;
  /**
   * Verdicts queued by `revtrail verdict` and not committed yet. They suppress only where the
   * caller passes them (a local review, the commit-msg hook), never at the push gate or with
   * --range: what is pushed must carry its own answers (docs/record.md).
   */
  queued?: (commonDir: string) => Promise<readonly QueuedVerdictLike[]>;
  /**
   * The push gate's review (pre-push, the server, CI): answers to the kinds the policy's
   * `gate.reviewers` names need a reviewer's signature, so they and allow comments on those
   * kinds do not take a finding out here; the gate checks the signatures (docs/gate.md "Signed answers").
   */
  signedAnswers?: boolean;
  /**
   * false: no calibration in this run (`--no-calibration`); otherwise config `calibration`
   * decides. The numbers come from the same history rows as the verdicts.
   */
  calibration?: boolean;
  /** Only these rule sources run (pre-push checks credential rules per commit). */
  ruleFilter?: (ruleSource: string) => boolean;
  /**
   * The rule phase's time for an explicit whole-tree or history review (`review --all`,
   * `rules --backtest`, `baseline`): the budget all bundle rules and the structural pass share,
   * and each bundle rule's deadline. The budget guards a hook against a hostile rule, not a
   * big tree; the sandbox and the per-rule deadline still bound a hostile rule here
   * (docs/review.md "The whole tree"). Absent: the hook's limits (engine/time.ts).
   */
  ruleTime?: { budgetMs?: number; deadlineMs?: number };
  /**
   * What syntax-tree and import rules read, when the caller holds it: the backtest keeps one
   * `git cat-file` and the files of the commit it is at for the whole history
   * (flows/backtest-files.ts). Absent: read from the source's new side (structural/io.ts).
   */
  fileVersions?: StructuralIO;
  /**
   * false: the committed baseline (.revtrail/baseline.json) takes nothing out in this run:
   * `revtrail baseline` records the tree anew, the backtest replays history. Default: it applies.
   */
  baseline?: false;
  /** Called as each chunk finishes (the CLI draws progress from it). */
  onProgress?: (done: number, total: number, path: string) => void;
  /**
   * Awaited between chunks, outside any rule's time: pre-push reads the pushed commits' diffs
   * from git while the combined diff is reviewed.
   */
  pause?: () => Promise<void>;
  /** The repository of `cwd`, when the caller has found it already (the hooks): saves a git call. */
  repo?: Repo;
  /** The configuration of that repository, when the caller has loaded it already. */
  config?: Config;
  /**
   * The new version of `path` is this text, not the work tree's file: an editor's buffer, whose
   * diff is a `text` source (docs/editor.md "What is reviewed"). Syntax-tree and import rules read it.
   */
  buffer?: { path: string; text: string };
}

/** A finding an allow comment took out of the review; it stays in the output. */
export type AllowedFinding = Finding & {
  allowed: {
    marker: 'revtrail-allow' | 'gitleaks:allow' | 'linter';
    line: number;
    rule: string | null;
    reason: string;
  };
};

/** A finding a verdict took out of the count; it stays in the output. */
export type SuppressedFinding = Finding & { verdict: string; rationale: string };

export type DropReason = 'low_confidence' | 'off_diff' | 'bad_citation' | 'invalid';

/**
 * What the review did not report, counted: findings dropped by the finding contract (the first
 * four), credential-shaped values that are placeholders or published examples, matches an inline
 * directive turned off (`eslint-disable-next-line no-debugger`), and files that got the
 * credential rules only (generated, vendored, minified). `notes` says which, with --verbose.
 */
export interface DroppedCounts {
  low_confidence: number;
  off_diff: number;
  bad_citation: number;
  invalid: number;
  placeholder: number;
  disabled_inline: number;
  /** Bundle-rule matches of violations the file's old version already had, or in comments and strings (docs/review.md "What a change introduces"). */
  existing: number;
  /** Findings an allow comment took out (`revtrail-allow RULE`, `gitleaks:allow`): listed under `allowed`. */
  allowed_inline: number;
  credentials_only: number;
}

export function noDrops(): DroppedCounts {
  return {
    low_confidence: 0,
    off_diff: 0,
    bad_citation: 0,
    invalid: 0,
    placeholder: 0,
    disabled_inline: 0,
    existing: 0,
    allowed_inline: 0,
    credentials_only: 0,
  };
}

export interface ReviewResult {
  version: 1;
  summary: string;
  event: ReviewEvent;
  findings: Finding[];
  suppressed: SuppressedFinding[];
  /** Findings an allow comment took out of the review, each with the comment (docs/review.md). */
  allowed?: AllowedFinding[];
  /**
   * Findings the adoption baseline took out of the count: violations recorded by `revtrail
   * baseline` before the rule was enforced (docs/mining.md "The baseline"). Absent: none.
   */
  baselined?: Finding[];
  knowledge_docs: Array<{ path: string; piece: number; documents: string[] }>;
  merged_findings: number;
  dropped: DroppedCounts;
  warnings: string[];
  /** One line per dropped item and per file read for credentials only (printed with --verbose). */
  notes?: string[];
}
