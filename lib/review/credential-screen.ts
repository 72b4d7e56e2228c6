/**
 * A screen in front of the per-commit credential review of a push (docs/hooks.md "Push"): from
 * a commit's raw diff bytes, whether any credential rule could report anything at all. Almost
 * every commit of a long history holds no credential, and for those this is a few regex scans
 * of bytes never decoded, instead of a parsed diff and a rule run.
 *
 * Sound, not complete: a commit the review would report on always passes. Every match of a
 * rule contains one of its needles (./engine/needles.ts) on one added line, and an added line is a
 * line of the diff that starts with `+` (file headers pass too: harmless). So the needles are
 * looked for in the bytes (read as latin1: byte offsets are string offsets, and ASCII needles
 * match UTF-8 text exactly where they match its bytes), and only a `+` line holding one is
 * decoded and given the rules' own regexes, as the diff reader would hand it on.
 */
import { prefilterOf } from './engine/prefilter.js';
import type { ReviewRule } from './engine/types.js';
import { needleSearches, someNeedleLine, type ScreenNeedles } from './credential-needles.js';

/** True: the commit may hold a credential finding (review it); false: it cannot. */
export type CredentialScreen = (diff: Buffer) => boolean;

const PLAIN_NEEDLE = /^[\x20-\x7e]+$/;

/**
 * The screen for these rules, or null when one of them cannot be screened soundly (no
 * needles, a needle outside printable ASCII, Unicode case folding, a rule that reads masked
 * code): every commit is then reviewed.
 */
export function credentialScreen(rules: readonly ReviewRule[]): CredentialScreen | null {
  const needles = screenNeedles(rules);
  if (!needles) return null;
  const searches = needleSearches(needles);
  const anyRuleMatches = (line: string) =>
    rules.some((rule) => {
      rule.regex.lastIndex = 0;
      const hit = rule.regex.test(line);
      rule.regex.lastIndex = 0;
      return hit;
    });
  return (diff) =>
    someNeedleLine(diff.toString('latin1'), searches, (start, end) => {
      // The line as the diff reader gives it to the rules: no marker, no CR of a CRLF file.
      const line = diff.toString('utf8', start + 1, end);
      return anyRuleMatches(line.endsWith('\r') ? line.slice(0, -1) : line);
    });
}

/** The needles of these rules, or null when one of them cannot be screened soundly (see credentialScreen). */
export function screenNeedles(rules: readonly ReviewRule[]): ScreenNeedles | null {
  const exact = new Set<string>();
  const folded = new Set<string>();
  for (const rule of rules) {
    const filter = prefilterOf(rule);
    if (!filter || rule.scope === 'code' || !filter.needles.every((n) => PLAIN_NEEDLE.test(n))) return null;
    // Under `u` or `v`, `i` folds non-ASCII letters onto ASCII ones (ſ is s): bytes cannot tell.
    if (filter.ignoreCase && /[uv]/.test(rule.flags)) return null;
    for (const n of filter.needles) (filter.ignoreCase ? folded : exact).add(n);
  }
  return { exact: [...exact].sort(), folded: [...folded].sort() };
}
