/**
 * The needle half of the credential screen (./credential-screen.ts, docs/hooks.md "Push"): the
 * added lines of a diff's bytes that hold a credential rule's needle. Apart from the rules and
 * their needle reader, so that the start-up's clean push (flows/push-start.ts) screens with the
 * needles the clean check's record keeps, without the rules.
 */
import { escapeRegExp } from '../core/regex-escape.js';

/** The credential rules' needles: compared as they are (`exact`), or ASCII case-blind (`folded`). */
export interface ScreenNeedles {
  exact: string[];
  folded: string[];
}

/** The searches for these needles, over a diff's bytes read as latin1. */
export function needleSearches(needles: ScreenNeedles): RegExp[] {
  const searches: RegExp[] = [];
  // Without `u`, `i` matches an ASCII letter only to ASCII letters: right on latin1 bytes.
  if (needles.exact.length) searches.push(new RegExp(needles.exact.map(escapeRegExp).join('|'), 'g'));
  if (needles.folded.length) searches.push(new RegExp(needles.folded.map(escapeRegExp).join('|'), 'gi'));
  return searches;
}

/**
 * Whether `test` answers true for an added line (one starting with `+`: file headers pass too,
 * harmlessly) of `text` that holds a needle; `start` is the offset of its `+`, `end` of its end.
 * Each line is tested once, for its first needle.
 */
export function someNeedleLine(
  text: string,
  searches: readonly RegExp[],
  test: (start: number, end: number) => boolean,
): boolean {
  for (const search of searches) {
    search.lastIndex = 0;
    for (let found = search.exec(text); found; found = search.exec(text)) {
      const start = text.lastIndexOf('\n', found.index) + 1;
      const newline = text.indexOf('\n', found.index);
      const end = newline === -1 ? text.length : newline;
      search.lastIndex = end; // every rule runs on this line now: on to the next one
      if (text.charCodeAt(start) !== 0x2b /* + */) continue;
      if (test(start, end)) return true;
    }
  }
  return false;
}
