/**
 * Credential formats of tokens: GitHub, Slack (tokens and incoming-webhook URLs), Stripe, npm
 * and JSON Web Tokens. The formats and where they are documented: docs/review.md.
 */
import type { LineContext, RuleDrop } from '../engine/rules.js';
import type { BuiltinFamily } from './define.js';
import { secret } from './secrets.js';
import { characterClasses, decodeBase64, entropy, notPlaceholder, placeholderDrop, shown } from './secret-shape.js';
import { reviewMessages as m } from '../../messages/review.js';

/**
 * Slack tokens: `xoxb-`/`xoxp-`/`xoxa-`/`xoxs-`/`xoxr-`/`xoxo-` with numeric segments and a
 * random tail, the single-segment legacy shape, configuration tokens (`xoxe.xoxp-1-…`), refresh
 * tokens (`xoxe-1-…`) and app-level tokens (`xapp-1-…`).
 */
function notASlackToken(match: RegExpExecArray, text: string): boolean | RuleDrop {
  const placeholder = notPlaceholder()(match, text);
  if (placeholder) return placeholder;
  const token = match[0];
  const rest = token.slice(token.indexOf('-') + 1);
  const segments = rest.split('-');
  const tail = segments[segments.length - 1]!;
  // Words (`xoxb-not-a-real-token`) are not a token: a real one has a numeric first segment or
  // one long random segment.
  const numbered = /^\d+$/.test(segments[0]!) && segments.length >= 2;
  const random = segments.length === 1 && tail.length >= 10 && /\d/.test(tail) && /[A-Za-z]/.test(tail);
  if (!numbered && !random) return true;
  return numbered && segments.slice(1).join('').length < 10;
}

/** A JWT whose header and payload decode to JSON objects, the header naming its algorithm (or type, key, content type), and that is signed. */
function notAJwt(match: RegExpExecArray): boolean | RuleDrop {
  let token = match[0];
  // A JWT encoded once more in base64 (a Kubernetes Secret's data, a docker config): decoded, the same checks.
  if (token.startsWith('ZXlK')) {
    const inner = JWT_WHOLE.exec((decodeBase64(token) ?? '').trim());
    if (!inner) return true;
    token = inner[0];
  }
  const [header, payload, signature = ''] = token.split('.');
  let claims: unknown;
  try {
    const head = JSON.parse(decodeBase64(header!) ?? '') as unknown;
    claims = JSON.parse(decodeBase64(payload!) ?? '') as unknown;
    // A JOSE header names its algorithm; one that names its type, key or content type is a token too.
    if (
      typeof head !== 'object' ||
      head === null ||
      !JOSE_KEYS.some((k) => typeof (head as Record<string, unknown>)[k] === 'string')
    )
      return true;
    if (typeof claims !== 'object' || claims === null) return true;
  } catch {
    return true;
  }
  if (signature.length < 16) return true; // unsigned (alg none): it proves nothing to a server
  // The token every JWT tutorial prints (sub 1234567890, John Doe): a published example.
  const c = claims as Record<string, unknown>;
  if (c.sub === '1234567890' || /^(?:john doe|jane doe|test user|example)$/i.test(String(c.name ?? ''))) {
    return { reason: 'placeholder', why: m.placeholderKey(shown(match[0])) };
  }
  return false;
}

const JOSE_KEYS = ['alg', 'typ', 'kid', 'cty', 'enc'];

/** A whole decoded text that is one JWT. */
const JWT_WHOLE = /^eyJ[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]*$/;

