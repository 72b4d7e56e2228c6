/**
 * Which violations a change introduces (docs/review.md "What a change introduces"): a rule's
 * violations in a file's old and new versions, each known by its own text and place, paired up;
 * a new one no old one accounts for is introduced. Pure: the callers read the versions.
 *
 * Pairs are made from the most alike to the least: the same text on the same line in the same
 * declaration (an unchanged line), the same text on the same line anywhere in the file (a block
 * moved to another function), the same text in the same declaration (the line around it edited,
 * an import extended; first where one line holds the other), then, inside one named declaration, any violation of the rule left there
 * (its own text edited: `x as any` become `value as any` with a rename). A violation on a line
 * the change did not add is paired first, so where the change adds a second copy of an old
 * violation it is the copy that stays unpaired. Last, a line the diff took out of another file
 * and added here whole is moved (a module split in two), where the rule governed the file it
 * came from.
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
/** Past this many candidate pairs (a file with thousands of one violation) the pairing is by count. */
const MAX_PAIRS = 200_000;

/** How many pairs share a key: what the matching would weigh. */
function pairsBound(before: readonly Violation[], after: readonly Violation[]): number {
  const olds = new Map<string, number>();
  for (const v of before) olds.set(v.key, (olds.get(v.key) ?? 0) + 1);
  let pairs = 0;
  for (const v of after) pairs += olds.get(v.key) ?? 0;
  return pairs;
}

/**
 * The pairing by count, bounded in time and memory for any file: per text, as many new violations
 * are introduced as the new version has more than the old; they are taken from the added lines,
 * those whose line the old version did not have first.
 */
function byCount<T extends Violation>(
  before: readonly Violation[],
  after: readonly T[],
  added: (v: T) => boolean,
  movedHere?: (v: T) => boolean,
): T[] {
  const olds = new Map<string, number>();
  const oldLines = new Set(before.map((v) => v.lineKey));
  for (const v of before) olds.set(v.key, (olds.get(v.key) ?? 0) + 1);
  const byKey = new Map<string, T[]>();
  for (const v of after) {
    const list = byKey.get(v.key);
    if (list) list.push(v);
    else byKey.set(v.key, [v]);
  }
  const out = new Set<T>();
  for (const [key, list] of byKey) {
    let extra = list.length - (olds.get(key) ?? 0);
    const fresh = list.filter(added).sort((a, b) => Number(oldLines.has(a.lineKey)) - Number(oldLines.has(b.lineKey)));
    for (const v of fresh) {
      if (extra <= 0) break;
      extra--;
      if (!movedHere?.(v)) out.add(v);
    }
  }
  return after.filter((v) => out.has(v));
}

export function introducedViolations<T extends Violation>(
  before: readonly Violation[],
  after: readonly T[],
  added: (v: T) => boolean,
  movedHere?: (v: T) => boolean,
): T[] {
  if (pairsBound(before, after) > MAX_PAIRS) return byCount(before, after, added, movedHere);
  // Lines the change did not add first, then in line order.
  const order = after
    .map((v, index) => ({ v, index, fresh: added(v) }))
    .sort((a, b) => Number(a.fresh) - Number(b.fresh) || a.v.line - b.v.line || a.index - b.index);
  // How alike two violations are (lower is more alike), or 0 where they cannot be one.
  const alike = (old: Violation, now: Violation): number => {
    if (old.key === now.key) {
      if (old.declaration === now.declaration && old.lineKey === now.lineKey) return 1;
      if (old.lineKey === now.lineKey) return 2;
      if (old.declaration === now.declaration) {
        // The old line still there, with more around it (or the new one cut from it): touched.
        return now.lineKey.includes(old.lineKey) || old.lineKey.includes(now.lineKey) ? 3 : 4;
      }
    }
    return now.declaration !== null && old.declaration === now.declaration ? 5 : 0;
  };
  // Each new violation's candidates, the most alike first. A maximum matching (augmenting paths,
  // tier by tier) pairs as many as can be paired, the most alike first: a greedy pass can give an
  // old violation to the wrong new one and leave a kept violation unpaired.
  const olds = new Map<string, number[]>();
  before.forEach((v, k) => {
    const list = olds.get(v.key);
    if (list) list.push(k);
    else olds.set(v.key, [k]);
  });
  const byDeclaration = new Map<string, number[]>();
  before.forEach((v, k) => {
    if (v.declaration === null) return;
    const list = byDeclaration.get(v.declaration);
    if (list) list.push(k);
    else byDeclaration.set(v.declaration, [k]);
  });
  const candidates = order.map(({ v }) => {
    const near = new Set([
      ...(olds.get(v.key) ?? []),
      ...(v.declaration === null ? [] : (byDeclaration.get(v.declaration) ?? [])),
    ]);
    return [...near]
      .map((k) => ({ k, tier: alike(before[k]!, v) }))
      .filter((c) => c.tier > 0)
      .sort((a, b) => a.tier - b.tier || a.k - b.k);
  });
  const ownerOf = new Int32Array(before.length).fill(-1);
  const matched = new Uint8Array(order.length);
  // Augmenting paths over the pairs at most `tier` apart: a pair made stays made (re-routed at most).
  const augment = (n: number, tier: number, seen: Uint8Array, depth: number): boolean => {
    for (const c of candidates[n]!) {
      if (c.tier > tier) break;
      if (seen[c.k]) continue;
      seen[c.k] = 1;
      // Bounded: a file with thousands of one violation pairs them without a deep search.
      if (ownerOf[c.k] === -1 || (depth < 64 && augment(ownerOf[c.k]!, tier, seen, depth + 1))) {
        ownerOf[c.k] = n;
        matched[n] = 1;
        return true;
      }
    }
    return false;
  };
  // The most alike pairs first, over the whole file: a tier's pairs are made before the next
  // tier's can take an old violation a better pair needed.
  for (let tier = 1; tier <= 5; tier++) {
    for (let n = 0; n < order.length; n++) {
      if (matched[n] || !candidates[n]!.length || candidates[n]![0]!.tier > tier) continue;
      augment(n, tier, new Uint8Array(before.length), 0);
    }
  }
  const paired = new Uint8Array(order.length);
  for (const n of ownerOf) if (n !== -1) paired[n] = 1;
  // A line the change took out of another file and put here, whole: moved, not written.
  const unpaired = order.filter((item, n) => !paired[n] && !(item.fresh && movedHere?.(item.v)));
  return unpaired.sort((a, b) => a.index - b.index).map((item) => item.v);
}
