/**
 * Which violations a change introduces (docs/review.md "What a change introduces"): a rule's
 * violations in a file's old and new versions, each known by its own text and place, paired up;
 * a new one no old one accounts for is introduced. Pure: the callers read the versions.
 *
 * Pairs are made from the most alike to the least: the same text in the same declaration on an
 * unchanged line, then the same text in the same declaration, then the same text anywhere in the
 * file (a block moved to another function), then, inside one named declaration, a violation
 * whose text the change edited (`x as any` become `value as any` with a rename): the place is
 * the same, and so is the violation. A violation on a line the change did not add is
 * paired first, so where the change adds a second copy of an old violation it is the copy that
 * stays unpaired.
 */

export interface Violation {
  /** 1-based line the violation starts on (in its own version). */
  line: number;
  /** The violation's own text, normalised (violationKey). */
  key: string;
  /** The innermost declaration holding it, or null where none is known. */
  declaration: string | null;
  /** The whole line's text, normalised: an unchanged line pairs first. */
  lineKey: string;
}

/** A violation's text with white space taken out: a reformatted call or import is the same violation. */
export function violationKey(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * The new violations no old violation accounts for. `added(v)`: whether a new violation stands
 * on a line the change added (those are paired last).
 */
export function introducedViolations<T extends Violation>(
  before: readonly Violation[],
  after: readonly T[],
  added: (v: T) => boolean,
): T[] {
  const olds = new Map<string, Violation[]>();
  for (const v of before) {
    const list = olds.get(v.key);
    if (list) list.push(v);
    else olds.set(v.key, [v]);
  }
  // Lines the change did not add first, then in line order.
  const order = after
    .map((v, index) => ({ v, index, fresh: added(v) }))
    .sort((a, b) => Number(a.fresh) - Number(b.fresh) || a.v.line - b.v.line || a.index - b.index);
  const unpaired = new Set(order);
  const tiers: Array<(a: Violation, b: Violation) => boolean> = [
    (a, b) => a.declaration === b.declaration && a.lineKey === b.lineKey,
    (a, b) => a.declaration === b.declaration,
    () => true,
  ];
  for (const same of tiers) {
    for (const item of order) {
      if (!unpaired.has(item)) continue;
      const list = olds.get(item.v.key);
      if (!list?.length) continue;
      const at = list.findIndex((old) => same(old, item.v));
      if (at === -1) continue;
      list.splice(at, 1);
      unpaired.delete(item);
    }
  }
  // An edited violation in the same named declaration: any old one of the rule left there.
  const left = [...olds.values()].flat();
  for (const item of order) {
    if (!unpaired.has(item) || item.v.declaration === null) continue;
    const at = left.findIndex((old) => old.declaration === item.v.declaration);
    if (at === -1) continue;
    left.splice(at, 1);
    unpaired.delete(item);
  }
  return [...unpaired].sort((a, b) => a.index - b.index).map((item) => item.v);
}