/** npm: granular/automation tokens (npm_…), an .npmrc's `_authToken=<token>` and `_auth=<base64 user:password>`, and `<token>:x-oauth-basic@` in a git dependency URL. */
function notAnNpmToken(match: RegExpExecArray, text: string, _context: LineContext): boolean | RuleDrop {
  const value = match[1] ?? match[2] ?? match[3] ?? match[0];
  if (match[2] !== undefined && !(decodeBase64(match[2]) ?? '').includes(':')) return true;
  // A registry's token is keyed `//host/path/:_authToken`; a key without the `//` is no .npmrc's.
  if (
    match[1] !== undefined &&
    /\/:$/.test(text.slice(0, match.index)) &&
    !/(?:^|[\s"'])\/\/[^\s"']*\/:$/.test(text.slice(0, match.index))
  )
    return true;
  return (
    placeholderDrop(value, match[1] !== undefined || match[3] !== undefined ? 3 : 0) || notPlaceholder()(match, text)
  );
}

export const family: BuiltinFamily = {
  section: 'secrets',
  credential: true,
  specs: () => [
    secret({
      id: 'github-token',
      // Classic tokens (ghp_/gho_/ghu_/ghr_ + 36), installation tokens (ghs_, now also the longer
      // ghs_<app id>_<JWT> form) and fine-grained personal access tokens (github_pat_…).
      regex: /\b(?:gh[pour]_[A-Za-z0-9]{36}\b|ghs_[A-Za-z0-9._-]{36,}|github_pat_[A-Za-z0-9_]{60,255}\b)/g,
      title: 'GitHub token committed',
      what: 'A GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_) is added.',
      confidence: 0.95,
      reject: notPlaceholder(0, 3),
    }),
    secret({
      id: 'slack-token',
      regex: /\b(?:(?:xoxe\.)?xox[abeoprs]-[0-9A-Za-z]+(?:-[0-9A-Za-z]+)*|xapp-\d+-[0-9A-Za-z]+(?:-[0-9A-Za-z]+)+)/g,
      title: 'Slack token committed',
      what: 'A Slack token (xoxb-/xoxp-/xapp-/…) is added.',
      confidence: 0.9,
      reject: notASlackToken,
    }),
    secret({
      id: 'slack-webhook',
      regex:
        /\bhooks\.slack\.com\/(?:services\/(T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,})|workflows\/(T[A-Z0-9]{6,}\/A[A-Z0-9]{6,}\/\d+\/[A-Za-z0-9]{20,})|triggers\/(T[A-Z0-9]{6,}\/\d+\/[A-Za-z0-9]{20,}))/g,
      title: 'Slack webhook URL committed',
      what: 'A Slack incoming-webhook URL is added: whoever has it can post to the channel.',
      confidence: 0.9,
      // The placeholder test reads the path of IDs and secret, not the host's words.
      reject: (match, text) => notPlaceholder(match[1] ? 1 : match[2] ? 2 : 3)(match, text),
    }),
    secret({
      id: 'stripe-key',
      // Secret and restricted keys in live and test mode (the publishable pk_ keys are public),
      // and webhook signing secrets.
      regex: /\b(?:[sr]k_(?:live|test|prod)_[0-9A-Za-z]{10,247}|whsec_[0-9A-Za-z]{32,})\b/g,
      title: 'Stripe secret key committed',
      what: 'A Stripe secret or restricted key (sk_/rk_) or webhook secret (whsec_) is added.',
      confidence: 0.9,
      reject: (match, text) => {
        const tail = match[0].slice(match[0].lastIndexOf('_') + 1);
        if (characterClasses(tail) < 2 || entropy(tail) < 3) return placeholderDrop(match[0]) || true;
        return notPlaceholder()(match, text);
      },
    }),
    secret({
      id: 'npm-token',
      // An .npmrc `_authToken` under any registry prefix, in npm's legacy UUID shape or a
      // registry's own (Artifactory, Nexus, GitHub…); an OAuth token in a git dependency URL.
      regex:
        /\bnpm_[A-Za-z0-9]{36}\b|_authToken\s*=\s*["']?([A-Za-z0-9._~+/=-]{20,512})|\b_auth\s*=\s*["']?([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])|\b([0-9a-f]{40}|gh[opsu]_[A-Za-z0-9]{36,255}):x-oauth-basic@/g,
      title: 'npm access token committed',
      what: 'An npm access token (npm_…, or an .npmrc _authToken/_auth) is added.',
      confidence: 0.95,
      reject: notAnNpmToken,
    }),
    secret({
      id: 'jwt',
      // It starts where a run of base64url characters starts (or after an escape such as `\\n`):
      // a start inside a run (`-eyJ-eyJ…`) would scan that run again from every `eyJ` of it,
      // quadratic in the line (docs/review.md "Time").
      regex:
        /(?:(?<![A-Za-z0-9_-])|(?<=\\[nrt]))eyJ[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]*|(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/]{40,}={0,2}/g,
      title: 'JSON Web Token committed',
      what: 'A signed JSON Web Token is added: until it expires, it is a bearer credential.',
      confidence: 0.85,
      reject: notAJwt,
    }),
  ],
};
