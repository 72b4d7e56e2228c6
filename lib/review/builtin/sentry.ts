/**
 * Sentry auth tokens (docs/review.md "Credential formats"): organization tokens
 * `sntrys_<base64 JSON naming the org and its URLs>_<base64 of 32 random bytes>`, and user
 * tokens `sntryu_<64 hex>`. They upload source maps and call Sentry's API, so they sit in CI
 * files, `.sentryclirc` and `.env` files, which is where they leak.
 */
import type { RuleDrop } from '../engine/rules.js';
import type { BuiltinFamily } from './define.js';
import { secret } from './secrets.js';
import { decodeBase64, notPlaceholder, placeholderDrop } from './secret-shape.js';

/** An org token's payload must decode to a JSON object naming the org; its secret must not be a placeholder. */
function notASentryToken(match: RegExpExecArray, text: string): boolean | RuleDrop {
  if (match[1] === undefined) return notPlaceholder(0, 3)(match, text); // a user token: hex
  let payload: unknown;
  try {
    payload = JSON.parse(decodeBase64(match[1]) ?? '') as unknown;
  } catch {
    return true;
  }
  if (typeof payload !== 'object' || payload === null || typeof (payload as { org?: unknown }).org !== 'string')
    return true;
  return placeholderDrop(match[2]!, 3.5) || notPlaceholder(2)(match, text);
}

export const family: BuiltinFamily = {
  section: 'secrets',
  credential: true,
  specs: () => [
    secret({
      id: 'sentry-token',
      // The payload is JSON (`{"…` is `eyJ` in base64); the secret is 43 characters of unpadded
      // base64 (tokens of Sentry's first release wrapped it once more, with padding).
      regex:
        /\bsntrys_(eyJ[A-Za-z0-9+/]{20,}={0,2})_([A-Za-z0-9+/]{43,64}={0,2})(?![A-Za-z0-9+/=])|\bsntryu_[a-f0-9]{64}\b/g,
      title: 'Sentry auth token committed',
      what: 'A Sentry organization or user auth token (sntrys_/sntryu_) is added.',
      confidence: 0.9,
      reject: notASentryToken,
    }),
  ],
};
