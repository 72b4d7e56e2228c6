/**
 * Whether a credential-shaped value is a real one: placeholders (`AKIAZZZZ…`, `ghp_xxxx…`,
 * `<your key>`, masked `xoxp-…-####`), keys their providers publish as examples, and values of
 * too little randomness are not. A placeholder is not reported, but counted under `dropped` and
 * said with --verbose: a real key that looked like one would otherwise vanish without a word.
 */
import type { RuleDrop } from '../engine/rules.js';
import { reviewMessages as m } from '../../messages/review.js';

/**
 * Words and masks of made-up values (`your_api_key_here`, `xxxx`, `…`, `12345678`). Such a word
 * inside a random body is chance (about one random 192-character body in 2,000 holds `fake` in
 * some case), so they make a placeholder only where they cover most of the value (isPlaceholder).
 */
const PLACEHOLDER_WORDS =
  /example|sample|dummy|fake|placeholder|redacted|changeme|change|insert|replace|your|here|my|secret|token|api|key|value|test|live|password|x{3,}|\*{3,}|#{3,}|\.{3,}|\u2026|0123456789|12345678|abcdef|qwerty/gi;

/** An elision or a mask at the end of a value. */
const ELIDED_END = /(?:\.{3,}|\u2026|\*{3,}|#{3,}|x{8,}|X{8,})$/;

/** Whole-value templates: `<your key>`, `${TOKEN}`, `{{ token }}`, `%(token)s`. */
const TEMPLATE = /<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\([^)]*\)s/;

/**
 * Whether `value` is a placeholder as docs/review.md "Placeholders" defines one: a published
 * example key, a template, a masked value (one or two characters repeated after a provider's
 * prefix), or a value whose placeholder words and masks leave less than half of its letters and
 * digits.
 */
export function isPlaceholder(value: string): boolean {
  if (PUBLISHED.has(value) || TEMPLATE.test(value)) return true;
  // Cut short: a provider's prefix kept and the rest elided (`sk-ant-api03-...`, `ghp_xxxx…`,
  // `AKIA****`): no working credential ends so (issue 58).
  if (ELIDED_END.test(value)) return true;
  // Masked: every part after the first (or, in one part, all after a 4-character prefix) is
  // one or two characters repeated (`xoxb-000000000000-xxxx…`, `T00000000/B00000000/XXXX…`).
  const parts = value.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const rest = parts.length > 1 ? parts.slice(1) : [value.slice(4)];
  if (rest.join('').length >= 8 && rest.every((p) => p.length >= 4 && new Set(p.toLowerCase()).size <= 2)) return true;
  const all = value.replace(/[^A-Za-z0-9]/g, '').length;
  const left = value.replace(PLACEHOLDER_WORDS, '').replace(/[^A-Za-z0-9]/g, '').length;
  return left < all / 2;
}

/**
 * Keys their providers publish in documentation and in their own public SDK tests, where a
 * scanner meets them in every checkout: AWS's documented example pair, Stripe's documented test
 * key, the API keys Google's Firebase SDKs use in their test sources, and the Azure storage
 * emulator's account key (docs/review.md).
 */
const PUBLISHED = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  'AIzaSyabcdefghijklmnopqrstuvwxyz1234567',
  'AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ',
  'AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM',
  'AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY',
  'AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4',
  'AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c',
  'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs',
  'AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
  'AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
  'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
  // The Firebase Cloud Messaging SDK tests' keys (firebase-android-sdk, project ghmessagingapitests).
  'AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
  'AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
  'AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
  'AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
  'AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
  // The Azure storage emulator's (Azurite's) documented development account key.
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
]);

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  if (value === '') return 0;
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** How many of lower case, upper case, digits and other characters the value uses. */
export function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(value)).length;
}

/** The start of a value, enough to find it again, never the whole secret. */
export function shown(value: string): string {
  return value.length <= 12 ? value : `${value.slice(0, 10)}…`;
}

/**
 * A RuleDrop when `value` is a placeholder, a published example or has too little randomness
 * for its length (`minEntropy` bits per character; 0 skips that check); false for a real-looking value.
 */
export function placeholderDrop(value: string, minEntropy = 0): RuleDrop | false {
  const fake = isPlaceholder(value) || (minEntropy > 0 && entropy(value) < minEntropy);
  return fake ? { reason: 'placeholder', why: m.placeholderKey(shown(value)) } : false;
}

/**
 * The rule's reject for a format: group `group` of the match (default: all of it) must not be
 * a placeholder, and what follows the match must not mask it (`xoxp-1234-####`, `AKIA…`).
 */
export function notPlaceholder(group = 0, minEntropy = 0) {
  return (match: RegExpExecArray, text: string): RuleDrop | false => {
    const value = match[group] ?? match[0];
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 4);
    if (/^(?:-?#|-?\*|\u2026|\.\.\.|-?x{3})/i.test(after))
      return { reason: 'placeholder', why: m.placeholderKey(shown(match[0])) };
    return placeholderDrop(value, minEntropy);
  };
}

/** base64 or base64url text decoded as UTF-8, or null. */
export function decodeBase64(text: string): string | null {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return null;
  try {
    return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  } catch {
    return null;
  }
}
