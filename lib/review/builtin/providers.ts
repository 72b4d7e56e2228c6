/**
 * Credential formats of other providers, one entry each: a distinctive prefix (or a checksum-
 * like fixed part) and the shape after it. The formats and where they are documented:
 * docs/review.md.
 */
import type { BuiltinFamily, BuiltinSpec } from './define.js';
import { secret } from './secrets.js';
import { notPlaceholder } from './secret-shape.js';

interface Provider {
  id: string;
  /** Who issued it, for the title and the message. */
  name: string;
  regex: RegExp;
  /** Least randomness (bits per character) of a real value. */
  minEntropy?: number;
  /** The group holding the secret itself (default: the whole match). */
  group?: number;
}

// A pattern whose value runs over the characters its prefix is made of starts only where such a
// run starts (the OpenAI key's lookbehind): otherwise every `sk-` inside one run would scan the
// run again, quadratic in the line (docs/review.md "Time").
const PROVIDERS: readonly Provider[] = [
  { id: 'gitlab-token', name: 'GitLab token', regex: /\bgl(?:pat|dt|ptt|rt|soat)-[0-9A-Za-z_-]{20,}/g, minEntropy: 3 },
  {
    id: 'openai-key',
    name: 'OpenAI API key',
    regex: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}/g,
  },
  {
    id: 'anthropic-key',
    name: 'Anthropic API key',
    regex: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}/g,
    minEntropy: 3.5,
  },
  {
    id: 'sendgrid-key',
    name: 'SendGrid API key',
    regex: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g,
    minEntropy: 3.5,
  },
  { id: 'pypi-token', name: 'PyPI upload token', regex: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g },
  { id: 'docker-token', name: 'Docker Hub access token', regex: /\bdckr_pat_[A-Za-z0-9_-]{27,}/g, minEntropy: 3.5 },
  { id: 'vault-token', name: 'HashiCorp Vault token', regex: /\bhv[sb]\.[A-Za-z0-9_-]{24,}/g, minEntropy: 3.5 },
  {
    id: 'shopify-token',
    name: 'Shopify access token',
    regex: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
    minEntropy: 3,
  },
  { id: 'huggingface-token', name: 'Hugging Face token', regex: /\bhf_[A-Za-z0-9]{34,40}\b/g, minEntropy: 3.8 },
  { id: 'digitalocean-token', name: 'DigitalOcean token', regex: /\bdo[opr]_v1_[a-f0-9]{64}\b/g, minEntropy: 3 },
  { id: 'twilio-key', name: 'Twilio API key', regex: /\bSK[0-9a-f]{32}\b/g, minEntropy: 3 },
  { id: 'databricks-token', name: 'Databricks token', regex: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g, minEntropy: 3 },
  {
    id: 'age-secret-key',
    name: 'age secret key',
    regex: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g,
  },
  {
    id: 'azure-storage-key',
    name: 'Azure storage account key',
    regex: /\bAccountKey=([A-Za-z0-9+/]{86}==)/g,
    minEntropy: 4,
    group: 1,
  },
  { id: 'telegram-bot-token', name: 'Telegram bot token', regex: /\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b/g, minEntropy: 3.5 },
];

export const family: BuiltinFamily = {
  section: 'secrets',
  credential: true,
  specs: (): BuiltinSpec[] =>
    PROVIDERS.map((p) =>
      secret({
        id: p.id,
        regex: p.regex,
        title: `${p.name} committed`,
        what: `A ${p.name} is added.`,
        confidence: 0.9,
        reject: notPlaceholder(p.group ?? 0, p.minEntropy ?? 0),
      }),
    ),
};
