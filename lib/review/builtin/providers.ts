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
  {
    id: 'gitlab-token',
    name: 'GitLab token',
    regex: /\bgl(?:pat|dt|ptt|rt|soat|cbt|ffct|ft|imt|agent|oas)-[0-9A-Za-z_-]{20,}/g,
    minEntropy: 3,
  },
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
  {
    id: 'huggingface-token',
    name: 'Hugging Face token',
    regex: /\b(?:hf_[A-Za-z0-9]{34,40}|api_org_[A-Za-z]{34})\b/g,
    minEntropy: 3.8,
  },
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
  // Issue 58: the distinctive formats gitleaks' default rules know, each from its provider's
  // documentation (docs/review.md "Credential formats and where they come from").
  {
    id: 'onepassword-token',
    name: '1Password service account token or secret key',
    regex:
      /\bops_eyJ[A-Za-z0-9+/_-]{100,}={0,3}|\bA3-[A-Z0-9]{6}-[A-Z0-9]{6}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/g,
    minEntropy: 3,
  },
  { id: 'alibaba-access-key', name: 'Alibaba Cloud AccessKey ID', regex: /\bLTAI[A-Za-z0-9]{12,20}\b/g, minEntropy: 3 },
  {
    id: 'grafana-token',
    name: 'Grafana token',
    regex: /\bglc_[A-Za-z0-9+/]{32,400}={0,3}|\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b/g,
    minEntropy: 3.5,
  },
  { id: 'linear-key', name: 'Linear API key', regex: /\blin_api_[A-Za-z0-9]{40}\b/g, minEntropy: 3.5 },
  { id: 'notion-token', name: 'Notion integration token', regex: /\bntn_\d{11}[A-Za-z0-9]{35}\b/g, minEntropy: 3.5 },
  { id: 'perplexity-key', name: 'Perplexity API key', regex: /\bpplx-[A-Za-z0-9]{48}\b/g, minEntropy: 3.5 },
  {
    id: 'planetscale-token',
    name: 'PlanetScale token or password',
    regex: /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}/g,
    minEntropy: 3.5,
  },
  { id: 'postman-key', name: 'Postman API key', regex: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g, minEntropy: 3 },
  { id: 'prefect-key', name: 'Prefect API key', regex: /\bpnu_[A-Za-z0-9]{36}\b/g, minEntropy: 3.5 },
  { id: 'pulumi-token', name: 'Pulumi access token', regex: /\bpul-[a-f0-9]{40}\b/g, minEntropy: 3 },
  { id: 'rubygems-key', name: 'RubyGems API key', regex: /\brubygems_[a-f0-9]{48}\b/g, minEntropy: 3 },
  {
    id: 'brevo-key',
    name: 'Brevo (Sendinblue) API key',
    regex: /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g,
    minEntropy: 3,
  },
  { id: 'shippo-token', name: 'Shippo API token', regex: /\bshippo_(?:live|test)_[a-f0-9]{40}\b/g, minEntropy: 3 },
  {
    id: 'square-token',
    name: 'Square access token or secret',
    regex: /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}/g,
    minEntropy: 3.5,
  },
  { id: 'heroku-key', name: 'Heroku API key', regex: /\bHRKU-AA[A-Za-z0-9_-]{58}/g, minEntropy: 3.5 },
  {
    id: 'doppler-token',
    name: 'Doppler token',
    regex: /\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
    minEntropy: 3.5,
  },
  {
    id: 'dynatrace-token',
    name: 'Dynatrace API token',
    regex: /\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b/g,
    minEntropy: 3,
  },
  { id: 'easypost-key', name: 'EasyPost API key', regex: /\b(?:EZAK|EZTK)[A-Za-z0-9]{54}\b/g, minEntropy: 3.5 },
  {
    id: 'flyio-token',
    name: 'Fly.io token',
    regex: /\bfo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|\b(?:fm1a_|fm1r_|fm2_)[A-Za-z0-9+/]{100,}={0,3}/g,
    minEntropy: 3.5,
  },
  {
    id: 'teams-webhook',
    name: 'Microsoft Teams incoming webhook URL',
    regex:
      /\b[a-z0-9-]+\.webhook\.office\.com\/webhookb2\/[0-9a-f-]{36}@[0-9a-f-]{36}\/IncomingWebhook\/([0-9a-f]{32})\/[0-9a-f-]{36}/g,
    minEntropy: 3,
    group: 1,
  },
  { id: 'artifactory-key', name: 'JFrog Artifactory API key', regex: /\bAKCp[A-Za-z0-9]{69}\b/g, minEntropy: 3.5 },
  {
    id: 'cloudflare-origin-ca-key',
    name: 'Cloudflare Origin CA key',
    regex: /\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b/g,
    minEntropy: 3,
  },
  { id: 'readme-key', name: 'ReadMe API key', regex: /\brdme_[a-z0-9]{70}\b/g, minEntropy: 3.5 },
  {
    id: 'openshift-token',
    name: 'OpenShift user token',
    regex: /\bsha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    minEntropy: 3.5,
  },
  {
    id: 'duffel-token',
    name: 'Duffel API token',
    regex: /\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}/g,
    minEntropy: 3.5,
  },
  { id: 'frameio-token', name: 'Frame.io API token', regex: /\bfio-u-[A-Za-z0-9_=-]{64}/g, minEntropy: 3.5 },
  { id: 'scalingo-token', name: 'Scalingo API token', regex: /\btk-us-[A-Za-z0-9_-]{48}/g, minEntropy: 3.5 },
  { id: 'clojars-token', name: 'Clojars deploy token', regex: /\bCLOJARS_[a-z0-9]{60}\b/g, minEntropy: 3 },
  { id: 'octopus-key', name: 'Octopus Deploy API key', regex: /\bAPI-[A-Z0-9]{26}\b/g, minEntropy: 3 },
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
