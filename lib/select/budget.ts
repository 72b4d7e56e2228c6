/**
 * The knowledge budget (docs/bundle.md): tokens = ceil(characters / 4); documents are given in
 * selection order until the first one that no longer fits; a best match that alone is over
 * the budget is cut to fit and ends with `[…truncated]`.
 */
export const TRUNCATION_MARK = '[…truncated]';

/** Characters as a reader counts them (code points, so an emoji is one). No copy of the text. */
export function characters(text: string): number {
  // Without surrogates every UTF-16 unit is one code point.
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) {
      n--;
      i++;
    }
  }
  return n;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The UTF-16 length of the first `count` code points of `text` (never splits a surrogate pair). */
function prefixLength(text: string, count: number): number {
  let i = 0;
  for (let k = 0; k < count && i < text.length; k++) {
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

export function tokensOf(text: string): number {
  return Math.ceil(characters(text) / 4);
}

/** Cuts `text` so that it, a newline and the mark fit `maxTokens`; prefers a line or word end. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const limit = Math.max(0, maxTokens) * 4;
  const markLength = characters(TRUNCATION_MARK);
  if (limit <= markLength) return TRUNCATION_MARK.slice(0, prefixLength(TRUNCATION_MARK, limit));
  // Only the kept prefix is ever copied: the text itself may be megabytes.
  const keep = text.slice(0, prefixLength(text, limit - markLength - 1));
  // Back up to a line or word boundary when one is near, so the cut does not split a word.
  const boundary = Math.max(keep.lastIndexOf('\n'), keep.lastIndexOf(' '));
  const cut = boundary > keep.length * 0.8 ? keep.slice(0, boundary) : keep;
  return `${cut.trimEnd()}\n${TRUNCATION_MARK}`;
}

export interface Budgeted<T> {
  item: T;
  text: string;
  tokens: number;
  truncated: boolean;
}

/** The prefix of `items` (in selection order, each with its full text and its tokens) that fits `maxTokens`. */
export function applyBudget<T extends { text: string; tokens: number }>(
  items: readonly T[],
  maxTokens: number,
): Budgeted<T>[] {
  const out: Budgeted<T>[] = [];
  let used = 0;
  for (const item of items) {
    const { text, tokens } = item;
    if (used + tokens <= maxTokens) {
      out.push({ item, text, tokens, truncated: false });
      used += tokens;
      continue;
    }
    if (out.length === 0) {
      const cut = truncateToTokens(text, maxTokens);
      out.push({ item, text: cut, tokens: tokensOf(cut), truncated: true });
    }
    break;
  }
  return out;
}
