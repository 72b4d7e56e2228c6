/**
 * Credential formats of keys: private key blocks, AWS (access key IDs, secret keys, Bedrock API
 * keys) and Google API keys. Patterns start with a literal and run in linear time; a value that
 * is a placeholder or a published example is dropped and counted (./secret-shape.ts).
 * The formats and where they are documented: docs/review.md.
 */
import type { BuiltinFamily, BuiltinSpec } from './define.js';
import { notAPrivateKey } from './pem.js';
import { characterClasses, entropy, notPlaceholder, placeholderDrop } from './secret-shape.js';
import { reviewMessages as m } from '../../messages/review.js';
import { UNREAD_MARKER } from '../../diff/past-cap.js';
import { escapeRegExp } from '../../core/regex-escape.js';

export const secret = (
  spec: Omit<BuiltinSpec, 'severity' | 'category' | 'message'> & { what: string },
): BuiltinSpec => {
  const { what, ...rest } = spec;
  return { severity: 'security', category: 'security', message: m.secretMessage(what), ...rest };
};

/** The 40-character value after the name, read where the name ends (sticky: no copy of the rest of the line; one `\s*` per gap: linear). */
const ASSIGNED_SECRET = /["']?\s*(?:=>|:=|[:=])\s*(?:\(\s*)?["'`]?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/y;

export const family: BuiltinFamily = {
  section: 'secrets',
  credential: true,
  specs: () => [
    secret({
      // What a big file's cap left unread (lib/diff/past-cap.ts writes the line): it cannot pass.
      id: 'unread-past-cap',
      regex: new RegExp(`^${escapeRegExp(UNREAD_MARKER)}`, 'g'),
      title: 'Credential check could not read all of a big file',
      what: 'Past the size cap this file has more credential-shaped lines than the review keeps; the rest was not read, so the check cannot pass it.',
      confidence: 1,
    }),
    secret({
      id: 'private-key',
      regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
      title: 'Private key committed',
      what: 'A private key block is added to the repository.',
      confidence: 0.95,
      reject: notAPrivateKey,
    }),
    secret({
      id: 'aws-access-key',
      // Long-term (AKIA), temporary (ASIA), service bearer (ABIA), context (ACCA) key IDs and
      // the older A3T… shape; IDs of users, roles and groups (AIDA, AROA, AGPA) are not secrets.
      regex: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
      title: 'AWS access key ID committed',
      what: 'An AWS access key ID (AKIA…/ASIA…) is added.',
      confidence: 0.9,
      reject: notPlaceholder(0, 2.5),
    }),
    secret({
      id: 'aws-secret-key',
      // The 40-character secret after any of its usual names: aws_secret_access_key,
      // AWS_SECRET_ACCESS_KEY, SecretAccessKey (STS and CLI JSON), secretAccessKey (SDK options).
      regex: /(?:aws_?)?secret_?access_?key|aws_?secret_?key/gi,
      title: 'AWS secret access key committed',
      what: 'An AWS secret access key is assigned in the source.',
      confidence: 0.9,
      reject: (match, text) => {
        ASSIGNED_SECRET.lastIndex = match.index + match[0].length;
        const value = ASSIGNED_SECRET.exec(text)?.[1];
        // A real secret is random base64: mixed case and digits, well spread.
        if (value === undefined || characterClasses(value) < 3 || entropy(value) < 4) return true;
        return placeholderDrop(value);
      },
    }),
    secret({
      id: 'aws-bedrock-key',
      // Long-term keys: ABSK + base64 of the service credential; short-term keys: a presigned
      // URL in base64 behind `bedrock-api-key-`.
      regex: /(?<![A-Za-z0-9+/])(?:ABSK[A-Za-z0-9+/]{60,}={0,2}|bedrock-api-key-[A-Za-z0-9+/]{40,}={0,2})/g,
      title: 'Amazon Bedrock API key committed',
      what: 'An Amazon Bedrock API key (ABSK…/bedrock-api-key-…) is added.',
      confidence: 0.9,
      reject: notPlaceholder(0, 3.5),
    }),
    secret({
      id: 'google-api-key',
      // Every key Google issues starts AIzaSy: `AIza` and 35 other characters is some other value.
      regex: /\bAIzaSy[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])/g,
      title: 'Google API key committed',
      what: 'A Google API key (AIza…) is added.',
      confidence: 0.9,
      reject: notPlaceholder(0, 3),
    }),
  ],
};
