/**
 * The credential-only review of one commit's own diff (docs/hooks.md "Push"): runReview with
 * the credential rules' filter and no reviewer program. Credential rules are built-in and run on
 * every text file whatever the bundle says, so runReview selects no document for it (unless a
 * bundle rule takes a built-in credential rule_source), and the screen in front of it passes over
 * the commits those rules cannot report on.
 */
import type { Workspace } from '../workspace/index.js';
import type { Bundle } from '../bundle/types.js';
import type { HistoryRow } from '../record/history.js';
import { builtinRules, CREDENTIAL_RULE_SOURCES } from './builtin.js';
import { credentialScreen, type CredentialScreen } from './credential-screen.js';
import { runReview } from './index.js';
import type { Finding } from './types.js';

export interface CredentialResult {
  findings: Finding[];
  warnings: string[];
}

export interface CredentialCheck {
  /**
   * The screen, or null when every commit must be reviewed: a bundle rule takes a built-in
   * credential rule_source (the screen knows the built-in rules only), or a rule the screen cannot
   * read. A diff it passes over would find nothing and warn only what the session's other reviews
   * warn already (the config's and the bundle's warnings, once a review had a diff).
   */
  screen(): Promise<CredentialScreen | null>;
  /** The review of one commit's diff text (`name` as the diff reader's errors call it). */
  review(text: string, name: string, capped?: string[]): Promise<CredentialResult>;
}

const isCredential = (source: string) => CREDENTIAL_RULE_SOURCES.has(source);

/** Whether any of the bundle's own rules would pass the credential filter. */
export function bundleHasCredentialSources(bundle: Bundle): boolean {
  return bundle.concepts.some((c) => c.rules.some((r) => isCredential(r.ruleSource)));
}

/**
 * Per-commit credential reviews with verdicts from `verdictTip`'s history (read once, by
 * `history`). `bundleTakesCredentials`: whether a bundle rule takes a built-in credential
 * rule_source, when known without loading the bundle (the clean check's record, ./clean-check.ts).
 */
export function credentialCheck(
  session: Workspace,
  verdictTip: string | null,
  history: () => Promise<HistoryRow[]>,
  bundleTakesCredentials?: boolean,
  signedAnswers?: boolean,
): CredentialCheck {
  const rules = builtinRules(session.config.builtinRules).filter((r) => isCredential(r.ruleSource));
  return {
    screen: async () =>
      (bundleTakesCredentials ?? bundleHasCredentialSources(await session.bundle())) ? null : credentialScreen(rules),
    async review(text, name, capped) {
      const result = await runReview(session, {
        cwd: session.top,
        source: { kind: 'text', text, name, capped },
        verdictTip,
        history,
        ruleFilter: isCredential,
        reviewer: false,
        signedAnswers,
      });
      return { findings: result.findings, warnings: result.warnings };
    },
  };
}
