/**
 * A rule's needles (./needles.ts): strings one of which every match contains. A chunk holding
 * none of them is skipped without compiling or running the rule's regex.
 */
import type { Rule } from '../../bundle/types.js';
import type { ReviewRule } from './types.js';
import { regexNeedles } from './needles.js';
import { derived } from '../../core/derived-cache.js';

export interface Prefilter {
  needles: readonly string[];
  ignoreCase: boolean;
}

const prefilters = new WeakMap<Rule, Prefilter | null>();
const isNeedles = (value: unknown): value is string[] | null =>
  value === null || (Array.isArray(value) && value.every((n) => typeof n === 'string'));

/** The rule's needles (./needles.ts), from its pattern text: a rule skipped by them never compiles its regex. */
export function prefilterOf(rule: ReviewRule): Prefilter | null {
  let filter = prefilters.get(rule);
  if (filter === undefined) {
    const masked = rule.scope === 'code';
    const needles =
      rule.needles !== undefined
        ? rule.needles
        : derived(
            'needles',
            `${masked ? 'code' : 'line'}\0${rule.flags}\0${rule.pattern}`,
            () => regexNeedles(rule.pattern, rule.flags, { masked }),
            isNeedles,
          );
    filter = needles && { needles, ignoreCase: rule.flags.includes('i') };
    prefilters.set(rule, filter);
  }
  return filter;
}
