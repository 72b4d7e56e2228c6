/** A candidate as an OKF concept file, from templates/candidate.md (docs/gate.md). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../core/package-root.js';
import { toYaml, yamlScalar } from './yaml.js';
import type { KnowledgeCandidate } from './model.js';

declare const REVTRAIL_VERSION: string | undefined;

export async function revtrailVersion(): Promise<string> {
  if (typeof REVTRAIL_VERSION === 'string') return REVTRAIL_VERSION;
  const pkg = JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export async function loadTemplate(): Promise<string> {
  return readFile(join(packageRoot(), 'templates', 'candidate.md'), 'utf8');
}

export function renderCandidate(
  template: string,
  candidate: KnowledgeCandidate,
  description: string,
  version: string,
): string {
  const x = {
    id: candidate.id,
    rule_source: candidate.rule_source,
    category: candidate.category,
    trust_level: candidate.trust_level,
    status: candidate.status,
    generated_at: candidate.generated_at,
    gate: candidate.gate,
    evidence: candidate.evidence,
  };
  const xBlock = toYaml(x, 2);
  const values: Record<string, string> = {
    title: yamlScalar(candidate.title),
    description: yamlScalar(description),
    generated_by: yamlScalar(`revtrail/${version}`),
    generated_at: yamlScalar(candidate.generated_at),
    x: xBlock,
    heading: candidate.title.replace(/\s+/g, ' '),
    body: candidate.body,
  };
  const text = template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
  return text.endsWith('\n') ? text : `${text}\n`;
}
