/**
 * The needle test, defined once: the rule runner skips a rule on a piece whose added text holds
 * none of its needles (./rules.ts), and the clean check answers "clean" by the same test over
 * every rule's needles without loading the rules (../clean-check.ts, docs/hooks.md "Clean
 * commits"). Kept apart from the runner so that the clean check's small bundle can take it.
 */
import type { Chunk } from '../../diff/types.js';

/** A piece's added lines as the rules read them for their needles. */
export function joinedAdded(chunk: Chunk): string {
  return chunk.added.map((a) => a.text).join('\n');
}

/** The text lower-cased for case-blind needles, or null when it is not plain ASCII (lower-casing is not Unicode case folding). */
export function asciiLower(text: string): string | null {
  return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : null;
}

/** Whether `text` holds any of `needles`. */
export function holdsNeedle(text: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (text.includes(needle)) return true;
  return false;
}
