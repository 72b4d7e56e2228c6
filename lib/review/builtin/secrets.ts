/** Credential formats: private keys, cloud access keys, provider tokens. */
import type { LineContext } from '../rules.js';
import type { BuiltinFamily, BuiltinSpec } from './define.js';

/** Words and shapes of documented or made-up keys (AKIAIOSFODNN7EXAMPLE, ghp_xxxx…, 000000…). */
const PLACEHOLDER = /example|sample|dummy|fake|placeholder|redacted|your_?|changeme|x{4}|\*{4}|\.\.\.|<[^>]*>|(.)\1{7}|0123456789|123456789|abcdefgh/i;

const placeholder = (group = 0) => (match: RegExpExecArray) => PLACEHOLDER.test(match[group] ?? match[0]);

/** For key material: real key bodies hold runs of `A` (zero bytes), so only words and elisions count. */
const PLACEHOLDER_BODY = /example|sample|dummy|fake|placeholder|redacted|your|x{4}|\.\.\.|…|<[^>]*>/i;

const KEY_MATERIAL = /^[A-Za-z0-9+/=]{16,}$/;

/**
 * A private key block, not code that only names the header (`pem.startsWith('-----BEGIN …')`):
 * the header is the whole line and key material follows on the next added lines (a PEM file),
 * or key material follows an escaped newline on the same line (a key inside a JSON/JS string).
 */
function notAPrivateKey(match: RegExpExecArray, text: string, context: LineContext): boolean {
  const after = text.slice(match.index + match[0].length);
  const inline = /^(?:\\r)?\\n([A-Za-z0-9+/=]{16,})/.exec(after);
  if (inline) return PLACEHOLDER_BODY.test(inline[1]!);
  const bare = text.trim().replace(/^["'`]|["'`,;]+$/g, '');
  if (bare !== match[0]) return true;
  const next = context.added.slice(context.index + 1, context.index + 4).map((a) => a.text.trim().replace(/^["'`]|["'`,;]+$/g, ''));
  const body = next.filter((t) => !/^[\w-]+:/.test(t) && t !== '');
  if (body.some((t) => PLACEHOLDER_BODY.test(t))) return true;
  return !body.some((t) => KEY_MATERIAL.test(t));
}

const secret = (spec: Omit<BuiltinSpec, 'severity' | 'category'>): BuiltinSpec => ({ severity: 'security', category: 'security', ...spec });

const SECRET_MESSAGE =
  'Anything pushed stays in the history even after a later commit removes it. Revoke or rotate the credential, ' +
  'then load it from the environment or a secret store instead of the source.';

export const family: BuiltinFamily = {
  section: 'secrets',
  credential: true,
  specs: () => [
    secret({
      id: 'private-key',
      regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
      title: 'Private key committed',
      message: `A private key block is added to the repository. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: notAPrivateKey,
    }),
    secret({
      id: 'aws-access-key',
      regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
      title: 'AWS access key ID committed',
      message: `An AWS access key ID (AKIA…/ASIA…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(),
    }),
    secret({
      id: 'aws-secret-key',
      regex: /\baws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
      title: 'AWS secret access key committed',
      message: `An AWS secret access key is assigned in the source. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(1),
    }),
    secret({
      id: 'github-token',
      regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b/g,
      title: 'GitHub token committed',
      message: `A GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_) is added. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: placeholder(),
    }),
    secret({
      id: 'slack-token',
      regex: /\bxox[baprs]-[0-9A-Za-z]{6,}-[0-9A-Za-z-]{6,}/g,
      title: 'Slack token committed',
      message: `A Slack token (xoxb-/xoxp-/…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(),
    }),
    secret({
      id: 'stripe-key',
      regex: /\b[sr]k_live_[0-9A-Za-z]{20,}\b/g,
      title: 'Stripe live secret key committed',
      message: `A Stripe live secret or restricted key is added. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: placeholder(),
    }),
    secret({
      id: 'google-api-key',
      regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
      title: 'Google API key committed',
      message: `A Google API key (AIza…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(),
    }),
    secret({
      id: 'npm-token',
      regex: /\bnpm_[A-Za-z0-9]{36}\b/g,
      title: 'npm access token committed',
      message: `An npm access token (npm_…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: placeholder(),
    }),
  ],
};
