/**
 * Allow comments (docs/review.md "Allow comments and excludes"): `revtrail-allow RULE [reason]`
 * in a comment on the flagged line, or alone on the line above, and `gitleaks:allow` on a
 * credential's line, take that finding out of the review. It is not lost: the review lists it
 * under `allowed` and counts it under `dropped.allowed_inline`. For credential findings the
 * config's `gate.credentialAllow` decides whether an allow comment is honoured at all (the
 * server gate and CI read that config from the base branch, so a push cannot switch it on).
 */
import type { DiffFile } from '../../diff/types.js';
import { languageOf } from '../../diff/language.js';
import { lineText } from '../engine/file-lines.js';
import type { AllowedFinding, Finding } from '../types.js';
import { escapeRegExp } from '../../core/regex-escape.js';
import { linterDirectiveFor } from './linter-directives.js';

/** `linter`: a disable comment of a linter rule the finding's rule names as `equivalent` (./linter-directives.ts). */
export type AllowMarker = 'revtrail-allow' | 'gitleaks:allow' | 'linter';

export interface InlineAllow {
  marker: AllowMarker;
  /** The line the comment is on. */
  line: number;
  /** What the comment named (rule_source or rule id; a linter's equivalent); null for gitleaks:allow. */
  rule: string | null;
  reason: string;
}

export type { AllowedFinding };

const C_LIKE = ['//', '/*'];
const HASH = ['#'];
const DASHES = ['--'];
const MARKUP = ['<!--'];
const OPENERS: Record<string, readonly string[]> = {
  go: C_LIKE,
  java: C_LIKE,
  kotlin: C_LIKE,
  scala: C_LIKE,
  groovy: C_LIKE,
  csharp: C_LIKE,
  cpp: C_LIKE,
  c: C_LIKE,
  typescript: C_LIKE,
  javascript: C_LIKE,
  rust: C_LIKE,
  swift: C_LIKE,
  'objective-c': C_LIKE,
  dart: C_LIKE,
  scss: C_LIKE,
  json: C_LIKE,
  css: ['/*'],
  php: [...C_LIKE, ...HASH],
  python: HASH,
  ruby: HASH,
  shell: HASH,
  yaml: HASH,
  perl: HASH,
  r: HASH,
  elixir: HASH,
  sql: DASHES,
  haskell: DASHES,
  lua: DASHES,
  erlang: ['%'],
  html: MARKUP,
  markdown: MARKUP,
  vue: [...C_LIKE, ...MARKUP],
  svelte: [...C_LIKE, ...MARKUP],
};
// A file of no known language (a Dockerfile, .env, a config file): any of the usual openers.
const ANY = ['//', '/*', '#', '--', '<!--', ';', '%'];

const patterns = new Map<string, { anywhere: RegExp; alone: RegExp }>();

function patternsFor(path: string) {
  const language = languageOf(path) ?? '';
  let found = patterns.get(language);
  if (!found) {
    const openers = `(?:${(OPENERS[language] ?? ANY).map(escapeRegExp).join('|')})`;
    const body = `[ \\t]*revtrail-allow[ \\t]+([^\\s]+?)(?:[ \\t]+(.*?))?[ \\t]*(?:\\*\\/|-->)?[ \\t]*$`;
    found = { anywhere: new RegExp(`${openers}${body}`), alone: new RegExp(`^[ \\t]*${openers}${body}`) };
    patterns.set(language, found);
  }
  return found;
}

/** The rule a `revtrail-allow` names matches a finding by its rule_source or its rule id. */
function names(rule: string, finding: Finding): boolean {
  return rule === finding.rule_source || rule === finding.rule_source.slice(finding.rule_source.lastIndexOf(':') + 1);
}

/**
 * The allow comment that covers this finding, if any. `equivalents`: the linter rules its rule
 * names as enforcing the same decision (never a credential rule's: a key is not a lint).
 */
export function allowFor(
  finding: Finding,
  file: DiffFile | undefined,
  credential: boolean,
  equivalents: readonly string[] = [],
): InlineAllow | null {
  if (!file) return null;
  const { anywhere, alone } = patternsFor(finding.path);
  const first = Math.min(finding.start_line, finding.line);
  for (let line = first; line <= finding.line; line++) {
    const text = lineText(file, line);
    if (text === undefined) continue;
    const match = anywhere.exec(text);
    if (match && names(match[1]!, finding))
      return { marker: 'revtrail-allow', line, rule: match[1]!, reason: (match[2] ?? '').trim() };
    if (credential && text.includes('gitleaks:allow'))
      return { marker: 'gitleaks:allow', line, rule: null, reason: '' };
  }
  const above = lineText(file, first - 1);
  const match = above === undefined ? null : alone.exec(above);
  if (match && names(match[1]!, finding))
    return { marker: 'revtrail-allow', line: first - 1, rule: match[1]!, reason: (match[2] ?? '').trim() };
  const directive = credential ? null : linterDirectiveFor(equivalents, first, (n) => lineText(file, n));
  if (directive) return { marker: 'linter', line: directive.line, rule: directive.equivalent, reason: directive.said };
  return null;
}

export interface AllowOutcome {
  kept: Finding[];
  allowed: AllowedFinding[];
  /** Credential findings whose allow comment the policy does not honour. */
  refused: Array<{ finding: Finding; allow: InlineAllow }>;
  /** Findings whose allow comment needs a signed answer at the push gate (docs/gate.md "Signed answers"). */
  needSignature: Array<{ finding: Finding; allow: InlineAllow }>;
}

/**
 * Splits findings into those that stay and those an allow comment takes out. `isCredential`
 * is the one predicate of builtin.ts; `credentialAllow` the gate's policy.
 */
export function applyAllowComments(
  findings: readonly Finding[],
  fileOf: (path: string) => DiffFile | undefined,
  isCredential: (ruleSource: string) => boolean,
  credentialAllow: boolean,
  needsSignature?: (finding: Finding) => boolean,
  equivalentsOf: (ruleSource: string) => readonly string[] = () => [],
): AllowOutcome {
  const outcome: AllowOutcome = { kept: [], allowed: [], refused: [], needSignature: [] };
  for (const finding of findings) {
    const credential = isCredential(finding.rule_source);
    const allow = allowFor(finding, fileOf(finding.path), credential, equivalentsOf(finding.rule_source));
    if (!allow) outcome.kept.push(finding);
    else if (needsSignature?.(finding)) {
      outcome.kept.push({ ...finding, allowComment: allow.marker });
      outcome.needSignature.push({ finding, allow });
    } else if (credential && !credentialAllow) {
      outcome.kept.push(finding);
      outcome.refused.push({ finding, allow });
    } else outcome.allowed.push({ ...finding, allowed: allow });
  }
  return outcome;
}

/**
 * The allow comment for `rule` in `path`'s own comment syntax, as a line of its own (the editor's
 * code action writes it above the finding): the first opener the file's language takes, closed
 * where that opener needs it.
 */
export function allowCommentLine(path: string, rule: string, reason: string): string {
  const opener = (OPENERS[languageOf(path) ?? ''] ?? ['#'])[0]!;
  const text = `revtrail-allow ${rule}${reason.trim() ? ` ${reason.replace(/\s+/g, ' ').trim()}` : ''}`;
  if (opener === '/*') return `/* ${text} */`;
  if (opener === '<!--') return `<!-- ${text} -->`;
  return `${opener} ${text}`;
}
