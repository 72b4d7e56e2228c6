/**
 * The credential-only review of one commit's own diff (docs/hooks.md "Push"): what
 * `runReview(session, { source: text, ruleFilter: credential rules, reviewer: false })` finds
 * and warns, without what only other rules need. Credential rules are built-in and run on every
 * text file whatever the bundle says, so no document is selected; the bundle is only asked for
 * its diagnostics (every review warns them) and its rule-time record.
 *
 * A bundle whose own rules take a built-in credential rule_source (a concept named
 * `builtin/secrets`) would run with them: that review goes through runReview as before.
 */
import { parseDiff } from '../diff/parse.js';
import { toChunks } from '../diff/chunk.js';
import type { Bundle } from '../bundle/types.js';
import type { HistoryRow } from '../core/trailer/history.js';
import { builtinRules, CREDENTIAL_RULE_SOURCES } from './builtin.js';
import { credentialScreen, type CredentialScreen } from './credential-screen.js';
import { bundleWarnings, configWarnings, runReview, type ReviewSession } from './index.js';
import { reviewSelections } from './pipeline.js';
import type { ReviewRule } from './rules.js';
import { loadVerdicts } from './suppress.js';
import type { Finding } from './types.js';

export interface CredentialResult {
  findings: Finding[];
  warnings: string[];
}

export interface CredentialCheck {
  /**
   * Null: every commit must be reviewed. Otherwise false means the review of that diff would
   * find nothing and warn only what the session's other reviews warn already (configWarnings,
   * and bundleWarnings once a review had a diff).
   */
  screen: CredentialScreen | null;
  /** The review of one commit's diff text (`name` as the diff reader's errors call it). */
  review(text: string, name: string): Promise<CredentialResult>;
}

const isCredential = (source: string) => CREDENTIAL_RULE_SOURCES.has(source);

/** Whether any of the bundle's own rules would pass the credential filter. */
function bundleHasCredentialSources(bundle: Bundle): boolean {
  return bundle.concepts.some((c) => c.rules.some((r) => isCredential(r.ruleSource)));
}

/** Per-commit credential reviews with verdicts from `verdictTip`'s history (read once, by `history`). */
export function credentialCheck(session: ReviewSession, verdictTip: string, history: () => Promise<HistoryRow[]>): CredentialCheck {
  const { config } = session;
  const rules: ReviewRule[] = builtinRules(config.builtinRules).filter((r) => isCredential(r.ruleSource));
  const asBefore = (text: string, name: string) =>
    runReview(session, { cwd: session.top, source: { kind: 'text', text, name }, verdictTip, history, ruleFilter: isCredential, reviewer: false });

  return {
    screen: credentialScreen(rules),
    async review(text, name) {
      const warnings = configWarnings(config);
      const chunks = toChunks(parseDiff(text, name), config.chunkLines);
      if (chunks.length === 0) return { findings: [], warnings };
      const bundle = await session.bundle();
      if (bundleHasCredentialSources(bundle)) return asBefore(text, name);
      warnings.push(...bundleWarnings(bundle));
      const result = await reviewSelections(
        chunks.map((chunk) => ({ chunk, matched: [], documents: [] })),
        {
          top: session.top,
          builtin: rules,
          reviewer: null,
          minConfidence: config.minConfidence,
          softTests: config.softTests,
          ruleFilter: isCredential,
          // A diff given as text is read with the work tree's attributes, as runReview does.
          attributes:
            session.commonDir === null
              ? undefined
              : async (paths) => (await import('../diff/attributes.js')).readAttributes(session.top, paths, { kind: 'worktree' }),
          verdicts: async () => loadVerdicts(session.top, session.commonDir === null ? null : verdictTip, [], history),
          // Credential rules are never calibrated: no numbers to read.
          ruleTime: { overran: (bundle.overran ??= new Set()), onOverrun: (key) => bundle.rememberOverrun?.(key) },
        },
        warnings,
      );
      return { findings: result.findings, warnings: result.warnings };
    },
  };
}
