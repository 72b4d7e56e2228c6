/**
 * rule_source of a model finding (docs/model.md): `<doc-id>:<rule>` when it
 * cites a document, else `reviewer/<model>:<rule>`, with the model's name reduced to the
 * rule_source grammar (`qwen2.5-coder:7b` → `qwen2-5-coder-7b`).
 */
import { RULE_SOURCE_PATTERN } from '../findings/contract.js';

/** Lowercase kebab-case: what the contract asks a model's `rule` to be. */
export const RULE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function kebab(text: string, fallback: string): string {
  const reduced = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return reduced || fallback;
}

export function modelRuleSource(model: string, rule: unknown, citations: unknown): string {
  const name = kebab(typeof rule === 'string' ? rule : '', 'finding');
  const cited = Array.isArray(citations) && typeof citations[0] === 'string' ? `${citations[0]}:${name}` : null;
  if (cited && RULE_SOURCE_PATTERN.test(cited)) return cited;
  return `reviewer/${kebab(model, 'model')}:${name}`;
}
